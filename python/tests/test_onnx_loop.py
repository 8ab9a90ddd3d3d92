"""The research loop: a policy written in Python as ONNX (briscola-v1) plays through the
pipeline's `onnx` kind exactly as its numpy twin chooses, and the committed trained policy
beats random."""

import textwrap

import numpy as np
import pytest

from briscola import NUM_ACTIONS, OBS_LEN, Game, Policy
from briscola.vector import VectorEnv

from conftest import ROOT

onnx = pytest.importorskip("onnx")

from briscola.onnx_export import linear_policy, mlp_policy  # noqa: E402


def numpy_choice(W, b, obs, mask):
    z = obs @ W + b
    z = np.where(mask > 0, z, -np.inf)
    return int(np.argmax(z))


def study_with(tmp_path, model):
    f = tmp_path / "study.toml"
    f.write_text(textwrap.dedent(f"""
        [policies.mine]
        kind = "onnx"
        model = "{model.name}"
        encoding = "briscola-v1"
    """))
    return f


@pytest.mark.parametrize("hidden", [False, True])
def test_an_exported_policy_plays_as_its_numpy_twin(tmp_path, hidden):
    rng = np.random.default_rng(3)
    if hidden:
        W1, b1 = rng.normal(size=(OBS_LEN, 16)), rng.normal(size=16)
        W2, b2 = rng.normal(size=(16, NUM_ACTIONS)), rng.normal(size=NUM_ACTIONS)
        model = mlp_policy(W1, b1, W2, b2, tmp_path / "m.onnx")

        def choose(o, m):
            h = np.maximum(o @ W1.astype(np.float32) + b1.astype(np.float32), 0)
            return numpy_choice(W2.astype(np.float32), b2.astype(np.float32), h, m)
    else:
        W, b = rng.normal(size=(OBS_LEN, NUM_ACTIONS)), rng.normal(size=NUM_ACTIONS)
        model = linear_policy(W, b, tmp_path / "m.onnx")

        def choose(o, m):
            return numpy_choice(W.astype(np.float32), b.astype(np.float32), o, m)

    p = Policy("mine", str(study_with(tmp_path, model)))
    assert p.kind == "onnx"
    checked = 0
    for game in range(20):
        g = Game(seed=1, game=game)
        while not g.is_over:
            seat = g.to_play
            want = choose(g.observation(seat), g.action_mask())
            assert p.act(g) == want
            checked += 1
            g.step(int(rng.choice(g.legal_actions())))
    assert checked == 800


def test_the_committed_trained_policy_beats_random():
    data = np.load(ROOT / "models" / "reinforce-v1" / "reinforce-v1.npz")
    W, b = data["W"], data["b"]
    games = 4000
    env = VectorEnv(games, opponents="random", seed=777)
    obs, mask = env.reset()
    score = np.full(games, np.nan)
    while np.isnan(score).any():
        z = np.where(mask > 0, obs @ W + b, -np.inf)
        obs, mask, r, d = env.step(z.argmax(axis=1))
        fresh = d & np.isnan(score)
        score[fresh] = (r[fresh] + 1) / 2
    assert score.mean() > 0.8, score.mean()
    # Its ONNX file is the same policy: it plays through the pipeline's onnx kind.
    study = ROOT / "python" / "examples" / "league.toml"
    p = Policy("reinforce", str(study))
    g = Game(seed=5)
    z = np.where(g.action_mask() > 0, g.observation(g.to_play) @ W + b, -np.inf)
    assert p.act(g) == int(z.argmax())


def test_export_refuses_bad_weights_and_paths_and_writes_whole_files(tmp_path):
    W = np.zeros((206, 40), dtype=np.float32)
    b = np.zeros(40, dtype=np.float32)
    W[3, 4] = np.nan
    with pytest.raises(ValueError, match="W: 1 of its weights are NaN or infinite"):
        linear_policy(W, b, tmp_path / "nan.onnx")
    assert not (tmp_path / "nan.onnx").exists()
    W[3, 4] = 0.0
    with pytest.raises(ValueError, match="is a directory"):
        linear_policy(W, b, tmp_path)
    with pytest.raises(ValueError, match="does not exist"):
        linear_policy(W, b, tmp_path / "nodir" / "p.onnx")
    out = linear_policy(W, b, tmp_path / "p.onnx")
    assert out.stat().st_size > 0
    assert [p.name for p in tmp_path.iterdir()] == ["p.onnx"], "no temporary left behind"
