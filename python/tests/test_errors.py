"""Bad input from Python raises a Python exception with the sentence the CLI would print;
nothing panics or aborts the interpreter."""

import numpy as np
import pytest

import briscola
from briscola import Game, Policy, VecEnv


def raises(fn, *words):
    with pytest.raises(ValueError) as e:
        fn()
    msg = str(e.value)
    for w in words:
        assert w in msg, msg
    # Never a Rust type name or a panic.
    for bad in ("panicked", "RulesSpec", "Option<", "called `Result", "PolicySpec"):
        assert bad not in msg, msg
    return msg


def test_illegal_cards():
    g = Game(seed=1)
    not_held = next(c for c in range(40) if c not in g.hand(0))
    raises(lambda: g.step(not_held), "the seat to play does not hold")
    raises(lambda: g.step(40), "not a card id", "0 to 39")
    raises(lambda: g.step(-1), "not a card id")
    # The failed steps changed nothing.
    assert g.trick_cards == [] and g.to_play == 0


def test_must_follow_suit_refusal_says_what_is_playable():
    rng = np.random.default_rng(0)
    for game in range(200):
        g = Game({"must_follow_suit": True, "trump": "none"}, players=4, seed=1, game=game)
        while not g.is_over:
            legal = g.legal_actions()
            hand = g.hand(g.to_play)
            if len(legal) < len(hand):
                other = next(c for c in hand if c not in legal)
                raises(lambda: g.step(other), "must follow suit")
                return
            g.step(int(rng.choice(legal)))
    pytest.fail("no must-follow position in 200 games")


def test_a_step_after_the_end():
    g = Game(seed=2)
    while not g.is_over:
        g.step(g.legal_actions()[0])
    raises(lambda: g.step(0), "game is over")
    raises(lambda: Policy("greedy").act(g), "game is over")


def test_bad_rules_and_deals():
    raises(lambda: Game({"players": 5}), "players = 5", "2, 3, 4")
    raises(lambda: Game({"colour": "red"}), "unknown field", "colour")
    raises(lambda: Game({"deck": 39}, players=4), "deck = 39")
    raises(lambda: Game({"trump": "diamonds"}), "trump")
    # A field's own range, not its Rust type's ("expected u8": 0 to 255).
    raises(lambda: Game({"target": 500}), "rules.target = 500", "points from 1 to 120")
    raises(lambda: Game({"draw_order": "sideways"}), "rules.draw_order", "winner-first")
    raises(lambda: Game({"hand_size": [3]}), "hand_size")
    raises(lambda: Game(players=4, rules={"players": 2}), "players")
    raises(lambda: Game(deck=list(range(39))), "deck")
    raises(lambda: Game(deck=[0] * 40), "deck")
    raises(lambda: Game(seed=-1), "seed -1")
    raises(lambda: Game(game=2**64 - 1), "game indices")
    raises(lambda: briscola.deal(0, ["a", "b"], 2**63, deal_source="dotnet-replay"), "game indices")
    raises(lambda: Game(deal_source="urandom"), "deal_source", "chacha")
    raises(lambda: Game(names=["a", "b", "c"]), "names")
    raises(lambda: Game().observation(2), "seat 2", "0 to 1")
    raises(lambda: briscola.card_name(77), "not a card id")
    raises(lambda: briscola.card_id("Jolly"), "not a card")


def test_out_of_range_integers_name_the_argument():
    # pyo3's own conversion raised a bare OverflowError naming nothing.
    raises(lambda: Game(game=-1), "game -1", "game indices")
    raises(lambda: Game(seed=2**63), "seed = 9223372036854775808")
    raises(lambda: Game(seed=2**200), "seed = " + str(2**200))
    raises(lambda: VecEnv(-1, ["greedy"]), "num_envs = -1", "1 to 1048576")
    raises(lambda: VecEnv(4, ["greedy"], seat=2**70), "seat = 1180591620717411303424")
    raises(lambda: Game(seed=1).step(2**200), "card " + str(2**200) + ": not a card id")
    raises(lambda: Policy("random", seat=-1), "seat = -1", "0 to 5")
    raises(lambda: Policy("random", seat=99), "seat = 99")
    raises(lambda: Policy("greedy").reset(99, 0), "seat = 99")
    raises(lambda: Policy("greedy").reset(0, -5), "game -5")
    raises(lambda: Game(seed=1).step(2**70), "not a card id")
    raises(lambda: Game(seed=1).hand(-3), "seat -3")
    raises(lambda: briscola.deal(2**64, ["a", "b"]), "seed = 18446744073709551616")
    # A bool is not a card, a seat or a count (True is 1 to Python); the argument is named in
    # the message itself.
    with pytest.raises(TypeError, match="card True: a bool, not a number"):
        Game(seed=1).step(True)
    with pytest.raises(TypeError, match="seat = False: a bool"):
        Policy("random", seat=False)
    # players: a count a byte holds goes on to the rules' check; both say the same counts.
    raises(lambda: Game(players=5), "players = 5", "2, 3, 4 (two partnerships) or 6")
    raises(lambda: Game(players=-1), "players = -1", "2, 3, 4 (two partnerships) or 6")
    # numpy integers are integers.
    g = Game(seed=1)
    g.step(np.int64(g.legal_actions()[0]))


