#!/usr/bin/env python3
"""A bot that breaks the protocol `yezi-bot/1` on purpose, for the tests of the host's fallbacks.

    bad_bot.py MODE

MODE: `illegal` (answers a card it does not hold), `garbage` (answers a line that is not JSON),
`sleep` (never answers in time), `exit` (answers one decision, then exits at the next), `flood`
(answers an endless line with no newline), `silent` (never answers the handshake).
"""

import json
import sys
import time

MADIAO = ["TW", "TQ", "TB"] + [f"T{i}" for i in range(9, 1, -1)] + [f"M{i}" for i in range(9, 0, -1)] \
    + [f"S{i}" for i in range(9, 0, -1)] + ["W0", "WH"] + [f"W{i}" for i in range(1, 10)]
DABAIFEN = [r + s for r in "AKQJT98765432" for s in "SHDC"]


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    mode = sys.argv[1]
    game = None
    decisions = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            if mode == "silent":
                time.sleep(60)
            game = message["game"]
            send({"type": "ready", "protocol": "yezi-bot/1", "name": f"bad_bot {mode}"})
        elif kind == "decide":
            decisions += 1
            if mode == "illegal":
                hand = set(message["view"]["hand"])
                if game == "madiao":
                    card = next(c for c in MADIAO if c not in hand)
                    action = {"play": card}
                else:
                    card = next(c for c in DABAIFEN if c not in hand)
                    action = {"play": [card]}
                send({"type": "action", "id": message["id"], "action": action})
            elif mode == "garbage":
                sys.stdout.write("this is not JSON\n")
                sys.stdout.flush()
            elif mode == "sleep":
                time.sleep(60)
            elif mode == "exit":
                if decisions >= 2:
                    return 3
                send({"type": "action", "id": message["id"], "action": message["legal"][0]})
            elif mode == "flood":
                chunk = "x" * 65536
                try:
                    while True:
                        sys.stdout.write(chunk)
                        sys.stdout.flush()
                except BrokenPipeError:
                    return 4
        elif kind == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
