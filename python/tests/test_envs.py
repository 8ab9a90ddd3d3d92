"""The environments pass their frameworks' own checkers: PettingZoo's api_test and seed_test
for 2, 3, 4 and 6 players, Gymnasium's check_env; the vector environment steps every game in
Rust and rotates the learner's seat."""

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from briscola.gym_env import BriscolaEnv  # noqa: E402
from briscola.pettingzoo_env import env as aec_env  # noqa: E402
from briscola.vector import VectorEnv  # noqa: E402


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_pettingzoo_api_test(players):
    api_test(aec_env(players=players), num_cycles=200)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_pettingzoo_seed_test(players):
    seed_test(lambda: aec_env(players=players), num_cycles=200)


def test_aec_rewards_the_winning_side():
    e = aec_env(players=4)
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    final = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term:
            final[agent] = reward
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    g = e.game
    w = g.winner
    assert sorted(final) == sorted(e.possible_agents)
    for i, a in enumerate(e.possible_agents):
        want = 0 if w is None else (1 if g.sides[i] == w else -1)
        assert final[a] == want


def test_gymnasium_check_env():
    check_env(BriscolaEnv(opponents="greedy"), skip_render_check=True)
    check_env(BriscolaEnv(opponents=["greedy", "hoarder", "counter"], players=4), skip_render_check=True)


def test_gym_env_plays_whole_games_against_the_named_policies():
    env = BriscolaEnv(opponents="greedy")
    rng = np.random.default_rng(1)
    obs, _ = env.reset(seed=5)
    total = 0
    for _ in range(50):
        done = False
        while not done:
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, r, done, trunc, info = env.step(a)
        total += 1
        assert sum(info["side_points"]) == 120
        obs, _ = env.reset()
    assert total == 50


def test_vector_env_plays_to_the_end_and_counts_results():
    env = VectorEnv(64, opponents="random", seed=2)
    obs, mask = env.reset()
    assert obs.shape == (64, 206) and mask.shape == (64, 40)
    assert sorted(set(env.seats)) == [0, 1]
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(200):
        assert (mask.sum(axis=1) > 0).all()
        obs, mask, rew, done = env.step(VectorEnv.random_actions(mask, rng))
        finished += int(done.sum())
        assert set(np.unique(rew[done])) <= {-1.0, 0.0, 1.0}
        assert (rew[~done] == 0).all()
    won, lost, tied = env.results
    assert won + lost + tied == finished and finished >= 64 * 200 // 20 - 64


def test_vector_env_equals_the_gym_env_game_for_game():
    """The same learner seat, opponent and deals: the same rewards in Rust and in Python."""
    vec = VectorEnv(1, opponents="greedy", seat=0, seed=4)
    obs, mask = vec.reset()
    # The vector env's game k is chacha game k of (seed, [learner, greedy]); reset() dealt game 1.
    gym_env = BriscolaEnv(opponents="greedy", seat=0)
    gym_env.names = ["learner", "greedy"]
    gym_env._deal_seed, gym_env._game_no = 4, 1
    gobs, _ = gym_env.reset()
    for _ in range(3):
        done = False
        while not done:
            np.testing.assert_array_equal(obs[0], gobs["observation"])
            a = int(np.flatnonzero(mask[0])[0])
            obs, mask, r, d = vec.step(np.array([a]))
            gobs, gr, done, _, _ = gym_env.step(a)
            assert bool(d[0]) == done
        assert r[0] == gr
        gobs, _ = gym_env.reset()
