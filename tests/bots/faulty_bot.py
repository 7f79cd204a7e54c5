"""A bot of ts358-bot/1 that plays its first option until decision ``AT``, where it commits
the fault named by its first argument (the tests of ts358.bots run it):

late (sleeps past the time control), illegal (a card it does not hold), malformed (a line
that is not JSON), oversized (a line of 100 KB), flood (lines without end), hang (no answer,
ever), die (exits), silent (never answers the hello), child (leaves a child process
running, then hangs).
"""

import json
import subprocess
import sys
import time

MODE = sys.argv[1]
AT = int(sys.argv[2]) if len(sys.argv) > 2 else 3


def say(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def answer(message):
    kind, options = message["kind"], message["options"]
    if kind == "choose":
        return {"game": options[0]}
    if kind == "discard":
        return {"cards": options[:4]}
    return {"card": options[0]}


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        if MODE == "silent":
            time.sleep(3600)
        say({"type": "hello", "name": f"faulty-{MODE}", "version": "1"})
        continue
    if message["type"] == "bye":
        break
    if message["type"] != "decide":
        continue
    if message["id"] == AT:
        if MODE == "late":
            time.sleep(2)
        elif MODE == "illegal":
            held = set(message["view"]["hand"])
            foreign = next(
                f"{r}{s}" for s in "SHDC" for r in "23456789TJQKA" if f"{r}{s}" not in held
            )
            say(
                {
                    "type": "decision",
                    "id": message["id"],
                    "card": foreign,
                    "cards": [foreign] * 4,
                    "game": "no-such-game",
                }
            )
            continue
        elif MODE == "malformed":
            sys.stdout.write("this is not json\n")
            sys.stdout.flush()
            continue
        elif MODE == "oversized":
            sys.stdout.write("x" * 100_000 + "\n")
            sys.stdout.flush()
            time.sleep(3600)
        elif MODE == "flood":
            while True:
                say({"type": "log", "text": "flood"})
        elif MODE == "hang":
            time.sleep(3600)
        elif MODE == "die":
            sys.exit(3)
        elif MODE == "child":
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
            time.sleep(3600)
    say({"type": "decision", "id": message["id"], **answer(message)})
