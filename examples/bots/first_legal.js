#!/usr/bin/env node
// A bot for ts358 in JavaScript for Node.js (no packages): protocol ts358-bot/1, JSON lines
// on stdin and stdout (docs/bots.md). The same simple rule as first_legal.py: the highest
// card when it leads, the lowest card that wins the trick when it can, else its lowest;
// the game with most cards of a suit among its first six; lowest cards to give, return and
// discard. Run it at a table with e.g.
//
//     ts358 arena --players "cmd:node examples/bots/first_legal.js",medium,medium
"use strict";

const readline = require("readline");

const RANKS = "23456789TJQKA";
const SUITS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

const rank = (card) => RANKS.indexOf(card.slice(0, -1));
const suit = (card) => card.slice(-1);
const lowest = (cards) => cards.reduce((a, b) => (rank(b) < rank(a) ? b : a));
const highest = (cards) => cards.reduce((a, b) => (rank(b) > rank(a) ? b : a));

function choose(view, options) {
  const counts = {};
  for (const card of view.hand) counts[suit(card)] = (counts[suit(card)] || 0) + 1;
  const bySize = Object.keys(counts).sort((a, b) => counts[b] - counts[a]);
  for (const s of bySize) if (options.includes(SUITS[s])) return { game: SUITS[s] };
  return { game: options.includes("no-trump") ? "no-trump" : options[0] };
}

function play(view, options) {
  const trick = view.trick;
  if (trick.length === 0) return { card: highest(options) };
  const led = suit(trick[0]);
  const best = highest(trick.filter((c) => suit(c) === led));
  const winners = options.filter((c) => suit(c) === led && rank(c) > rank(best));
  return { card: winners.length ? lowest(winners) : lowest(options) };
}

function decide(message) {
  const { kind, view, options } = message;
  if (kind === "choose") return choose(view, options);
  if (kind === "discard") return { cards: [...options].sort((a, b) => rank(a) - rank(b)).slice(0, 4) };
  if (kind === "give" || kind === "return") return { card: lowest(options) };
  return play(view, options);
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const message = JSON.parse(line);
  let answer = null;
  if (message.type === "hello") {
    answer = { type: "hello", name: "first-legal-js", version: "1" };
  } else if (message.type === "decide") {
    answer = { type: "decision", id: message.id, ...decide(message) };
  } else if (message.type === "bye") {
    input.close();
    return;
  } // deal_end, and anything a later version adds: nothing to answer
  if (answer) process.stdout.write(JSON.stringify(answer) + "\n");
});
