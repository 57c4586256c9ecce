"""Throughput of the Python bindings against the peers named in the issue, measured in one run.

    python python/bench.py [--seconds 3]

Measures, each for about --seconds of wall time on one core:
  1. the Python step loop (chance and random legal actions chosen in Python), games/s:
     yezi Madiao, yezi Da Bai Fen, OpenSpiel's C++ hearts driven from Python; and ours again
     with the deal shuffled in Rust from a seed (only the players' steps in Python);
  2. vectorized stepping with observation tensors and masks, steps/s: yezi VecEnv (both games),
     OpenSpiel hearts with its observer filled in place each step, RLCard Dou Dizhu (env.step);
  3. PettingZoo AEC with masked random actions, steps/s: yezi madiao_v0 / dabaifen_v0 and
     PettingZoo's texas_holdem_v4.
Prints a table and the ratios the issue asks for.

    python python/bench.py --calls

prints instead what each call on the step loop's path costs (ns per call; yezi and hearts).

    python python/bench.py --steps [--rounds 3] [--seconds 3] [--batch 256]

measures per step, in CPU time of this process (all its threads: JAX's included), over
alternating rounds (each measure runs once per round, in turn, so the machine's load reaches
every measure alike): the Python step loop's cost per step (chance steps included) for yezi
Madiao, yezi Da Bai Fen and OpenSpiel's hearts; and steps/s of `VecEnv` (Madiao and Da Bai Fen,
`--batch` hands, random legal actions chosen in numpy) against Pgx's Leduc hold'em on JAX's CPU
backend (`jit(vmap(step))` with auto-reset and the random legal actions drawn inside the same
jitted function). Prints each round and the means with the ratios.
"""

import argparse
import random
import time

import numpy as np


def timed(fn, seconds):
    """Runs fn() (which returns a count) until `seconds` pass; returns count per second."""
    fn()  # warm up
    count, start = 0, time.perf_counter()
    while True:
        count += fn()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count / elapsed


def step_loop(new_state, rng):
    def one():
        state = new_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        return 1

    return one


def vecenv(game, n=256):
    from yezi.vector import VecEnv

    env = VecEnv(game, n, seed=1)
    rng = np.random.default_rng(0)
    noise = np.empty(env.action_masks.shape, np.float32)

    def one():
        for _ in range(20):
            rng.random(out=noise, dtype=np.float32)
            actions = np.argmax(env.action_masks * (noise + 0.01), axis=1).astype(np.int64)
            env.step(actions)
        return 20 * n

    return one


def hearts_observer(rng):
    import pyspiel
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("hearts")
    # Hearts has no plain observation; its observer is the information state (perfect recall).
    obs = make_observation(game) or make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))

    def one():
        steps = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            p = state.current_player()
            obs.set_from(state, p)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        return steps

    return one


def rlcard_doudizhu():
    import rlcard

    env = rlcard.make("doudizhu", config={"seed": 0})
    rng = np.random.default_rng(0)

    def one():
        steps = 0
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.integers(len(legal))])
            steps += 1
        return steps

    return one


def aec(env_fn):
    env = env_fn()
    rng = np.random.default_rng(0)
    seed = [0]

    def one():
        steps = 0
        seed[0] += 1
        env.reset(seed=seed[0])
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
            else:
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
        return steps

    return one


def cpu_timed(fn, seconds):
    """Runs fn() (which returns a count) for about `seconds` of this process's CPU time; returns
    count per CPU second."""
    fn()  # warm up (and compile, for JAX)
    count, start = 0, time.process_time()
    while True:
        count += fn()
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return count / elapsed


def counted_loop(new_state, rng):
    """The step loop of `step_loop`, counting its steps (chance steps and decisions)."""

    def one():
        steps = 0
        state = new_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        return steps

    return one


def pgx_leduc(n):
    """Pgx's Leduc hold'em, `n` games stepped by one jitted, vmapped call with auto-reset and the
    random legal actions drawn in the same call."""
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make("leduc_holdem")
    init = jax.jit(jax.vmap(env.init))
    step = jax.vmap(auto_reset(env.step, env.init))

    @jax.jit
    def act(state, key):
        key, k1, k2 = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(k1, logits, axis=-1)
        return step(state, action, jax.random.split(k2, n)), key

    key = jax.random.PRNGKey(0)
    box = [init(jax.random.split(key, n)), key]

    def one():
        state, key = box
        for _ in range(20):
            state, key = act(state, key)
        state.observation.block_until_ready()
        box[0], box[1] = state, key
        return 20 * n

    return one


