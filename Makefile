# briscola: the two commands a new user needs are `make report` and `make test`.
# Everything builds in the release profile only (one build serves the tool, the tests and the
# benchmarks). Set CARGO_TARGET_DIR to reuse a build directory outside the checkout.

CARGO ?= cargo
CARGO_TARGET_DIR ?= target
export CARGO_TARGET_DIR
BIN := $(CARGO_TARGET_DIR)/release/briscola
CONFIG ?= pipeline.toml

.PHONY: build report test bench check fmt clippy clean-outputs fuzz

build:
	$(CARGO) build --release --locked

## Build, run the whole pipeline with the committed pipeline.toml, verify every output hash
## against the committed lock, and say where the report is.
report: build
	$(BIN) run --config $(CONFIG)
	$(BIN) verify --config $(CONFIG)
	@echo
	@echo "Report: $(CURDIR)/outputs/report.html  (Markdown: outputs/report.md, data: outputs/results.json)"

## The whole test suite (unit, property, integration through the real binary, snapshots).
test:
	$(CARGO) test --release --locked

## The config fuzz test with many more cases than `make test` runs (seeded, so repeatable).
FUZZ_CASES ?= 200000
fuzz:
	BRISCOLA_FUZZ_CASES=$(FUZZ_CASES) $(CARGO) test --release --locked --test it config_fuzz -- --nocapture

## Benchmarks: the bare engine, the search agent and the ONNX policy (criterion) and the whole pipeline's stages;
## see BENCHMARKS.md.
bench: build
	$(CARGO) bench --locked --bench engine
	$(CARGO) bench --locked --bench search
	$(CARGO) bench --locked --bench onnx
	./benches/pipeline.sh $(BIN)

fmt:
	$(CARGO) fmt --all

clippy:
	$(CARGO) clippy --release --locked --all-targets -- -D warnings

check:
	$(CARGO) fmt --all -- --check
	$(MAKE) clippy
	$(MAKE) test
