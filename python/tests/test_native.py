"""The native API: chance, legality, masks, tensors in place, strings, views, records."""

import json
import random
import re

import numpy as np
import pytest

import yezi
from yezi import dabaifen, madiao
from conftest import random_playout

GAMES = [madiao.Game(), dabaifen.Game()]
IDS = ["madiao", "dabaifen"]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_random_playouts_end_with_zero_sum_returns(game, rng):
    nonzero = 0
    for _ in range(300):
        state = game.new_initial_state()
        random_playout(state, rng)
        r = state.returns()
        assert len(r) == 4
        assert abs(sum(r)) < 1e-9
        nonzero += any(r)
        assert state.current_player() == yezi.TERMINAL_PLAYER
        assert state.legal_actions() == []
    assert nonzero > 100


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_chance_nodes_place_the_deck_uniformly(game):
    state = game.new_initial_state()
    deck = game.max_chance_outcomes()
    for k in range(deck):
        assert state.is_chance_node() and state.current_player() == yezi.CHANCE_PLAYER
        outcomes = state.chance_outcomes()
        assert len(outcomes) == deck - k
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-12
        assert all(p == 1.0 / (deck - k) for _, p in outcomes)
        assert [a for a, _ in outcomes] == state.legal_actions()
        # Each call returns a new list (the pairs in it are shared, immutable tuples).
        outcomes.clear()
        assert len(state.chance_outcomes()) == deck - k
        state.apply_action(state.chance_outcomes()[-1][0])
    assert not state.is_chance_node()
    assert state.chance_outcomes() == []


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_masks_match_legal_actions_and_illegal_actions_are_refused(game, rng):
    for d in range(40):
        state = game.new_initial_state(seed=3, deal=d)
        while not state.is_terminal():
            legal = state.legal_actions()
            mask = state.legal_action_mask()
            assert mask.dtype == np.int8 and mask.shape == (game.num_distinct_actions(),)
            assert list(np.flatnonzero(mask)) == legal
            illegal = [a for a in range(game.num_distinct_actions()) if a not in legal]
            if illegal:
                before = str(state), state.legal_actions()
                with pytest.raises(ValueError):
                    state.apply_action(rng.choice(illegal))
                assert (str(state), state.legal_actions()) == before
            state.apply_action(rng.choice(legal))
    with pytest.raises(ValueError):
        game.new_initial_state().apply_action(-1)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_tensors_are_written_in_place(game):
    state = game.new_initial_state(seed=5)
    obs = np.full(game.observation_tensor_size(), 7.0, dtype=np.float32)
    info = np.full(game.information_state_tensor_size(), 7.0, dtype=np.float32)
    mask = np.full(game.num_distinct_actions(), 9, dtype=np.int8)
    p = state.current_player()
    assert state.observation_tensor(p, out=obs) is obs
    assert state.information_state_tensor(p, out=info) is info
    assert state.legal_action_mask(out=mask) is mask
    assert np.array_equal(obs, state.observation_tensor(p))
    assert np.array_equal(info, state.information_state_tensor(p))
    assert set(np.unique(mask)) <= {0, 1}
    # The observation is the first part of the information state.
    assert np.array_equal(info[: obs.size], obs)
    with pytest.raises(ValueError):
        state.observation_tensor(p, out=np.zeros(3, dtype=np.float32))
    with pytest.raises(ValueError):
        state.observation_tensor(4)
    with pytest.raises(TypeError):
        state.observation_tensor(p, out=np.zeros(obs.size, dtype=np.float64))


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_clone_is_independent(game, rng):
    state = game.new_initial_state(seed=9)
    copy = state.clone()
    state.apply_action(state.legal_actions()[0])
    assert str(copy) != str(state) or copy.legal_actions() != state.legal_actions()
    random_playout(copy, rng)
    assert copy.is_terminal() and not state.is_terminal()


def test_madiao_hand_is_the_seed_deal_and_own_cards_are_seen():
    game = madiao.Game()
    state = game.new_initial_state(seed=42, deal=0)
    for p in range(4):
        view = state.view(p)
        obs = state.observation_tensor(p)
        hand = {madiao.CARDS.index(c) for c in view["hand"]}
        assert set(np.flatnonzero(obs[0:40])) == hand
        assert len(hand) == 8
        assert "hand [" in state.observation_string(p)
        assert json.loads(state.information_state_string(p))["seat"] == p


def test_dabaifen_picks_build_a_play_in_ascending_order(rng):
    game = dabaifen.Game()
    ended = 0
    for d in range(60):
        state = game.new_initial_state(seed=11, deal=d)
        while not state.is_terminal():
            plays = state.legal_plays()
            if plays.shape[0] == 0:
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            assert plays.shape[1] == 54
            target = plays[rng.randrange(plays.shape[0])]
            cards = list(np.flatnonzero(target))
            me = state.current_player()
            for i, c in enumerate(cards):
                mask = state.legal_action_mask()
                assert mask[c] == 1
                # No card below the last pick may be picked.
                if i:
                    assert not mask[: cards[i - 1] + 1].any()
                state.apply_action(c)
                if state.current_player() == me and i < len(cards) - 1:
                    assert state.picked() == cards[: i + 1]
                    assert state.observation_tensor(me)[54 + c] == 1.0
            if state.current_player() == me and state.picked() == cards:
                # A lead that could go on: end it.
                assert state.legal_action_mask()[dabaifen.END_LEAD] == 1
                state.apply_action(dabaifen.END_LEAD)
                ended += 1
            assert state.picked() == []
    assert ended > 0


