"""The pipeline's exports read back in pyarrow and pandas (issues 25 and 31): a four-player team
study and a three-player league, run on a small config by the real binary, export their game and
trick tables with per-seat columns; the Parquet files carry the study's metadata in the Arrow
schema (where pyarrow looks) and plain (not view) string types, and every replayed game scores
what its exported row says."""

import json
import shutil
import subprocess

import pyarrow as pa
import pyarrow.parquet as pq
import pandas as pd
import pytest

from conftest import ROOT

CONFIG = """
[study]
title = "exports"
name = "paper"
published = "templates/published.toml"

[simulate]
deal_source = "chacha"
seed = 7
games = 90
policies = ["greedy", "hoarder", "counter"]

[policies.greedy]
kind = "greedy"

[policies.hoarder]
kind = "hoarder"
threshold = 10

[policies.counter]
kind = "counter"
threshold = 10

[variants.four]
label = "four players"
rules = { players = 4 }
games_per_matchup = 12

[leagues.three]
label = "three players"
policies = ["greedy", "hoarder", "counter"]
games_per_pair = 6
seed = 5
reference = "greedy"
rules = { players = 3, deck = 39 }

[test]
confidence = 0.95
family_alpha = 0.05
baseline = ["greedy", "greedy"]
power_delta = 0.01
power_n = 110000

[regress]
reference_policy = "greedy"
confidence = 0.95

[plot]
min_games_per_bin = 5

[render]
formats = ["md"]
"""


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    from conftest import briscola_bin

    b = briscola_bin()
    if b is None:
        pytest.skip("no briscola binary: build it with `make build`")
    d = tmp_path_factory.mktemp("exports")
    (d / "pipeline.toml").write_text(CONFIG)
    shutil.copytree(ROOT / "templates", d / "templates")
    subprocess.run([str(b), "run"], cwd=d, check=True, capture_output=True)
    return b, d


def run(study, *args):
    b, d = study
    return subprocess.run([str(b), *args], cwd=d, check=True, capture_output=True, text=True)


@pytest.mark.parametrize("name,players", [("four", 4), ("three", 3)])
def test_seat_exports_read_in_pyarrow_and_pandas(study, name, players):
    _, d = study
    for table in ["games", "tricks"]:
        out = d / f"{name}-{table}.parquet"
        run(study, "export", table, "--study", name, "--format", "parquet", "--out", str(out))
        schema = pq.read_schema(out)
        meta = schema.metadata or {}
        assert meta.get(b"study") == name.encode(), meta
        assert meta.get(b"table") == table.encode()
        assert b"policies" in meta and b"seed" in meta
        for field in schema:
            assert not str(field.type).startswith("string_view"), field
        for s in range(1, players + 1):
            col = f"points_s{s}" if table == "games" else f"card_s{s}"
            assert col in schema.names, schema.names
        frame = pq.read_table(out).to_pandas()
        csv = d / f"{name}-{table}.csv"
        run(study, "export", table, "--study", name, "--format", "csv", "--out", str(csv))
        from_csv = pd.read_csv(csv)
        assert list(from_csv.columns) == list(frame.columns)
        assert len(from_csv) == len(frame) > 0
        assert (from_csv["game_id"].to_numpy() == frame["game_id"].to_numpy()).all()


def test_every_replayed_team_game_scores_its_exported_row(study):
    _, d = study
    out = d / "four-games.parquet"
    run(study, "export", "games", "--study", "four", "--format", "parquet", "--out", str(out))
    games = pq.read_table(out).to_pandas()
    for n in [1, 7, 12]:
        j = json.loads(
            run(study, "replay", "--study", "four", "--matchup", "hoarder-vs-counter",
                "--game", str(n), "--json").stdout
        )
        src = j["source"]
        gid = (src["match_id"] - 1) * 12 + n
        row = games[games["game_id"] == gid].iloc[0]
        assert [int(row[f"points_s{s}"]) for s in range(1, 5)] == j["seat_points"]
        assert int(row["points_g1"]) == j["side_points"][0]
        assert "card for card" in j["checked"]


def test_the_paper_export_keeps_the_released_schema_and_plain_strings(study):
    _, d = study
    out = d / "paper.parquet"
    run(study, "export", "games", "--study", "paper", "--format", "parquet", "--out", str(out))
    schema = pq.read_schema(out)
    assert schema.metadata[b"study"] == b"paper"
    assert schema.field("g1_policy").type in (pa.string(), pa.large_string())
    assert schema.names[:4] == ["game_id", "match_id", "g1_policy", "g2_policy"]
