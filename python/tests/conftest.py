"""Shared helpers for the Python package's tests."""

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def briscola_bin():
    """The release `briscola` binary (BRISCOLA_BIN, else target/release/briscola), or None."""
    env = os.environ.get("BRISCOLA_BIN")
    cands = [Path(env)] if env else []
    target = os.environ.get("CARGO_TARGET_DIR")
    if target:
        cands.append(Path(target) / "release" / "briscola")
    cands.append(ROOT / "target" / "release" / "briscola")
    for c in cands:
        if c.is_file() and os.access(c, os.X_OK):
            return c
    found = shutil.which("briscola")
    return Path(found) if found else None


@pytest.fixture
def binary():
    b = briscola_bin()
    if b is None:
        pytest.skip("no briscola binary: build it with `make build` (make test builds it first)")
    return b