def test_dabaifen_apply_play_plays_a_whole_set(rng):
    state = dabaifen.Game().new_initial_state(seed=2)
    while state.legal_plays().shape[0] == 0:
        state.apply_action(state.legal_actions()[0])
    plays = state.legal_plays()
    assert plays.shape[0] == 18564  # C(18, 6) burials
    state.apply_play(list(np.flatnonzero(plays[0])))
    with pytest.raises(ValueError):
        state.apply_play([0, 1, 2])


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_records_are_yezi_1(game, rng, tmp_path, yezi_bin):
    import subprocess

    state = game.new_initial_state(seed=4)
    random_playout(state, rng)
    rec = json.loads(state.to_record())
    assert rec["format"] == "yezi/1"
    assert rec["game"] == ("madiao" if isinstance(game, madiao.Game) else "dabaifen")
    assert len(rec["hands"]) == 1
    # `yezi replay` checks it (or, without a binary, the same replay compiled into the extension).
    if yezi_bin is None:
        yezi._yezi.replay_record(state.to_record())
        bad = json.loads(state.to_record())
        bad["hands"][0]["deck"][0] = bad["hands"][0]["deck"][1]  # a card twice
        with pytest.raises(ValueError):
            yezi._yezi.replay_record(json.dumps(bad))
        return
    path = tmp_path / "hand.json"
    path.write_text(state.to_record())
    out = subprocess.run([yezi_bin, "replay", str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="unknown Madiao rules"):
        madiao.Game(rules="nope")
    with pytest.raises(ValueError):
        madiao.Game(faceup_discard="sometimes")
    with pytest.raises(ValueError):
        madiao.Game(stake=3)
    with pytest.raises(ValueError):
        dabaifen.Game(starter=5)
    with pytest.raises(ValueError):
        dabaifen.Game(ranks=("5", "2"))
    with pytest.raises(ValueError):
        madiao.Game().new_initial_state(deck=[0] * 40)
    assert madiao.Game(faceup_discard="forbidden").variants()


def _to_move(game):
    """The first deal of seed 1 where a seat is to move."""
    return next(s for d in range(50) if (s := game.new_initial_state(seed=1, deal=d)).current_player() >= 0)


def _pickle_with(edit):
    """A Da Bai Fen state in play, pickled, its payload changed by `edit`: (kind, JSON text)."""
    s = dabaifen.Game().new_initial_state(seed=2)
    while s.view(s.current_player())["phase"] != "playing":
        s.apply_action(s.legal_actions()[0])
    _, (kind, text) = s.__reduce__()
    payload = json.loads(text)
    edit(payload)
    return kind, json.dumps(payload)


def test_refusals_are_value_errors_that_say_what_went_wrong():
    """The texts Python users read (the native module's one error type, python/src/error.rs)."""

    def an_illegal_play(payload):
        payload["record"]["hands"][0]["actions"].append({"seat": 0, "play": ["BJ", "SJ"]})

    md, dbf = madiao.Game(), dabaifen.Game()
    one_card = md.new_initial_state()
    one_card.apply_action(0)
    drawing = _to_move(dbf)
    assert drawing.view(drawing.current_player())["phase"] == "drawing"
    cases = [
        (lambda: _to_move(md).observation_tensor(4), "a player is 0–3, not 4"),
        (lambda: md.new_initial_state().apply_action(40), "a chance outcome is a card 0–39, not 40"),
        (lambda: dbf.new_initial_state().apply_action(54), "a chance outcome is a card 0–53, not 54"),
        (lambda: one_card.apply_action(0), r"card \S+ \(0\) is already in the deck"),
        (lambda: _to_move(md).apply_action(82), "a Madiao action id is 0–81, not 82"),
        (lambda: _to_move(dbf).apply_action(57), "a Da Bai Fen action id is 0–56, not 57"),
        (lambda: md.new_initial_state().view(0), r"the deck is not complete \(a chance node\)"),
        (lambda: dbf.new_initial_state().to_record(), r"the deck is not complete \(a chance node\)"),
        (
            lambda: md.new_initial_state().resample_from_infostate(0, 1),
            r"resampling needs a complete deck \(not a chance node\)",
        ),
        (lambda: drawing.apply_play([0]), "no set is played in the Drawing phase"),
        (lambda: drawing.apply_action(dabaifen.END_LEAD), "56 ends a multi-card lead; the Drawing phase has none"),
        (lambda: md.new_initial_state(banked=[True]), r"banked has one entry per seat \(4\)"),
        (lambda: madiao.Game(stake=3), "stake must be a positive even number of chips, not 3"),
        (lambda: yezi._yezi._restore("MadiaoState", "nope"), "not a yezi pickle: .+"),
        (
            lambda: yezi._yezi._restore(*_pickle_with(lambda p: p.update(deck=p["deck"][:-1]))),
            "a record needs the whole deck",
        ),
        (
            lambda: yezi._yezi._restore(*_pickle_with(lambda p: p.update(deck=p["deck"] + [0]))),
            "a deck of 54 cards holds 55 cards",
        ),
        (
            lambda: yezi._yezi._restore(*_pickle_with(lambda p: p["record"].update(hands=[]))),
            "a state's record holds one hand, not 0",
        ),
        (lambda: yezi._yezi._restore(*_pickle_with(an_illegal_play)), r"action \d+: .+"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError) as e:
            call()
        assert re.fullmatch(message, str(e.value)), (message, str(e.value))