def test_bad_policies():
    raises(lambda: Policy("grredy"), "unknown policy `grredy`", "greedy")
    raises(lambda: Policy("greedy", "/nonexistent/study.toml"), "cannot read the study file")
    raises(lambda: Policy("greedy", tie_break="random"), "tie_break")
    raises(lambda: Policy("search", reading="partner-aware"), "partner")


def test_bad_study_files(tmp_path):
    f = tmp_path / "s.toml"
    f.write_text("[policies.x]\nkind = 'rules'\nlead = ['cheapest of purple']\nfollow = ['cheapest']\n")
    raises(lambda: Policy("x", str(f)), "policies.x.lead")
    f.write_text("[policies.x\n")
    raises(lambda: Policy("x", str(f)), str(f))
    f.write_text("[policies.x]\nkind = 'onnx'\nmodel = 'missing.onnx'\nencoding = 'briscola-v1'\n")
    raises(lambda: Policy("x", str(f)), "missing.onnx")
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (2 << 20))
    raises(lambda: Policy("x", str(big)), "larger than 1 MiB")


def test_bad_vector_env_input():
    raises(lambda: VecEnv(0, ["greedy"]), "num_envs")
    raises(lambda: VecEnv(4, ["greedy", "greedy"]), "opponents")
    raises(lambda: VecEnv(4, ["nobody"]), "unknown policy")
    raises(lambda: VecEnv(4, ["greedy"], reward="money"), "reward")
    env = VecEnv(4, ["greedy"], seat=0)
    obs, mask = env.reset()
    raises(lambda: env.step(np.zeros(3, dtype=np.int64)), "one card id per game")
    bad = np.array([int(np.flatnonzero(m == 0)[0]) for m in mask], dtype=np.int64)
    raises(lambda: env.step(bad), "not playable")
    raises(lambda: env.step(np.full(4, 99, dtype=np.int64)), "not a card id")


def test_gym_env_illegal_actions():
    from briscola.gym_env import BriscolaEnv

    env = BriscolaEnv(opponents="greedy", illegal_action="raise")
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    raises(lambda: env.step(bad), "does not hold")
    raises(lambda: env.step(40), "not a card id")
    sub = BriscolaEnv(opponents="greedy", illegal_penalty=-0.5)
    obs, _ = sub.reset(seed=1)
    lowest = int(np.flatnonzero(obs["action_mask"])[0])
    obs2, r, done, trunc, info = sub.step(bad)
    assert info["illegal_action"] and r == -0.5
    replay = BriscolaEnv(opponents="greedy")
    replay.reset(seed=1)
    obs3, *_ = replay.step(lowest)
    np.testing.assert_array_equal(obs2["observation"], obs3["observation"])
    raises(lambda: BriscolaEnv(illegal_action="ignore"), "illegal_action")
    # A float is not a card id (3.7 was played as card 3); numpy integers are.
    raises(lambda: replay.step(3.7), "3.7", "not a card id")
    raises(lambda: replay.step(np.array([1, 2])), "not a card id")
    mask = replay.game.action_mask(replay.seat)
    replay.step(np.int32(np.flatnonzero(mask)[0]))


def test_results_load_reads_a_run_and_refuses_other_json(tmp_path):
    from pathlib import Path

    from briscola import results

    root = Path(__file__).resolve().parents[2]
    r = results.load(root / "studies" / "strongest" / "outputs" / "results.json")
    assert r.tables and all(len(df) > 0 for df in r.tables.values())
    f = tmp_path / "r.json"
    # JSON that is not a results file read as empty tables; now a sentence.
    for text in ("42", "[1, 2]", '{"a": 1}'):
        f.write_text(text)
        raises(lambda: results.load(f), "not a results file", "studies")
    f.write_text("{")
    raises(lambda: results.load(f), "is not JSON")
    raises(lambda: results.load(tmp_path / "missing.json"), "cannot read the results file")


