"""No leaks: two states that differ only in cards a player cannot know give that player identical
tensors and strings; resampling keeps the player's information and varies the hidden cards."""

import random

import numpy as np
import pytest

from yezi import dabaifen, madiao


def seen_by(state, p):
    return (
        state.observation_tensor(p).tobytes(),
        state.information_state_tensor(p).tobytes(),
        state.observation_string(p),
        state.information_state_string(p),
        state.legal_action_mask().tobytes() if state.current_player() == p else None,
    )


def swapped_twins(game, deck_size, hand_positions, same_kind, rng, tries=4000):
    """Pairs of decks differing by a swap of two cards between two seats other than p, both
    cards of the same kind (so the deal's declarations cannot tell them apart)."""
    found = 0
    for t in range(tries):
        deck = list(range(deck_size))
        rng.shuffle(deck)
        base = game.new_initial_state(deck=deck)
        if base.is_terminal():
            continue
        p = rng.randrange(4)
        holders = hand_positions(base)
        others = [q for q in range(4) if q != p]
        q1, q2 = rng.sample(others, 2)
        pairs = [(i, j) for i in holders[q1] for j in holders[q2] if same_kind(deck[i], deck[j])]
        if not pairs:
            continue
        i, j = rng.choice(pairs)
        twin = list(deck)
        twin[i], twin[j] = twin[j], twin[i]
        other = game.new_initial_state(deck=twin)
        if other.is_terminal() or other.current_player() != base.current_player():
            continue
        yield p, q1, base, other
        found += 1
        if found >= 60:
            return


def check_twins(twins, rng):
    compared = differs = 0
    for p, q, a, b in twins:
        # Power: the seat holding a swapped card sees the difference at some point.
        seen_difference = False
        while not a.is_terminal():
            assert a.current_player() == b.current_player()
            assert seen_by(a, p) == seen_by(b, p)
            seen_difference |= seen_by(a, q)[0] != seen_by(b, q)[0]
            compared += 1
            act = rng.choice(a.legal_actions())
            try:
                b.apply_action(act)
            except ValueError:
                break  # the swapped card was played: from here the twins differ in public
            a.apply_action(act)
        differs += seen_difference
    assert compared > 500
    assert differs > 30


def test_madiao_twins_differing_in_others_cards_look_the_same():
    rng = random.Random(1)
    game = madiao.Game()

    def positions(state):
        hands = [set(state.view(s)["hand"]) for s in range(4)]
        deck = state._deck_ids
        return [[i for i in range(40) if madiao.CARDS[deck[i]] in hands[s]] for s in range(4)]

    def same_suit(x, y):
        return madiao.CARDS[x][0] == madiao.CARDS[y][0]

    twins = swapped_twins(_WithDeck(game, 40), 40, positions, same_suit, rng)
    check_twins(twins, rng)


def test_dabaifen_twins_differing_in_others_cards_look_the_same():
    rng = random.Random(2)
    game = dabaifen.Game()

    def positions(state):
        # The first drawer takes deck[0], the next seat deck[1], …; deck[48:] is the kitty.
        first = state.view(0)["first_drawer"]
        return [[i for i in range(48) if (first + i) % 4 == s] for s in range(4)]

    def same_suit_plain(x, y):
        # Same printed suit, neither a joker nor of the trump rank (2): the same effective suit
        # whatever the trumps, and no card anyone may show.
        cx, cy = dabaifen.CARDS[x], dabaifen.CARDS[y]
        return x < 52 and y < 52 and cx[1] == cy[1] and cx[0] != "2" and cy[0] != "2"

    twins = swapped_twins(_WithDeck(game, 54), 54, positions, same_suit_plain, rng)
    check_twins(twins, rng)


class _WithDeck:
    """A game whose states remember their deck ids (for building twins)."""

    def __init__(self, game, size):
        self.game, self.size = game, size

    def new_initial_state(self, deck):
        s = _Remember(self.game.new_initial_state(deck=deck))
        s._deck_ids = list(deck)
        return s


class _Remember:
    def __init__(self, state):
        self.__dict__["_s"] = state

    def __getattr__(self, name):
        return getattr(self._s, name)

    def __setattr__(self, name, value):
        self.__dict__[name] = value


@pytest.mark.parametrize("game", [madiao.Game(), dabaifen.Game()], ids=["madiao", "dabaifen"])
def test_resample_keeps_the_information_and_varies_hidden_cards(game):
    rng = random.Random(3)
    checked = varied = 0
    for d in range(25):
        state = game.new_initial_state(seed=17, deal=d)
        for _ in range(rng.randrange(40)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        for p in range(4):
            mine = seen_by(state, p)
            hidden = set()
            for seed in range(4):
                r = state.resample_from_infostate(p, seed)
                assert seen_by(r, p) == mine
                assert r.current_player() == state.current_player()
                # What the others hold is drawn anew.
                hidden.add(tuple(tuple(r.view(q)["hand"]) for q in range(4) if q != p))
                checked += 1
            varied += len(hidden) > 1
    assert checked > 100
    assert varied > checked // 8
