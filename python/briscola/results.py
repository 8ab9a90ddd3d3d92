"""A run's results as pandas frames: every table of `outputs/results.json`.

    r = briscola.results.load("outputs/results.json")
    r.tables            # {"studies.0.table2": DataFrame, ...}: every list of records, by path
    r.meta              # the run's metadata (study, seed, policies, versions) when present
    r["leagues.0.ratings"]

A table is any list of JSON objects in the file; its frame's `attrs` hold the path and the
run's metadata, so a frame saved on its own still says where it came from.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_META_KEYS = ("study", "title", "seed", "policies", "rules", "deal_source", "version", "provenance", "meta", "metadata")


@dataclass
class Results:
    """Every table of one results.json."""

    path: Path
    raw: Any
    tables: dict = field(default_factory=dict)
    meta: dict = field(default_factory=dict)

    def __getitem__(self, name: str):
        try:
            return self.tables[name]
        except KeyError:
            near = [k for k in self.tables if name.split(".")[-1] in k][:5]
            hint = f"; similar: {', '.join(near)}" if near else ""
            raise KeyError(f"no table {name!r} in {self.path}{hint}") from None

    def names(self) -> list[str]:
        """The tables' paths."""
        return sorted(self.tables)


def _walk(node: Any, path: str, out: dict) -> None:
    if isinstance(node, list):
        if node and all(isinstance(x, dict) for x in node):
            out[path] = node
        for i, x in enumerate(node):
            _walk(x, f"{path}.{i}" if path else str(i), out)
    elif isinstance(node, dict):
        for k, v in node.items():
            _walk(v, f"{path}.{k}" if path else str(k), out)


def load(path: str | Path = "outputs/results.json") -> Results:
    """Read `path` (a run's results.json) into pandas frames, one per table."""
    import pandas as pd

    p = Path(path)
    try:
        with p.open("rb") as f:
            data = f.read(256 * 1024 * 1024 + 1)
    except OSError as e:
        raise ValueError(f"cannot read the results file {p}: {e.strerror}") from None
    if len(data) > 256 * 1024 * 1024:
        raise ValueError(f"{p} is larger than 256 MiB: not a results.json written by briscola run")
    try:
        raw = json.loads(data)
    except ValueError as e:
        raise ValueError(f"{p} is not JSON ({e}); give the results.json that `briscola run` writes in outputs/") from None
    if not isinstance(raw, dict) or "studies" not in raw:
        raise ValueError(
            f"{p} is JSON but not a results file: `briscola run` writes an object with a "
            f"\"studies\" list (and sweeps, leagues, verdicts, findings) to outputs/results.json"
        )
    meta = {k: raw[k] for k in _META_KEYS if k in raw and not isinstance(raw[k], list)}
    records: dict = {}
    _walk(raw, "", records)
    tables = {}
    for name, rows in records.items():
        df = pd.json_normalize(rows)
        df.attrs["table"] = name
        df.attrs["source"] = str(p)
        df.attrs["meta"] = meta
        tables[name] = df
    return Results(path=p, raw=raw, tables=tables, meta=meta)
