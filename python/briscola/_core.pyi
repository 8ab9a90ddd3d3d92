"""Type stubs of the Rust extension `briscola._core` (briscola-core's Python binding)."""

from collections.abc import Sequence
from os import PathLike

import numpy as np
import numpy.typing as npt

OBS_LEN: int
NUM_ACTIONS: int
ONNX_INPUT_LEN: int
CARD_NAMES: list[str]

def deal(
    seed: int,
    names: Sequence[str],
    game: int = 0,
    *,
    paired: bool = False,
    deal_source: str = "chacha",
) -> list[int]:
    """The deck (40 card ids, top first) of game `game` of the stream the pipeline uses for
    the seating `names` under `seed`."""

def card_name(card: int) -> str:
    """A card's name as records write it, e.g. `1 Oro` for id 0."""

def card_id(name: str) -> int:
    """The card id of a name as `briscola play` reads it."""

def encoding_name() -> str:
    """The name of the observation encoding (`briscola-v1`), as an onnx policy names it."""

class Game:
    """One game of Briscola under any rules variant, stepped one card at a time."""

    def __init__(
        self,
        rules: dict | None = None,
        *,
        players: int | None = None,
        seed: int = 0,
        game: int = 0,
        names: Sequence[str] | None = None,
        paired: bool = False,
        deal_source: str = "chacha",
        deck: Sequence[int] | None = None,
    ) -> None: ...
    @property
    def players(self) -> int: ...
    @property
    def sides(self) -> list[int]: ...
    @property
    def rules(self) -> dict: ...
    @property
    def deck(self) -> list[int]: ...
    @property
    def to_play(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def trick_cards(self) -> list[int]: ...
    @property
    def leader(self) -> int: ...
    @property
    def face_up(self) -> int | None: ...
    @property
    def trump(self) -> int | None: ...
    @property
    def stock_left(self) -> int: ...
    @property
    def points(self) -> list[int]: ...
    @property
    def side_points(self) -> list[int]: ...
    @property
    def winner(self) -> int | None: ...
    def legal_actions(self) -> list[int]: ...
    def action_mask(self, seat: int | None = None) -> npt.NDArray[np.int8]: ...
    def step(self, card: int) -> dict | None: ...
    def observation(self, seat: int) -> npt.NDArray[np.float32]: ...
    def hand(self, seat: int) -> list[int]: ...
    def tricks(self) -> list[dict]: ...
    def public_state(self) -> dict: ...
    def full_state(self) -> dict: ...
    def copy(self) -> Game: ...

class Policy:
    """A study's policy by name (a built-in, or a `[policies.NAME]` of a study file)."""

    def __init__(
        self,
        name: str,
        study: str | PathLike | None = None,
        *,
        tie_break: str | None = None,
        reading: str = "verbatim",
        seed: int = 0,
        seat: int = 0,
        game: int = 0,
    ) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    def describe(self) -> str: ...
    def reset(self, seat: int, game: int) -> None: ...
    def prepare(self, game: Game) -> None: ...
    def act(self, game: Game) -> int: ...
    def explain(self, game: Game) -> tuple[int, str]: ...

class VecEnv:
    """`num_envs` games stepped together in Rust (see `briscola.vector.VectorEnv`)."""

    def __init__(
        self,
        num_envs: int,
        opponents: Sequence[str],
        study: str | PathLike | None = None,
        *,
        rules: dict | None = None,
        players: int | None = None,
        seat: int | None = None,
        seed: int = 0,
        reward: str = "win",
    ) -> None: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def seats(self) -> list[int]: ...
    @property
    def game_indices(self) -> list[int]: ...
    @property
    def results(self) -> tuple[int, int, int]: ...
    def reset(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]: ...
    def observe(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]: ...
    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.int8],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
    ]: ...