def test_a_refused_seed_leaves_the_envs_usable():
    # The seed was stored before the deal refused it: every later reset() failed the same way.
    from briscola import pettingzoo_env
    from briscola.gym_env import BriscolaEnv

    e = BriscolaEnv()
    raises(lambda: e.reset(seed=2**70), "seed")
    e.reset()
    p = pettingzoo_env.env()
    raises(lambda: p.reset(seed=-1), "seed -1")
    p.reset()
    with pytest.raises(TypeError, match="seed"):
        e.reset(seed=1.7)


def test_envs_refuse_at_construction_what_cannot_play():
    from briscola.gym_env import BriscolaEnv

    # It failed at the first step, after the agent's card was played.
    raises(lambda: BriscolaEnv(opponents="search", players=4), "search", "two-player")
    raises(lambda: BriscolaEnv(opponents="greedy", rules={"trump": "none"}), "without a trump")
    raises(lambda: BriscolaEnv(illegal_penalty=float("nan")), "illegal_penalty", "finite")
    raises(lambda: BriscolaEnv(illegal_penalty="-1"), "illegal_penalty")
    raises(lambda: BriscolaEnv(render_mode="bogus"), "render_mode")
    raises(lambda: BriscolaEnv(rules={"players": 4}, players=2), "players = 2", "rules['players'] = 4")
    with pytest.raises(TypeError, match="seat"):
        BriscolaEnv(seat="0")
    with pytest.raises(TypeError, match="opponents"):
        BriscolaEnv(opponents=None)


def test_vector_actions_are_whole_card_ids():
    from briscola.vector import VectorEnv

    v = VectorEnv(3, "greedy", seat=0)
    _, m = v.reset()
    # 3.7 was played as card 3, True as card 1.
    raises(lambda: v.step(m.argmax(1) + 0.7), "actions", "float64")
    raises(lambda: v.step(np.array([True] * 3)), "actions", "bool")
    v.step(m.argmax(1).astype(np.int32))
    env = VecEnv(3, ["greedy"])
    _, m = env.reset()
    for bad in (m.argmax(1).astype(np.int32), m.argmax(1).reshape(3, 1)):
        with pytest.raises(TypeError) as e:
            env.step(bad)
        assert "int64" in str(e.value) and "mismatch" not in str(e.value), str(e.value)


def test_lists_of_names_and_ids_say_so():
    for fn in (lambda: VecEnv(4, "greedy"), lambda: Game(names="ab"), lambda: Game(deck="0123")):
        with pytest.raises(TypeError) as e:
            fn()
        assert "give a list" in str(e.value) and "Vec" not in str(e.value), str(e.value)


def test_pettingzoo_out_of_order_calls_say_what_to_do():
    from briscola import pettingzoo_env

    p = pettingzoo_env.env()
    raises(lambda: p.observe("player_0"), "call reset()")
    raises(lambda: p.step(0), "call reset()")
    p.reset(seed=1)
    for agent in p.agent_iter():
        obs, _, term, trunc, _ = p.last()
        p.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    raises(lambda: p.step(0), "game is over", "call reset()")


def test_unknown_policy_and_card_names():
    msg = raises(lambda: Policy("epsilon"), "unknown policy `epsilon`", "search")
    assert "()" not in msg and not msg.startswith("policies:"), msg
    # The messages' own card names read back.
    assert briscola.card_id("4 di Oro") == briscola.card_id("4 Oro") == 3
    assert briscola.card_id("Asso di Oro") == 0
    msg = raises(lambda: briscola.card_id("a" * 10**6), "is not a card")
    assert len(msg) < 400
    raises(lambda: Game({"first_leader": 5}), "seats are 0 to 1")


def test_a_bad_policy_section_is_named(tmp_path):
    # It said "[policies]: missing field `kind`", naming no policy.
    for text, words in [
        ("[policies.x]\nthreshold = 3\n", ("policies.x", "missing field `kind`", '"greedy"')),
        ("[policies.x]\nkind = 'wizard'\n", ("policies.x", "wizard")),
        ("policies = 5\n", ("`policies` is not a table",)),
    ]:
        p = tmp_path / "study.toml"
        p.write_text(text)
        raises(lambda: Policy("x", str(p)), *words)
