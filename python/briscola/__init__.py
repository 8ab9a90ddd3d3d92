"""briscola: the reference Briscola environment.

The engine, the seeded deals and the policies are the Rust core of the `briscola` study
pipeline (the Giacomelli 2026 study), so a game played here is card for card the game the
pipeline plays for the same deal and policies.

- `Game`: one game of any rules variant (2, 3, 4 or 6 players), stepped card by card.
- `Policy`: a policy by name: a built-in (greedy, hoarder, counter, random, search) or any
  `[policies.NAME]` of a study file (the policy language, switch, epsilon, search, onnx).
- `VecEnv` / `briscola.vector.VectorEnv`: many games stepped together in Rust.
- `briscola.pettingzoo_env.env(...)`: a PettingZoo AEC environment.
- `briscola.gym_env.BriscolaEnv`: a Gymnasium environment for one seat against named policies.
- `briscola.results.load(...)`: a run's results.json as pandas frames.
- `briscola.onnx_export.linear_policy(...)`: a linear policy as an ONNX file the `onnx` kind plays.

Cards are ids 0 to 39: `suit * 10 + rank - 1`, suits Oro, Spade, Bastoni, Coppe, ranks 1 (Asso)
to 10 (Re). Observations are the `briscola-v1` encoding (206 values, see the README) and a
40-value legal-action mask.
"""

from ._core import (
    CARD_NAMES,
    NUM_ACTIONS,
    OBS_LEN,
    ONNX_INPUT_LEN,
    Game,
    Policy,
    VecEnv,
    card_id,
    card_name,
    deal,
    encoding_name,
)

__all__ = [
    "CARD_NAMES",
    "NUM_ACTIONS",
    "OBS_LEN",
    "ONNX_INPUT_LEN",
    "Game",
    "Policy",
    "VecEnv",
    "card_id",
    "card_name",
    "deal",
    "encoding_name",
]