def steps(args):
    """Per-step figures over alternating rounds (see the module's docstring)."""
    import pyspiel
    import yezi

    rng = random.Random(0)
    md, dbf = yezi.madiao.Game(), yezi.dabaifen.Game()
    hearts = pyspiel.load_game("hearts")
    measures = {
        "loop yezi madiao": counted_loop(md.new_initial_state, rng),
        "loop yezi dabaifen": counted_loop(dbf.new_initial_state, rng),
        "loop openspiel hearts": counted_loop(hearts.new_initial_state, rng),
        "VecEnv yezi madiao": vecenv("madiao", args.batch),
        "VecEnv yezi dabaifen": vecenv("dabaifen", args.batch),
        "pgx leduc_holdem": pgx_leduc(args.batch),
    }
    rows = {k: [] for k in measures}
    for r in range(args.rounds):
        for k, fn in measures.items():
            rows[k].append(cpu_timed(fn, args.seconds))
        print(f"round {r + 1}: " + ", ".join(
            f"{k} {1e6 / v[-1]:.3f} us/step" if k.startswith("loop") else f"{k} {v[-1]:,.0f} steps/s"
            for k, v in rows.items()), flush=True)
    mean = {k: sum(v) / len(v) for k, v in rows.items()}
    print()
    print(f"means over {args.rounds} rounds ({args.seconds} CPU seconds each), per CPU second:")
    for k, v in mean.items():
        unit = f"{1e6 / v:8.3f} us a step" if k.startswith("loop") else f"{v:14,.0f} steps/s"
        print(f"  {k:28s} {unit}   rounds: " + ", ".join(
            f"{1e6 / x:.3f}" if k.startswith("loop") else f"{x:,.0f}" for x in rows[k]))
    h = mean["loop openspiel hearts"]
    p = mean["pgx leduc_holdem"]
    print("ratios (issue targets in brackets; a ratio per round, then of the means):")
    for g in ("madiao", "dabaifen"):
        per = [a / b for a, b in zip(rows[f"loop yezi {g}"], rows["loop openspiel hearts"])]
        print(f"  step loop per step, {g:8s} / hearts  " + ", ".join(f"{x:.2f}x" for x in per)
              + f"; means {mean[f'loop yezi {g}'] / h:.2f}x  [>= 2x]")
    for g in ("madiao", "dabaifen"):
        per = [a / b for a, b in zip(rows[f"VecEnv yezi {g}"], rows["pgx leduc_holdem"])]
        print(f"  VecEnv {g:8s} / Pgx Leduc (batch {args.batch})  " + ", ".join(f"{x:.2f}x" for x in per)
              + f"; means {mean[f'VecEnv yezi {g}'] / p:.2f}x  [>= 1x]")


def per_call(fn, n=100_000):
    """Nanoseconds per call of fn() (the loop's own cost included)."""
    start = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - start) / n * 1e9


