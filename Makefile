# briscola: the two commands a new user needs are `make report` and `make test`
# (`make python` installs the Python package into .venv; `make test` does it too).
# Everything builds in the release profile only (one build serves the tool, the tests and the
# benchmarks). Set CARGO_TARGET_DIR to reuse a build directory outside the checkout.

CARGO ?= cargo
CARGO_TARGET_DIR ?= target
export CARGO_TARGET_DIR
BIN := $(CARGO_TARGET_DIR)/release/briscola
CONFIG ?= pipeline.toml

PYTHON ?= python3
VENV ?= .venv
# The crates `cargo test` runs: the study crate and the core (the Python binding is a cdylib
# that only links inside Python; pytest tests it).
TEST_CRATES := -p briscola -p briscola-core

.PHONY: build report test bench check fmt clippy clean-outputs fuzz python python-test

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
	$(CARGO) test --release --locked $(TEST_CRATES)
	$(MAKE) python-test

## The Python package (python/, built by maturin on the core crate) and its test extras, in .venv.
python:
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet "./python[test]"

## The Python package's tests (PettingZoo api_test/seed_test, Gymnasium check_env, parity with
## the pipeline's games and policies).
python-test: python
	BRISCOLA_BIN=$(abspath $(BIN)) $(VENV)/bin/python -m pytest -q python/tests

## The config, record and position fuzz tests with many more cases than `make test` runs (seeded).
FUZZ_CASES ?= 200000
fuzz:
	BRISCOLA_FUZZ_CASES=$(FUZZ_CASES) $(CARGO) test --release --locked --test it -- config_fuzz record_fuzz --nocapture

## Benchmarks: the bare engine, the search agent and the ONNX policy (criterion), the whole pipeline's stages
## and the Python environments;
## see BENCHMARKS.md.
bench: build
	$(CARGO) bench --locked --bench engine
	$(CARGO) bench --locked -p briscola-core --bench batch
	$(CARGO) bench --locked --bench search
	$(CARGO) bench --locked --bench onnx
	./benches/pipeline.sh $(BIN)
	$(MAKE) python
	$(VENV)/bin/python python/examples/bench_envs.py

fmt:
	$(CARGO) fmt --all

clippy:
	$(CARGO) clippy --release --locked --workspace --all-targets -- -D warnings

check:
	$(CARGO) fmt --all -- --check
	$(MAKE) clippy
	$(MAKE) test
