"""A Gymnasium environment: one seat of Briscola against named policies.

The opponents (and, with four or six players, the partners) are the study's policies by name:
built-ins (greedy, hoarder, counter, random, search) or any `[policies.NAME]` of a study file.
Observations are dicts of `observation` (`briscola-v1`, float32[206]) and `action_mask`
(int8[40]); actions are card ids. The action space samples only playable cards (so a random
agent plays legal games). Every action of the space is a valid action, as Gymnasium asks: a card
id the agent may not play now is, by default (`illegal_action="substitute"`), replaced by its
lowest playable card, with `info["illegal_action"] = True` and `illegal_penalty` added to the
reward; `illegal_action="raise"` raises ValueError instead. An action outside 0..39 always
raises.
The reward comes at the end: +1 for a win of the agent's side, -1 for a loss, 0 for a tie
(`reward="points"`: the point difference / 120).
"""

from __future__ import annotations

from collections.abc import Sequence

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ._core import NUM_ACTIONS, OBS_LEN, Game, Policy


def _whole(name: str, value) -> int:
    """`value` as a whole number (Python's or numpy's; not a bool, a float or a string)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} = {value!r}: give a whole number")
    return int(value)


def _policy_names(opponents, n: int) -> list[str]:
    """`opponents` as one policy name per other seat: one name for all, or a list of names."""
    if isinstance(opponents, str):
        return [opponents] * (n - 1)
    if not isinstance(opponents, Sequence) or not all(isinstance(o, str) for o in opponents):
        raise TypeError(
            f"opponents = {opponents!r}: give a policy name, or a list of names (one per other seat)"
        )
    if len(opponents) != n - 1:
        raise ValueError(
            f"opponents: give one policy for every other seat ({n - 1}), in seat order after the agent's, or one name for all"
        )
    return list(opponents)


def _game_for(rules: dict | None, players) -> Game:
    """A probe game of `rules`, with `players` unless the rules name theirs (both must agree)."""
    if rules and "players" in rules:
        probe = Game(rules)
        if players is not None and players != probe.players:
            raise ValueError(
                f"players = {players!r} and rules['players'] = {probe.players}: give the number once, or the same in both"
            )
        return probe
    return Game(rules, players=2 if players is None else players)


def _action_id(action) -> int:
    """An action as a card id: one integer (Python's or numpy's, or an integer array of one
    element); a float such as 3.7 is refused rather than truncated to card 3."""
    a = np.asarray(action)
    if a.size != 1 or not np.issubdtype(a.dtype, np.integer):
        raise ValueError(
            f"action {action!r} is not a card id: give one integer, 0 to {NUM_ACTIONS - 1}"
        )
    return int(a.reshape(()))


class LegalCards(spaces.Discrete):
    """Discrete(40) whose `sample()` without a mask draws a card the agent may play now."""

    def __init__(self, legal_mask, seed=None):
        super().__init__(NUM_ACTIONS, seed=seed)
        self._legal_mask = legal_mask

    def sample(self, mask=None, probability=None):
        if mask is None and probability is None:
            mask = self._legal_mask()
            if mask is None or not mask.any():
                return super().sample()
        return super().sample(mask=mask, probability=probability)


class BriscolaEnv(gym.Env):
    """One seat of Briscola against policies that play the other seats."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        opponents: Sequence[str] | str = "greedy",
        study: str | None = None,
        players: int | None = None,
        rules: dict | None = None,
        seat: int = 0,
        reward: str = "win",
        render_mode: str | None = None,
        illegal_action: str = "substitute",
        illegal_penalty: float = 0.0,
    ):
        probe = _game_for(rules, players)
        self._rules = probe.rules
        n = probe.players
        opponents = _policy_names(opponents, n)
        seat = _whole("seat", seat)
        if not 0 <= seat < n:
            raise ValueError(f"seat = {seat}: the agent's seat is 0 to {n - 1}")
        if reward not in ("win", "points"):
            raise ValueError(f'reward = {reward!r}: use "win" (+1, 0, -1) or "points" (point difference / 120)')
        if illegal_action not in ("substitute", "raise"):
            raise ValueError(f'illegal_action = {illegal_action!r}: use "substitute" or "raise"')
        if (
            isinstance(illegal_penalty, (bool, np.bool_))
            or not isinstance(illegal_penalty, (int, float, np.integer, np.floating))
            or not np.isfinite(illegal_penalty)
        ):
            raise ValueError(f"illegal_penalty = {illegal_penalty!r}: give a finite number (added to the reward)")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode = {render_mode!r}: use one of {self.metadata['render_modes']} or None")
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.seat = seat
        self.reward_kind = reward
        self.names = ["agent"] * n
        self.policies: dict[int, Policy] = {}
        for k, name in enumerate(opponents):
            s = (seat + 1 + k) % n
            self.names[s] = name
            self.policies[s] = Policy(name, study, seat=s)
            # Refused here, not at the first step, if it cannot play these rules.
            self.policies[s].prepare(probe)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (OBS_LEN,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.action_space = LegalCards(self._mask)
        self.render_mode = render_mode
        self._deal_seed = 0
        self._game_no = 0
        self.game: Game | None = None

    def _mask(self):
        if self.game is None or self.game.is_over:
            return None
        return self.game.action_mask(self.seat)

    def _obs(self):
        return {
            "observation": self.game.observation(self.seat),
            "action_mask": self.game.action_mask(self.seat),
        }

    def _advance(self):
        g = self.game
        while not g.is_over and g.to_play != self.seat:
            g.step(self.policies[g.to_play].act(g))

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        deal_seed, game_no = self._deal_seed, self._game_no
        if seed is not None:
            deal_seed, game_no = _whole("seed", seed), 0
        # Dealt before anything is stored: a seed the deals refuse leaves the env as it was.
        game = Game(self._rules, seed=deal_seed, game=game_no, names=self.names)
        super().reset(seed=seed)
        self._deal_seed, self._game_no, self.game = deal_seed, game_no, game
        for s, p in self.policies.items():
            p.reset(s, self._game_no)
        self._game_no += 1
        self._advance()
        return self._obs(), {}

    def step(self, action):
        if self.game is None:
            raise ValueError("call reset() before step()")
        if self.game.is_over:
            raise ValueError("the game is over: call reset() to deal a new one")
        card = _action_id(action)
        info = {}
        reward = 0.0
        if not 0 <= card < NUM_ACTIONS:
            raise ValueError(f"action {card} is not a card id: ids are 0 to 39")
        legal = self.game.legal_actions()
        if card not in legal and self.illegal_action == "substitute":
            info["illegal_action"] = True
            reward += self.illegal_penalty
            card = min(legal)
        self.game.step(card)
        self._advance()
        terminated = self.game.is_over
        if terminated:
            side = self.game.sides[self.seat]
            pts = self.game.side_points
            info["side_points"] = pts
            if self.reward_kind == "points":
                mine = pts[side]
                reward += (mine - (sum(pts) - mine)) / 120.0
            else:
                w = self.game.winner
                reward += 0.0 if w is None else (1.0 if w == side else -1.0)
        return self._obs(), reward, terminated, False, info

    def render(self):
        if self.render_mode != "ansi" or self.game is None:
            return None
        return repr(self.game)
