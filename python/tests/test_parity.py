"""Checksum parity: seeded playouts driven step by step from Python give the same hands as
`yezi bench` in Rust (the same decks, the same random choices, the same results)."""

import re
import subprocess

from yezi import _yezi as native
from yezi import dabaifen, madiao

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def bench_checksum(yezi_bin, game, hands, seed):
    """The checksum `yezi bench` prints; without a binary, the same bench compiled into the
    extension (the library function the binary calls)."""
    if yezi_bin is None:
        return native.bench_checksum(game, hands, seed)
    out = subprocess.run(
        [yezi_bin, "bench", game, "--hands", str(hands), "--seed", str(seed)],
        capture_output=True, text=True, check=True,
    ).stdout
    return int(re.search(r"checksum ([0-9a-f]{16})", out).group(1), 16)


def madiao_python_checksum(hands, seed):
    # The bench's loop (crates/madiao/src/random.rs `bench`), each hand played through the API.
    game = madiao.Game()
    stream = madiao.BenchStream(seed)
    banker = stream.draw_banker()
    hands_before, banked = 0, [False] * 4
    h = 0
    for _ in range(hands):
        deck = stream.next_deck()
        state = game.new_initial_state(deck=deck, banker=banker, hands_before=hands_before, banked=banked)
        while True:
            a = stream.choose(state)
            if a is None:
                break
            assert state.legal_action_mask()[a] == 1
            state.apply_action(a)
        assert state.is_terminal()
        r = madiao.result(state)
        for pay, tricks in zip(r["payoff_halves"], r["tricks"]):
            h = ((h ^ (pay & 0xFFFFFFFF) ^ (tricks << 32)) * GOLDEN) & MASK
        # The returns are the payoffs in stakes.
        assert state.returns() == [x / 2 for x in r["payoff_halves"]]
        if r["game_over"]:
            hands_before, banked = 0, [False] * 4
            banker = stream.draw_banker()
        else:
            if r["outcome"] != 3:  # not a long-suit redeal
                hands_before += 1
            banked[banker] = True
            banker = r["next_banker"] if r["next_banker"] is not None else stream.draw_banker()
    return h


def dabaifen_python_checksum(deals, seed):
    # The bench's loop (crates/dabaifen/src/random.rs `bench`), each deal played through the API.
    def mix(h, x):
        h = ((h ^ x) * GOLDEN) & MASK
        return ((h << 29) | (h >> 35)) & MASK

    m = dabaifen.Match(seed=seed, deal=0)
    h = 0
    for k in range(deals):
        if m.is_over():
            m = dabaifen.Match(seed=seed, deal=k)
        state = m.new_state(seed, k)
        policy = dabaifen.RandomPolicy(seed, k)
        while not state.is_terminal():
            for a in policy.choose(state):
                assert state.legal_action_mask()[a] == 1
                state.apply_action(a)
        r = dabaifen.result(state)
        dp = 999 if r["defender_points"] is None else r["defender_points"]
        x = dp | r["ranks"][0] << 12 | r["ranks"][1] << 16 | r["next_starter"] << 20 | r["outcome"] << 24 | r["levels"] << 28
        h = mix(h, x)
        m.record(state)
    return h


def test_madiao_python_playouts_match_yezi_bench(yezi_bin):
    for seed in (1, 7):
        assert madiao_python_checksum(600, seed) == bench_checksum(yezi_bin, "madiao", 600, seed)


def test_dabaifen_python_playouts_match_yezi_bench(yezi_bin):
    for seed in (1, 7):
        assert dabaifen_python_checksum(300, seed) == bench_checksum(yezi_bin, "dabaifen", 300, seed)