def calls():
    """The cost of each call the step loop makes, at a full deck and at the first decision."""
    import pyspiel
    import yezi

    games = [("yezi madiao", yezi.madiao.Game()), ("yezi dabaifen", yezi.dabaifen.Game()),
             ("openspiel hearts", pyspiel.load_game("hearts"))]
    rng = random.Random(0)
    print(f"{'ns per call':22s}" + "".join(f"{name:>18s}" for name, _ in games))
    rows = {}
    for name, game in games:
        chance = game.new_initial_state()
        player = game.new_initial_state()
        while player.is_chance_node():
            outcomes = player.chance_outcomes()
            player.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        first = player.legal_actions()[0]

        def apply_first():
            player.clone().apply_action(first)

        rows.setdefault("is_terminal()", []).append(per_call(chance.is_terminal))
        rows.setdefault("is_chance_node()", []).append(per_call(chance.is_chance_node))
        rows.setdefault("current_player()", []).append(per_call(player.current_player))
        rows.setdefault("chance_outcomes(), full", []).append(per_call(chance.chance_outcomes, 20_000))
        rows.setdefault("legal_actions()", []).append(per_call(player.legal_actions, 20_000))
        rows.setdefault("clone()", []).append(per_call(player.clone, 20_000))
        rows.setdefault("clone().apply_action()", []).append(per_call(apply_first, 20_000))
    rows["random.randrange(40)"] = [per_call(lambda: rng.randrange(40))] * len(games)
    for k, v in rows.items():
        print(f"{k:22s}" + "".join(f"{x:18,.0f}" for x in v))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--calls", action="store_true", help="the cost of each call of the step loop")
    ap.add_argument("--steps", action="store_true", help="per-step figures in alternating rounds")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--batch", type=int, default=256, help="hands/games stepped together (--steps)")
    args = ap.parse_args()
    if args.calls:
        calls()
        return
    if args.steps:
        steps(args)
        return
    s = args.seconds

    import pyspiel
    import yezi

    rng = random.Random(0)
    md, dbf = yezi.madiao.Game(), yezi.dabaifen.Game()
    hearts = pyspiel.load_game("hearts")
    rows = {}
    rows["loop yezi madiao (games/s)"] = timed(step_loop(md.new_initial_state, rng), s)
    rows["loop yezi dabaifen (games/s)"] = timed(step_loop(dbf.new_initial_state, rng), s)
    rows["loop openspiel hearts (games/s)"] = timed(step_loop(hearts.new_initial_state, rng), s)
    # The same loop with the deal shuffled in Rust from a seed (no chance steps in Python).
    k = iter(range(1 << 62))
    rows["loop yezi madiao, seeded deal (games/s)"] = timed(step_loop(lambda: md.new_initial_state(seed=next(k)), rng), s)
    rows["loop yezi dabaifen, seeded deal (games/s)"] = timed(step_loop(lambda: dbf.new_initial_state(seed=next(k)), rng), s)
    rows["vec yezi madiao VecEnv (steps/s)"] = timed(vecenv("madiao"), s)
    rows["vec yezi dabaifen VecEnv (steps/s)"] = timed(vecenv("dabaifen"), s)
    rows["vec openspiel hearts + observer (steps/s)"] = timed(hearts_observer(rng), s)
    rows["vec rlcard doudizhu env.step (steps/s)"] = timed(rlcard_doudizhu(), s)
    from pettingzoo.classic import texas_holdem_v4
    from yezi.pettingzoo import dabaifen_v0, madiao_v0

    rows["aec yezi madiao_v0 (steps/s)"] = timed(aec(madiao_v0.env), s)
    rows["aec yezi dabaifen_v0 (steps/s)"] = timed(aec(dabaifen_v0.env), s)
    rows["aec pettingzoo texas_holdem_v4 (steps/s)"] = timed(aec(texas_holdem_v4.env), s)

    for k, v in rows.items():
        print(f"{k:45s} {v:14,.0f}")
    r = rows
    print()
    print("ratios (issue targets in brackets):")
    h = r["loop openspiel hearts (games/s)"]
    print(f"  step loop Madiao / hearts      {r['loop yezi madiao (games/s)'] / h:7.1f}x  [>= 20x]")
    print(f"  step loop Da Bai Fen / hearts  {r['loop yezi dabaifen (games/s)'] / h:7.1f}x  [>= 5x]")
    print(f"    with the deal seeded in Rust: Madiao {r['loop yezi madiao, seeded deal (games/s)'] / h:.1f}x, "
          f"Da Bai Fen {r['loop yezi dabaifen, seeded deal (games/s)'] / h:.1f}x")
    ho = r["vec openspiel hearts + observer (steps/s)"]
    dd = r["vec rlcard doudizhu env.step (steps/s)"]
    for g in ("madiao", "dabaifen"):
        v = r[f"vec yezi {g} VecEnv (steps/s)"]
        print(f"  VecEnv {g:9s} / hearts+obs   {v / ho:7.1f}x  [>= 3x];  / RLCard Dou Dizhu {v / dd:7.1f}x  [>= 100x]")
    th = r["aec pettingzoo texas_holdem_v4 (steps/s)"]
    for g in ("madiao", "dabaifen"):
        print(f"  AEC {g:9s} / texas_holdem_v4 {r[f'aec yezi {g}_v0 (steps/s)'] / th:7.1f}x  [>= 10x]")


if __name__ == "__main__":
    main()
