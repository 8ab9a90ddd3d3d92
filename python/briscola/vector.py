"""A vector environment stepped in Rust: `num_envs` games, the learner at one seat of each, the
other seats played by named policies in Rust, finished games restarted at once.

    env = VectorEnv(1024, opponents="greedy")
    obs, mask = env.reset()
    obs, mask, reward, done = env.step(actions)   # actions: one card id per game

No Python runs per game: one `step` plays the learner's cards, the opponents' answers and any
restarts, and encodes every observation.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ._core import VecEnv


class VectorEnv:
    """`num_envs` Briscola games for one learner, stepped together in Rust."""

    def __init__(
        self,
        num_envs: int,
        opponents: Sequence[str] | str = "greedy",
        study: str | None = None,
        *,
        players: int | None = None,
        rules: dict | None = None,
        seat: int | None = None,
        seed: int = 0,
        reward: str = "win",
    ):
        if isinstance(opponents, str):
            opponents = [opponents]
        if not isinstance(opponents, Sequence) or not all(isinstance(o, str) for o in opponents):
            raise TypeError(
                f"opponents = {opponents!r}: give a policy name, or a list of names (one per other seat)"
            )
        self._env = VecEnv(
            num_envs, list(opponents), study, rules=rules, players=players, seat=seat, seed=seed, reward=reward
        )
        self.num_envs = num_envs

    def reset(self):
        """Deal every game afresh: (observations float32[n, 206], masks int8[n, 40])."""
        return self._env.reset()

    def observe(self):
        """The current (observations, masks) without stepping."""
        return self._env.observe()

    def step(self, actions):
        """Play one card id per game: (observations, masks, rewards float32[n], dones bool[n])."""
        a = np.asarray(actions)
        # Integers only: 3.7 (or True) is not a card id, and casting would play card 3 (or 1).
        if a.dtype == np.bool_ or not np.issubdtype(a.dtype, np.integer):
            raise ValueError(
                f"actions: give one whole card id (0 to 39) per game, {self.num_envs} in all; got an array of {a.dtype}"
            )
        return self._env.step(np.ascontiguousarray(a, dtype=np.int64).reshape(-1))

    @property
    def seats(self):
        """The learner's seat in each game."""
        return self._env.seats

    @property
    def results(self):
        """Finished games so far as (won, lost, tied) by the learner's side."""
        return self._env.results

    @staticmethod
    def random_actions(masks, rng: np.random.Generator):
        """A uniformly random playable card per game (masks: int8[n, 40])."""
        u = rng.random(masks.shape) * masks
        return u.argmax(axis=1)
