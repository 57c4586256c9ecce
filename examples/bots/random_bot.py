#!/usr/bin/env python3
"""A bot for yezi that speaks the open bot protocol `yezi-bot/1` (docs/bot-protocol.md).

It plays either game, Madiao or Da Bai Fen, choosing uniformly at random among the legal actions
it is sent, with a generator seeded by the host: the same seed and the same questions give the
same answers. Standard library only.

    yezi arena madiao --a ext:"python3 examples/bots/random_bot.py" --b heuristic --hands 10

Every message is one JSON object on one line: the host writes to this program's standard input,
the program answers on its standard output (and writes anything else, such as logs, to standard
error). Remember to flush after each answer.
"""

import json
import random
import sys

PROTOCOL = "yezi-bot/1"


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main():
    rng = random.Random()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            if message.get("protocol") != PROTOCOL:
                print(f"random_bot: unknown protocol {message.get('protocol')!r}", file=sys.stderr)
                return 1
            rng.seed(message.get("seed", 0))
            send({"type": "ready", "protocol": PROTOCOL, "name": "random_bot.py"})
        elif kind == "decide":
            # `legal` holds every action the seat may take, in the record's action form
            # ({"play": "M9"}, {"play": ["AS", "KS"]}, {"pass": true}, ...): answer with one.
            action = rng.choice(message["legal"])
            send({"type": "action", "id": message["id"], "action": action})
        elif kind == "hand_over":
            # message["view"]["result"] says how the hand ended; a learning bot would use it.
            pass
        elif kind == "quit":
            return 0
        # Messages of other types are ignored: later versions of the protocol may add some.
    return 0


if __name__ == "__main__":
    sys.exit(main())
