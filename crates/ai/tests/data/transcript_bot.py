#!/usr/bin/env python3
"""A `yezi-bot/1` bot that appends every message it receives to the file named by its argument
and answers each decision with the first legal action (for the test of the host's messages). At
its start it writes `{"type": "_started", "pid": PID}` there first. With a second argument N, it
exits without answering at its (N+1)-th decision (for the test of restarts)."""

import json
import os
import sys


def main():
    exit_after = int(sys.argv[2]) if len(sys.argv) > 2 else None
    answered = 0
    with open(sys.argv[1], "a", encoding="utf-8") as log:
        log.write(json.dumps({"type": "_started", "pid": os.getpid()}) + "\n")
        log.flush()
        for line in sys.stdin:
            log.write(line)
            log.flush()
            message = json.loads(line)
            if message["type"] == "hello":
                print(json.dumps({"type": "ready", "protocol": "yezi-bot/1", "name": "transcript"}), flush=True)
            elif message["type"] == "decide":
                if exit_after is not None and answered >= exit_after:
                    return 5
                answered += 1
                answer = {"type": "action", "id": message["id"], "action": message["legal"][0]}
                print(json.dumps(answer), flush=True)
            elif message["type"] == "quit":
                return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
