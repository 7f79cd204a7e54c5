#!/usr/bin/env python3
"""A bot for ts358 in plain Python (no packages): protocol ts358-bot/1, JSON lines on stdin
and stdout (docs/bots.md).

It plays by a simple rule: the highest card when it leads or can win the trick, the lowest
otherwise; it chooses the game with most cards of a suit among its first six (no-trump
with none), gives and returns its lowest cards and discards its four lowest. Run it at a
table with e.g.

    ts358 arena --players "cmd:python3 examples/bots/first_legal.py",medium,medium
"""

import json
import sys

RANKS = "23456789TJQKA"
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def rank(card):
    return RANKS.index(card[:-1])


def choose(view, options):
    counts = {}
    for card in view["hand"]:
        counts[card[-1]] = counts.get(card[-1], 0) + 1
    for suit, _ in sorted(counts.items(), key=lambda kv: -kv[1]):
        if SUITS[suit] in options:
            return {"game": SUITS[suit]}
    return {"game": "no-trump" if "no-trump" in options else options[0]}


def play(view, options):
    trick = view["trick"]
    if not trick:
        return {"card": max(options, key=rank)}
    led = trick[0][-1]
    best = max((c for c in trick if c[-1] == led), key=rank)
    winners = [c for c in options if c[-1] == led and rank(c) > rank(best)]
    return {"card": min(winners, key=rank) if winners else min(options, key=rank)}


def decide(message):
    kind, view, options = message["kind"], message["view"], message["options"]
    if kind == "choose":
        return choose(view, options)
    if kind == "discard":
        return {"cards": sorted(options, key=rank)[:4]}
    if kind in ("give", "return"):
        return {"card": min(options, key=rank)}
    return play(view, options)


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            answer = {"type": "hello", "name": "first-legal", "version": "1"}
        elif message["type"] == "decide":
            answer = {"type": "decision", "id": message["id"], **decide(message)}
        elif message["type"] == "bye":
            return
        else:
            continue  # deal_end, and anything a later version adds
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
