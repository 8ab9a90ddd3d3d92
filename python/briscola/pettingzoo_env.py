"""A PettingZoo AEC environment of Briscola for 2, 3, 4 or 6 players.

Agents are `player_0` ... `player_{n-1}` (seat order; with four players seats 0+2 and 1+3 are
partners, with six 0+2+4 and 1+3+5). Each observation is a dict of `observation` (the
`briscola-v1` encoding, float32[206]) and `action_mask` (int8[40], the cards the agent may play
now). Actions are card ids. Rewards come at the end: +1 to every seat of the winning side, -1 to
the others, 0 to all on a tie. Deals are the pipeline's ChaCha deals: `reset(seed=s)` plays game
0, 1, 2, ... of seed `s` on successive resets.

Briscola is turn-based, so the AEC form is the natural one; there is no parallel wrapper.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ._core import NUM_ACTIONS, OBS_LEN, Game, card_name
from .gym_env import _action_id, _game_for, _whole


def env(**kwargs):
    """The AEC environment (PettingZoo's usual constructor name)."""
    return BriscolaAEC(**kwargs)


class BriscolaAEC(AECEnv):
    """Briscola as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["ansi", "human"], "name": "briscola_v1", "is_parallelizable": False}

    def __init__(self, players: int | None = None, rules: dict | None = None, render_mode: str | None = None):
        super().__init__()
        probe = _game_for(rules, players)
        self._rules = probe.rules
        n = probe.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = []
        self._obs_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (OBS_LEN,), np.float32),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._act_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: use one of {self.metadata['render_modes']} or None")
        self.render_mode = render_mode
        self._seed = 0
        self._game_no = 0
        self.game: Game | None = None

    def observation_space(self, agent):
        return self._obs_spaces[agent]

    def action_space(self, agent):
        return self._act_spaces[agent]

    def _seat(self, agent: str) -> int:
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            raise ValueError(f"unknown agent {agent!r}: the agents are {self.possible_agents}") from None

    def reset(self, seed: int | None = None, options: dict | None = None):
        deal_seed, game_no = self._seed, self._game_no
        if seed is not None:
            deal_seed, game_no = _whole("seed", seed), 0
        # Dealt before anything is stored: a seed the deals refuse leaves the env as it was.
        self.game = Game(self._rules, seed=deal_seed, game=game_no)
        self._seed, self._game_no = deal_seed, game_no + 1
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_play]

    def _dealt(self) -> Game:
        if self.game is None:
            raise ValueError("no game yet: call reset() first")
        return self.game

    def observe(self, agent: str):
        seat = self._seat(agent)
        self._dealt()
        return {
            "observation": self.game.observation(seat),
            "action_mask": self.game.action_mask(seat),
        }

    def step(self, action):
        self._dealt()
        if not self.agents:
            raise ValueError("the game is over and every agent has left it: call reset() to deal a new one")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to play: give a card id (0 to 39) from its action_mask")
        self._cumulative_rewards[agent] = 0
        self.game.step(_action_id(action))
        if self.game.is_over:
            winner = self.game.winner
            sides = self.game.sides
            for a in self.agents:
                side = sides[self._seat(a)]
                self.rewards[a] = 0 if winner is None else (1 if side == winner else -1)
                self.terminations[a] = True
                self.infos[a] = {"side_points": self.game.side_points}
        else:
            for a in self.agents:
                self.rewards[a] = 0
            self.agent_selection = self.possible_agents[self.game.to_play]
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self):
        if self.render_mode is None:
            return None
        g = self.game
        if g is None:
            return "no game: call reset()"
        trick = ", ".join(card_name(c) for c in g.trick_cards) or "(none)"
        face = card_name(g.face_up) if g.face_up is not None else "(no trump)"
        return f"trick {g.public_state()['trick']}: {trick}; face-up {face}; points {g.side_points}"

    def close(self):
        pass
