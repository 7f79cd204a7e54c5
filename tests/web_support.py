"""Shared by the web tests: what a seat may know, computed from the engine itself (not from
ts358.web), the cards a message mentions, a scripted player for the protocol, and a real
server on a free port."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import uvicorn

from ts358.cards import DECK, Card
from ts358.match import Match
from ts358.web.app import create_app
from ts358.web.lobby import Lobby
from ts358.web.server import bind, public_url, server_config

# A card in the project's notation (AS, TH) as a whole string, or with a suit symbol inside
# a sentence (A♠, 10♥: the way the texts write cards).
_NOTATION = re.compile(r"(?:10|[2-9TJQKA])[SHDC]")
_SYMBOL = re.compile(r"(?<![0-9A-Za-z])(10|[2-9TJQKA])([♠♥♦♣])")
_SUIT = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def cards_in(message) -> set[Card]:
    """Every card a message names anywhere in its values."""
    found: set[Card] = set()
    pending = [message]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            pending += value.values()
        elif isinstance(value, list):
            pending += value
        elif isinstance(value, str):
            if _NOTATION.fullmatch(value):
                found.add(Card.parse(value))
            for rank, suit in _SYMBOL.findall(value):
                found.add(Card.parse(("T" if rank == "10" else rank) + _SUIT[suit]))
    return found


def known_cards(match: Match, seat: int, deal_number: int) -> set[Card]:
    """The cards ``seat`` may know of deal ``deal_number`` now, from the engine's own state:
    the cards it holds or has held, the played cards, the talon once taken, its own
    exchanges and (the chooser) discard. Of a finished deal it knows every card but
    another seat's discard."""
    if deal_number < match.number or match.deal is None:
        result = match.results[deal_number - 1]
        return set(DECK) - (set() if seat == result.chooser else set(result.discard))
    deal = match.deal
    setup = deal.setup
    sees = match.rules.sees
    choosing = deal.game is None and seat == deal.chooser and sees < 16
    known = set(setup.hands[seat][:sees] if choosing else setup.hands[seat])
    if not choosing:
        known |= set(deal.hand(seat))
    for step in deal.exchanges:
        if seat in (step.giver, step.receiver):
            known |= {step.given, step.returned}
    for trick in deal.tricks:
        known |= set(trick.cards)
    known |= set(deal.trick)
    if deal.talon_seen_by(seat):
        known |= set(setup.talon)
    if deal.discarded is not None and seat == deal.chooser:
        known |= set(deal.discarded)
    return known


def answer(state: dict) -> dict | None:
    """A scripted seat's message for the decision in ``state`` (None: nothing to decide):
    the first game left, a trump to give when it has one (else its last card that may be
    given), the last card to return, the last four cards to discard, the first legal card."""
    kind = state.get("decision")
    if state["phase"] == "summary":
        return None if state["ready"] else {"type": "next"}
    if kind is None:
        return None
    legal = [c["card"] for c in state["hand"] if c["legal"]]
    if kind == "choose":
        return {"type": "choose", "game": next(g["game"] for g in state["games"] if g["available"])}
    if kind == "give":
        trumps = [c for c in legal if c[-1] == state["trump"]]
        return {"type": "give", "card": trumps[0] if trumps else legal[-1]}
    if kind == "return":
        return {"type": "return", "card": legal[-1]}
    if kind == "discard":
        return {"type": "discard", "cards": legal[-4:]}
    return {"type": "play", "card": legal[0]}


def send(socket, message) -> None:
    socket.send_text(json.dumps(message))


def receive(socket) -> dict:
    return json.loads(socket.receive_text())


@contextlib.contextmanager
def live_server(
    folder: Path, host: str = "127.0.0.1", bots: dict[str, str] | None = None, **options: Any
) -> Iterator[LiveServer]:
    """A ts358 server configured as ``ts358 serve`` configures it (:func:`server_config`),
    on a free port of ``host``, its saves in ``folder``, served from a thread until the
    block ends; ``bots`` (name: ``cmd:COMMAND``) are the lobby's, ``options`` go to
    :func:`create_app`."""
    sock = bind(host, 0)
    port = sock.getsockname()[1]
    url = public_url("127.0.0.1" if host in ("::", "0.0.0.0") else host, port)
    lobby = Lobby(folder, bots=bots)
    with serving(create_app(lobby, base_url=url, lang="en", **options), sock):
        yield LiveServer(url, port, lobby)


@contextlib.contextmanager
def serving(app: Any, sock: Any) -> Iterator[None]:
    """``app`` served by uvicorn as ``ts358 serve`` configures it, on the bound socket
    ``sock``, from a thread until the block ends."""
    running = uvicorn.Server(server_config(app))
    thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not running.started:
        time.sleep(0.02)
    try:
        yield
    finally:
        running.should_exit = True
        thread.join(10)
        sock.close()


@dataclasses.dataclass(frozen=True)
class LiveServer:
    url: str
    port: int
    lobby: Lobby
