"""The messages a seat is sent (docs/web.md#messages-from-the-server), as JSON-ready dicts.

Hidden information is kept here by construction: a seat's table state is built from that
seat's :class:`~ts358.view.SeatView` (which the engine builds for that seat alone: its own
hand, the talon once shown, its own exchanges and discard) and from what the whole table
knows, the scores of the finished deals (:class:`DealScore`, taken from a
:class:`~ts358.deal.DealResult` by :func:`deal_scores`, the one place a result's public part
is read). Nothing here reads the engine.

Cards are written in the project's notation (``AS``, ``TH``: :class:`~ts358.cards.Card`),
games by their labels (``spades`` ... ``no-tricks``); names and sentences are in the
table's language.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from ts358.analysis.review import DealReview
from ts358.cards import Card, CardSet, Suit
from ts358.deal import Answer, DealResult
from ts358.match import standings
from ts358.players.advice import Advice
from ts358.rules import Contract, Role, Rules
from ts358.table.texts import MESSAGES, RANK_LETTERS, Translator, card_text, game_name, role_name, t
from ts358.view import DecisionKind, SeatView

__all__ = [
    "PHASES",
    "DealScore",
    "TableInfo",
    "advice_message",
    "deal_scores",
    "error_message",
    "hand_order",
    "phase_of",
    "review_message",
    "seat_state",
    "spectator_state",
    "welcome_message",
]

JSON = dict[str, Any]

PHASES = ("choose", "exchange", "return", "discard", "play", "summary", "finished")
"""The values of a state's ``phase`` (and of the page's ``data-phase``)."""


# The catalogue's parts the page shows as they are (labels without numbers in them).
_PAGE_TEXTS = (
    "web.",
    "game.",
    "role.",
    "rules.",
    "board.",
    "level.",
    "col.",
    "score.",
    "stats.",
    "short.",
    "seat.",
    "table.",
    "lang.",
)


class DealScore(NamedTuple):
    """What the whole table knows of a finished deal: who chose what, the tricks, the scores."""

    number: int
    dealer: int
    chooser: int
    game: Contract
    taken: tuple[int, int, int]
    scores: tuple[int, int, int]


def deal_scores(results: Iterable[DealResult]) -> tuple[DealScore, ...]:
    """The public part of finished deals (never their hands, talon, discard or exchange)."""
    return tuple(
        DealScore(r.number, r.dealer, r.chooser, r.game, r.taken, r.scores) for r in results
    )


@dataclasses.dataclass(frozen=True)
class TableInfo:
    """What a seat's state shows besides its view: all of it known to the whole table.

    Attributes:
        names: display names by seat, the same for every seat.
        humans: the seats played by people.
        connected: the human seats with a browser connected now.
        length: deals in the match.
        scores: the finished deals.
        totals: the match totals now.
        waiting: the human seats still to go on after the last deal (``summary`` phase).
        done: whether the match is over.
        pace: seconds between the computer players' cards.
        lang: the language of the texts.
        rules: the match's rules (targets, role names, how it ends).
        winner: who took 12 tricks in a deal, under ``end = twelve-tricks``.
    """

    names: tuple[str, str, str]
    humans: frozenset[int]
    connected: frozenset[int]
    length: int
    scores: tuple[DealScore, ...]
    totals: tuple[int, int, int]
    waiting: frozenset[int]
    done: bool
    pace: float
    lang: str
    rules: Rules = Rules()
    winner: int | None = None


def hand_order(hand: CardSet, trump: Suit | None) -> list[Card]:
    """A hand as the page shows it: the trump suit first, then ♠ ♥ ♦ ♣, high to low."""
    return sorted(hand, key=lambda c: (c.suit != trump, c.suit, -c.rank))


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def phase_of(view: SeatView) -> str:
    """The deal's phase as ``view``'s seat can tell it: ``return`` only for the seat that
    must return a trump (the seat outside the exchange sees ``exchange`` throughout: that a
    trump was given is not its to know)."""
    if view.kind is DecisionKind.RETURN:
        return "return"
    if view.leader is not None:
        return "play"
    if view.talon_taken or view.kind is DecisionKind.DISCARD:
        return "discard"
    if view.game is None:
        # An exchange before the choice (Sergeant Major) while the chooser has not chosen.
        before = view.rules.exchanges_before(None) and view.previous_scores is not None
        return "exchange" if before and view.kind is not DecisionKind.CHOOSE else "choose"
    return "exchange" if view.rules.exchanges_before(view.game) else "discard"


def _turn(view: SeatView) -> int | None:
    """The seat whose decision is due, where the view tells it (in the exchange only the
    seats in it know whose it is)."""
    if view.kind is not None:
        return view.seat
    if view.game is None and not view.rules.exchanges_before(None):
        return view.chooser
    if view.game is not None and view.leader is None and view.talon_taken:
        return view.chooser
    if view.leader is not None:
        return (view.leader + len(view.trick)) % 3
    return None


def _seats(view: SeatView | None, info: TableInfo) -> list[JSON]:
    seats = []
    last = info.scores[-1] if info.scores else None
    for seat in range(3):
        row: JSON = {
            "seat": seat,
            "name": info.names[seat],
            "human": seat in info.humans,
            "connected": seat in info.connected,
            "total": info.totals[seat],
        }
        if view is not None:
            role = view.role_of(seat)
            game = view.game
            row["taken"] = view.taken[seat]
            row["games_left"] = [g.label for g in sorted(view.games_left(seat))]
        elif last is not None:  # between deals, or at the end: the last deal's
            role = Role.of_seat(seat, last.dealer)
            game = last.game
            row["taken"] = last.taken[seat]
            row["games_left"] = []
        else:  # pragma: no cover - a match always has a deal or a finished one
            continue
        row["role"] = role.label
        row["role_name"] = role_name(role, info.lang, info.rules)
        row["tricks"] = Translator(info.lang).tricks(row["taken"], role, game, info.rules)
        seats.append(row)
    return seats


def _score_sheet(info: TableInfo) -> list[JSON]:
    return [
        {
            "deal": s.number,
            "chooser": s.chooser,
            "game": s.game.label,
            "game_name": game_name(s.game, info.lang),
            "taken": list(s.taken),
            "scores": list(s.scores),
        }
        for s in info.scores
    ]


def _summary(info: TableInfo) -> JSON | None:
    if not info.scores:
        return None
    last = info.scores[-1]
    return {
        "deal": last.number,
        "game": last.game.label,
        "title": t(
            "summary.title",
            info.lang,
            number=last.number,
            game=game_name(last.game, info.lang),
            name=info.names[last.chooser],
        ),
        "rows": [
            {
                "seat": seat,
                "role_name": role_name(Role.of_seat(seat, last.dealer), info.lang, info.rules),
                "tricks": Translator(info.lang).tricks(
                    last.taken[seat], Role.of_seat(seat, last.dealer), last.game, info.rules
                ),
                "score": last.scores[seat],
                "total": info.totals[seat],
            }
            for seat in range(3)
        ],
    }


def _status(view: SeatView | None, info: TableInfo, phase: str, seat: int) -> str:
    """The line above the hand: what is asked of this seat, or whom the table waits for."""
    lang = info.lang
    if phase == "finished":
        return t("web.finished", lang)
    if phase == "summary":
        if seat in info.waiting:
            return ""
        others = [info.names[s] for s in sorted(info.waiting)]
        return t("web.waiting", lang, name=", ".join(others)) if others else ""
    assert view is not None
    kind = view.kind
    if kind is DecisionKind.CHOOSE:
        return t("web.choose" if view.rules.sees < 16 else "web.choose_all", lang)
    if kind is DecisionKind.GIVE:
        name = info.names[view.give_to if view.give_to is not None else seat]
        return t("prompt.give", lang, name=name, left=view.gives_left)
    if kind is DecisionKind.RETURN:
        received = card_text(view.received, True, lang) if view.received is not None else "?"
        return t("prompt.return", lang, card=received)
    if kind is DecisionKind.DISCARD:
        return t("web.discard_pick", lang, count=0)
    if kind is DecisionKind.PLAY:
        return t("web.play", lang)
    turn = _turn(view)
    if turn is None:
        return t("web.exchange", lang) + "..."
    return t("web.waiting", lang, name=info.names[turn])


def seat_state(seat: int, view: SeatView | None, info: TableInfo) -> JSON:
    """The table as ``seat`` sees it (``type: state``): ``view`` is the seat's view of the
    deal in progress (None once the match is over), ``info`` what everyone knows."""
    if info.done:
        phase = "finished"
    elif info.waiting:
        phase = "summary"
    else:
        assert view is not None
        phase = phase_of(view)
    state: JSON = {
        "type": "state",
        "seat": seat,
        "phase": phase,
        "deals": info.length,
        # The rules' name and, for a match that ends on a condition, how (docs/web.md).
        "rules": Translator(info.lang).rules(info.rules),
        "end": Translator(info.lang).end(info.rules),
        "pace": info.pace,
        # Between deals the seats show the deal just finished, as its summary does.
        "seats": _seats(view if phase not in ("summary", "finished") else None, info),
        "score_sheet": _score_sheet(info),
        "totals": list(info.totals),
        "summary": _summary(info) if phase in ("summary", "finished") else None,
        "ready": seat not in info.waiting,
        "waiting": sorted(info.waiting),
        "status": _status(view, info, phase, seat),
    }
    if phase == "finished":
        places = standings(info.totals, info.winner)
        if info.winner is not None and info.scores:
            taken = info.scores[-1].taken[info.winner]
            name = info.names[info.winner]
            state["winner_text"] = t("match.twelve", info.lang, name=name, count=taken)
        state["standings"] = [
            {"seat": s, "place": places[s], "total": info.totals[s]}
            for s in sorted(range(3), key=lambda s: (places[s], s))
        ]
    if view is None:
        return state
    mine = view.kind if phase not in ("summary", "finished") else None
    trump = view.game.trump if view.game is not None else None
    state.update(
        deal=view.deal_number,
        # The seat that deals the cards (under Sergeant Major, the chooser's).
        dealer=view.rules.dealing_role.seat(view.dealer),
        game=view.game.label if view.game is not None else None,
        game_name=game_name(view.game, info.lang) if view.game is not None else None,
        trump=trump.letter if trump is not None else None,
        turn=_turn(view) if phase not in ("summary", "finished") else None,
        decision=mine.value if mine is not None else None,
        first_six=view.game is None and view.chooser == seat and view.rules.sees < 16,
        hand=[
            {"card": str(c), "legal": mine not in (None, DecisionKind.CHOOSE) and c in view.options}
            for c in hand_order(view.hand, trump)
        ],
        games=[
            {
                "game": g.label,
                "name": game_name(g, info.lang),
                "available": g in view.available[seat],
            }
            for g in Contract
        ]
        if mine is DecisionKind.CHOOSE
        else [],
        give_to=view.give_to,
        gives_left=view.gives_left,
        received=str(view.received) if view.received is not None else None,
        exchanges=[
            {
                "giver": s.giver,
                "receiver": s.receiver,
                "given": str(s.given),
                "returned": str(s.returned),
            }
            for s in view.exchanges
        ],
        others_exchanged=view.others_exchanged,
        others_text=t(
            "ev.others_exchanged",
            info.lang,
            count=view.others_exchanged,
            a=info.names[(seat + 1) % 3],
            b=info.names[(seat + 2) % 3],
        )
        if view.others_exchanged
        else "",
        talon=_cards(hand_order(view.talon, trump)) if view.talon is not None else None,
        discard=_cards(hand_order(view.discard, trump)) if view.discard is not None else None,
        trick={
            "leader": view.leader,
            "cards": [
                {"seat": (view.leader + i) % 3, "card": str(c)} for i, c in enumerate(view.trick)
            ],
        }
        if view.leader is not None
        else None,
        last_trick={
            "number": len(view.tricks),
            "winner": view.tricks[-1].winner,
            "cards": [
                {"seat": view.tricks[-1].seat_of(i), "card": str(c)}
                for i, c in enumerate(view.tricks[-1].cards)
            ],
        }
        if view.tricks
        else None,
    )
    return state


_PUBLIC = (
    "phase", "deals", "rules", "end", "pace", "seats", "score_sheet", "totals", "summary",
    "waiting", "standings", "winner_text", "deal", "dealer", "game", "game_name", "trump",
    "turn", "talon", "trick", "last_trick",
)  # fmt: skip


def spectator_state(states: Sequence[JSON], lang: str) -> JSON:
    """The table as someone watching it sees it, from the three seats' own states
    (:func:`seat_state`): of the parts that are not a seat's own (its hand, decision,
    exchanges, discard), only what all three states agree on, since what every seat is
    shown is no seat's secret; the rest is null. Seen from seat 0's side, with
    ``spectator: true``, no hand and no decision."""
    state: JSON = {"type": "state", "seat": 0, "spectator": True, "ready": True}
    for key in _PUBLIC:
        values = [s.get(key) for s in states]
        state[key] = values[0] if all(v == values[0] for v in values) else None
    if state["phase"] is None:  # "return" for the seat a trump came to: an exchange
        state["phase"] = "exchange"
    state.update(hand=[], decision=None, games=[], first_six=False, exchanges=[])
    names = [row["name"] for row in state["seats"] or []]
    if state["phase"] == "finished":
        state["status"] = t("web.finished", lang)
    elif state["phase"] == "summary":
        waiting = [names[s] for s in state["waiting"] or [] if s < len(names)]
        state["status"] = t("web.waiting", lang, name=", ".join(waiting)) if waiting else ""
    elif state["turn"] is not None and state["turn"] < len(names):
        state["status"] = t("web.waiting", lang, name=names[state["turn"]])
    else:
        state["status"] = t("web.exchange", lang) + "..."
    return state


def welcome_message(seat: int, lang: str, links: Sequence[JSON] = ()) -> JSON:
    """The first message of a connection (``type: welcome``): the seat, the language and
    the texts of the page in it, and for the seat that opened the table the links of the
    other human seats."""
    table = MESSAGES[lang]
    texts = {k: v for k, v in table.items() if k.startswith(_PAGE_TEXTS)}
    # The ranks as the language writes them, by the engine's letter (T: 10, Q: D in Polish).
    ranks = dict(zip("23456789TJQKA", RANK_LETTERS[lang]))
    return {
        "type": "welcome",
        "seat": seat,
        "lang": lang,
        "texts": texts,
        "ranks": ranks,
        "links": list(links),
    }


def error_message(message: str) -> JSON:
    """A refused message (``type: error``); the connection stays open."""
    return {"type": "error", "message": message}


def _answer(answer: Answer, lang: str) -> JSON:
    if isinstance(answer, Card):
        return {"card": str(answer)}
    if isinstance(answer, Contract):
        return {"game": answer.label, "name": game_name(answer, lang)}
    if isinstance(answer, CardSet):
        return {"cards": _cards(answer.descending())}
    return {"stop": True}


def advice_message(deal: int, advice: Advice[Answer], lang: str) -> JSON:
    """A hint (``type: hint``): the options best first with their expected deal scores (None
    where nothing was valued), the title and what the scores rest on."""
    return {
        "type": "hint",
        "deal": deal,
        "kind": advice.kind.value,
        "basis": advice.basis.value,
        "title": Translator(lang).advice_title(advice),
        "note": Translator(lang).advice_note(advice),
        "options": [
            {**_answer(answer, lang), "score": score, "best": marked}
            for (answer, score), marked in zip(advice.options, advice.best_marks)
        ],
    }


def review_message(review: DealReview, seat: int, names: Sequence[str], lang: str) -> JSON:
    """The after-deal analysis for ``seat`` (``type: review``): for the chart, each analysed
    trick's double-dummy score of every seat before its card and what the card cost; the
    costs in all; and this seat's costly cards with the better ones (cards of its own hand,
    all played by the end of the deal, like every card of the review)."""
    by_trick: dict[int, dict[int, Any]] = {}
    for r in review.reviews:
        by_trick.setdefault(r.trick, {})[r.seat] = r
    lost = review.lost()
    listed = ", ".join(f"{names[s]} {v}" for s, v in enumerate(lost))
    if review.complete:
        summary = t("analysis.lost", lang, list=listed)
    else:
        summary = t("analysis.lost_part", lang, first=review.first_trick, list=listed)
    mistakes = [r for r in review.mistakes() if r.seat == seat]
    return {
        "type": "review",
        "deal": review.number,
        "title": t("analysis.title", lang),
        "complete": review.complete,
        "first_trick": review.first_trick,
        "partial": ""
        if review.complete
        else t("analysis.partial", lang, number=review.first_trick),
        "chart": [
            {
                "trick": number,
                "scores": [plays[s].best_score for s in range(3)],
                "costs": [plays[s].lost for s in range(3)],
            }
            for number, plays in sorted(by_trick.items())
        ],
        "result": list(review.scores),
        "lost": list(lost),
        "summary": summary if review.reviews else t("analysis.none", lang),
        "mistakes": [
            {
                "trick": r.trick,
                "card": str(r.card),
                "score": r.score,
                "best": _cards(r.best),
                "best_score": r.best_score,
                "text": t(
                    "analysis.alt",
                    lang,
                    number=r.trick,
                    card=card_text(r.card, True, lang),
                    score=f"{r.score:+d}",
                    best=" ".join(card_text(c, True, lang) for c in r.best),
                    best_score=f"{r.best_score:+d}",
                ),
            }
            for r in mistakes
        ],
        "all_best": t("analysis.all_best", lang) if not mistakes and review.reviews else "",
    }
