"""The game API: every rules variant plays to the end, deals are the pipeline's, copies are
independent, and the observation is the documented briscola-v1 encoding."""

import numpy as np
import pytest

import briscola
from briscola import Game

# Points in the deck: 120 for 40 and 39 cards (the removed Two is worth nothing), 120 for 36.
VARIANTS = [
    dict(players=2),
    dict(players=3),
    dict(players=4),
    dict(players=6),
    dict(players=2, rules=dict(hand_size=5, trump="none")),
    dict(players=2, rules=dict(draw_order="loser-first")),
    dict(players=4, rules=dict(must_follow_suit=True, trump="none")),
    dict(players=2, rules=dict(target=61)),
]


def play_random(g: Game, rng: np.random.Generator):
    moves = 0
    while not g.is_over:
        legal = g.legal_actions()
        assert legal, "a seat is to play, so it has a playable card"
        mask = g.action_mask()
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(legal)
        g.step(int(rng.choice(legal)))
        moves += 1
    return moves


@pytest.mark.parametrize("v", VARIANTS, ids=lambda v: str(v))
def test_every_variant_plays_to_the_end_and_keeps_every_point(v):
    rng = np.random.default_rng(5)
    for game in range(30):
        g = Game(v.get("rules"), players=v["players"] if "players" not in (v.get("rules") or {}) else None,
                 seed=3, game=game)
        moves = play_random(g, rng)
        n = g.players
        if g.rules["target"] is None:
            assert sum(g.points) == 120
            assert moves == g.rules["deck"]
            assert len(g.tricks()) == g.rules["deck"] // n
        else:
            assert max(g.side_points) >= g.rules["target"] or sum(g.points) == 120
        assert g.to_play is None and g.legal_actions() == []
        played = sorted(c for t in g.tricks() for c in t["cards"])
        assert len(set(played)) == len(played)


def test_four_players_are_two_partnerships():
    g = Game(players=4)
    assert g.sides == [0, 1, 0, 1]
    g6 = Game(players=6)
    assert g6.sides == [0, 1, 0, 1, 0, 1]
    assert Game(players=3).sides == [0, 1, 2]


def test_deals_are_the_pipelines_and_depend_on_seed_names_and_index():
    a = briscola.deal(42, ["greedy", "hoarder"], 7)
    assert sorted(a) == list(range(40))
    assert a == briscola.deal(42, ["greedy", "hoarder"], 7)
    assert a != briscola.deal(42, ["greedy", "hoarder"], 8)
    assert a != briscola.deal(43, ["greedy", "hoarder"], 7)
    assert a != briscola.deal(42, ["hoarder", "greedy"], 7)
    # Paired deals are the same for a matchup and its seat-swapped twin.
    assert briscola.deal(42, ["greedy", "hoarder"], 3, paired=True) == briscola.deal(
        42, ["hoarder", "greedy"], 3, paired=True
    )
    assert Game(seed=42, names=["greedy", "hoarder"], game=7).deck == a
    # The paper's .NET stream: game j of seed 42 is the released simulator's.
    d = briscola.deal(42, ["g", "h"], 0, deal_source="dotnet-replay")
    assert sorted(d) == list(range(40))


def test_the_first_hands_come_from_the_top_of_the_deck():
    g = Game(seed=1)
    deck = g.deck
    assert g.hand(0) == deck[0:3] and g.hand(1) == deck[3:6]
    assert g.face_up == deck[-1]
    assert g.trump == deck[-1] // 10
    assert g.stock_left == 34


def test_copies_are_independent():
    g = Game(seed=9)
    h = g.copy()
    g.step(g.legal_actions()[0])
    assert h.trick_cards == [] and len(g.trick_cards) == 1


def test_observation_is_the_documented_encoding():
    g = Game(seed=11)
    seat = g.to_play
    obs = g.observation(seat)
    assert obs.dtype == np.float32 and obs.shape == (briscola.OBS_LEN,)
    hand = np.flatnonzero(obs[160:200]).tolist()
    assert sorted(hand) == sorted(g.hand(seat))
    assert np.flatnonzero(obs[40:80]).tolist() == [g.face_up]
    assert obs[0:40].sum() == 0 and obs[80:120].sum() == 0
    assert obs[202] == pytest.approx(34 / 40)
    lead = g.legal_actions()[0]
    g.step(lead)
    follower = g.to_play
    o2 = g.observation(follower)
    assert np.flatnonzero(o2[80:120]).tolist() == [lead]
    assert np.flatnonzero(o2[120:160]).tolist() == [lead]
    assert o2[205] == pytest.approx(1 / 5)
    # Another seat's observation never shows the hand of the seat to play.
    other = g.observation(seat)
    assert sorted(np.flatnonzero(other[160:200]).tolist()) == sorted(g.hand(seat))
    assert g.action_mask(seat).sum() == 0


def test_observations_never_hold_a_card_the_seat_has_not_seen():
    rng = np.random.default_rng(0)
    for players in (2, 4):
        g = Game(players=players, seed=2)
        seen = [set(g.hand(s)) | {g.face_up} for s in range(players)]
        while not g.is_over:
            for s in range(players):
                seen[s] |= set(g.hand(s)) | set(g.trick_cards)
                o = g.observation(s)
                shown = set(np.flatnonzero(o[:200] > 0) % 40)
                assert shown <= seen[s], (players, s, shown - seen[s])
            t = g.step(int(rng.choice(g.legal_actions())))
            if t:
                for s in range(players):
                    seen[s] |= set(t["cards"])


def test_card_names_round_trip():
    assert briscola.card_name(0) == "1 Oro" and briscola.card_name(39) == "10 Coppe"
    for i in range(40):
        assert briscola.card_id(briscola.card_name(i)) == i
    assert len(briscola.CARD_NAMES) == 40
