"""The table on screen, drawn with Rich: the players (name, role, tricks, total, games
left), the game, the trick on the table, your hand (legal cards highlighted, the rest
dimmed, numbered for input), the score table, deal summaries and the after-deal analysis.

Colour is only an addition (Rich honours ``NO_COLOR``): legal cards are also the ones with
a number in brackets, dimmed ones have their number in parentheses. Cards are written with
suit symbols, or with letters when the terminal can't show them (:class:`CardStyle`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, JustifyMethod, RenderableType
from rich.table import Table
from rich.text import Text

from ts358.analysis.review import DealReview, PlayReview
from ts358.cards import Card, CardSet, Suit
from ts358.deal import Answer, DealResult
from ts358.players.advice import Advice, Basis
from ts358.rules import Contract, Rules, Talon
from ts358.table.history import MatchEntry, leaderboard, summarize_history
from ts358.table.texts import MESSAGES, Translator, suit_text
from ts358.view import DecisionKind, SeatView, Trick

__all__ = [
    "CardStyle",
    "render_advice",
    "render_games",
    "render_hand",
    "render_history",
    "render_review",
    "render_scores",
    "render_standings",
    "render_summary",
    "render_table",
    "render_trick",
    "talon_key",
]

_RED = (Suit.HEARTS, Suit.DIAMONDS)


class CardStyle:
    """How the table is written: cards with suit symbols (♠♥♦♣) or letters (S H D C), red
    suits in red, and the words in ``tr``'s language (English if none is given)."""

    def __init__(self, symbols: bool, tr: Translator | None = None) -> None:
        self.symbols = symbols
        self.tr = tr or Translator()

    def plain(self, card: Card) -> str:
        """The card as the language writes it (``10♥``, Polish ``D♠``): :meth:`Translator.card`."""
        return self.tr.card(card, self.symbols)

    def card(self, card: Card, style: str = "") -> Text:
        colour = "red" if card.suit in _RED else ""
        return Text(self.plain(card), style=f"{colour} {style}".strip())

    def cards(self, cards: Sequence[Card] | CardSet) -> Text:
        text = Text()
        for i, card in enumerate(cards):
            if i:
                text.append(" ")
            text.append_text(self.card(card))
        return text

    def suit(self, suit: Suit) -> Text:
        return Text(suit_text(suit, self.symbols), style="red" if suit in _RED else "")

    def text(self, message: str) -> str:
        """``message`` with suit symbols replaced by letters when symbols are off."""
        if self.symbols:
            return message
        return message.translate(str.maketrans("♠♥♦♣×", "SHDCx"))


def render_hand(
    hand: CardSet, legal: CardSet | None, style: CardStyle, numbered: bool = True
) -> Text:
    """One line per suit; each card with its number, ``[n]`` if legal (bold), ``(n)`` and
    dimmed if not. ``legal=None`` numbers every card as available; ``numbered=False``
    writes the cards alone (when the answer is not a card, so that no number misleads)."""
    text = Text()
    number = 0
    first = True
    for suit in Suit:
        cards = [c for c in hand.descending() if c.suit is suit]
        if not cards:
            continue
        if not first:
            text.append("\n")
        first = False
        text.append_text(style.suit(suit))
        text.append(" ")
        for card in cards:
            number += 1
            ok = legal is None or card in legal
            label = (f" [{number}]" if ok else f" ({number})") if numbered else " "
            text.append(label, style="" if ok else "dim")
            text.append_text(style.card(card, "bold" if ok else "dim"))
    return text


def _table(show_header: bool = True) -> Table:
    """A table without borders, two spaces after each column."""
    return Table(box=None, show_header=show_header, padding=(0, 2, 0, 0))


def _titled(title: str, table: Table) -> Group:
    """``table`` under ``title``: a line of its own, as wide as it needs (Rich wraps a
    table's own title to the table's width)."""
    return Group(Text(title, style="italic"), table)


def _games_short(games: frozenset[Contract], style: CardStyle) -> str:
    tr = style.tr
    if not games:
        return tr("table.none_left")
    return " ".join(tr.game_short(g, style.symbols) for g in sorted(games))


def render_players(view: SeatView, names: Sequence[str], style: CardStyle) -> Table:
    """One row per player, you first then clockwise, under a header: name, role, tricks,
    total, games left."""
    tr = style.tr
    table = _table()
    table.add_column(tr("col.player"))
    table.add_column(tr("col.role"))
    table.add_column(tr("col.tricks"), justify="right")
    table.add_column(tr("col.total"), justify="right")
    table.add_column(tr("table.games_left"))
    for k in range(3):
        seat = (view.seat + k) % 3
        role = view.role_of(seat)
        name = Text(names[seat], style="bold" if seat == view.seat else "")
        table.add_row(
            name,
            tr.role(role, view.rules),
            tr.tricks(view.taken[seat], role, view.game, view.rules),
            f"{view.totals[seat]:+d}",
            _games_short(view.games_left(seat), style),
        )
    return table


def render_trick(
    cards: Sequence[Card], leader: int, names: Sequence[str], style: CardStyle
) -> Text:
    """``Left 7♥ · Right 2♥``: the cards of a trick with who played them."""
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append("  ")
        text.append(f"{names[(leader + i) % 3]} ")
        text.append_text(style.card(card, "bold"))
    return text


def render_finished_trick(
    number: int,
    trick: Trick,
    names: Sequence[str],
    style: CardStyle,
    you: int,
    key: str = "ev.trick",
) -> Text:
    """The sentence ``key`` (``ev.trick``, or ``last.trick`` for the command ``last``) about
    a finished trick, ``Trick 3: Ben 7♥  Tom 2♥  You A♥  won by you.``: its second-person
    form (the key ``..._you``) when ``you``, the human's seat, took the trick."""
    tr = style.tr
    if trick.winner == you:
        key += "_you"
    sentence = tr(key, number=number, cards="\0", winner=names[trick.winner])
    head, _, tail = sentence.partition("\0")
    cards = render_trick(trick.cards, trick.leader, names, style)
    return Text(head).append_text(cards).append(tail)


def render_table(view: SeatView, names: Sequence[str], style: CardStyle) -> RenderableType:
    """The whole table as the human (``view.seat``) sees it, options highlighted."""
    tr = style.tr
    parts: list[RenderableType] = []
    head = Text(tr("table.deal", number=view.deal_number, total=view.rules.length), style="bold")
    head.append("  ·  ")
    if view.game is None:
        head.append(tr("table.no_game"))
    else:
        head.append(tr("table.game", game=tr.game(view.game)), style="bold")
        if view.game.trump is not None:
            head.append(" (")
            head.append_text(style.suit(view.game.trump))
            head.append(f" {tr('table.trump')})")
    parts.append(head)
    parts.append(render_players(view, names, style))
    if view.talon is not None and view.kind is DecisionKind.DISCARD:
        head = Text(tr(talon_key(view), cards=""))
        parts.append(head.append_text(style.cards(view.talon.descending())))
    if view.leader is not None:
        if view.trick:
            parts.append(
                Text(tr("table.on_table") + " ").append_text(
                    render_trick(view.trick, view.leader, names, style)
                )
            )
        else:  # the trick is the seat's own to lead
            parts.append(Text(tr("table.you_lead")))
    choosing = view.game is None and view.seat == view.chooser and view.rules.sees < 16
    title = tr("table.first_six") if choosing else tr("table.your_hand")
    parts.append(Text(title, style="bold"))
    legal = view.options if view.kind is not None and view.options else None
    # The game is answered by its name or its number in the list of games, not by a card.
    numbered = view.kind is not DecisionKind.CHOOSE
    parts.append(render_hand(view.hand, legal, style, numbered))
    return Group(*parts)


def render_games(view: SeatView, tr: Translator) -> Table:
    """The six games numbered 1-6; games this seat has used are marked and dimmed."""
    table = _table(show_header=False)
    table.add_column(justify="right")
    table.add_column()
    available = view.available[view.seat]
    for game in Contract:
        ok = game in available
        table.add_row(
            f"[{game.value + 1}]" if ok else f"({game.value + 1})",
            Text(tr.game(game), style="bold" if ok else "dim")
            if ok
            else Text(f"{tr.game(game)} ({tr('table.used')})", style="dim strike"),
        )
    return table


def _answer(answer: Answer, style: CardStyle) -> Text:
    tr = style.tr
    if isinstance(answer, Card):
        return style.card(answer, "bold")
    if isinstance(answer, Contract):
        return Text(tr.game(answer), style="bold")
    if isinstance(answer, CardSet):
        cards = style.cards(answer.descending())
        cards.stylize("bold")
        return cards
    return Text(tr("hint.stop"), style="bold")


def render_advice(advice: Advice[Answer], style: CardStyle) -> RenderableType:
    """A hint: the options best first with their expected deal scores and what the scores
    rest on, or the rule of thumb's choice and why nothing was valued. Scores are written as
    the language writes decimals (``-1,50`` in Polish and Czech)."""
    tr = style.tr
    if advice.basis in (Basis.FORCED, Basis.RULE_OF_THUMB):
        head = style.text(tr.advice_title(advice))
        return Text(head + " ").append_text(_answer(advice.best, style))
    parts: list[RenderableType] = [Text(style.text(tr.advice_title(advice)), style="bold")]
    if advice.kind is DecisionKind.GIVE:
        parts.append(Text(tr("hint.give_note"), style="dim"))
    parts.append(Text(tr.advice_note(advice), style="dim"))
    arrow = "←" if style.symbols else "<-"
    table = Table(box=None, show_header=False, padding=(0, 0, 0, 2))
    table.add_column()
    table.add_column(justify="right")
    table.add_column()
    # The best marked only where the scores tell it apart (Advice.best_marks): not ten
    # cards tied on the same bounds when no layout was solved.
    for (answer, score), marked in zip(advice.options, advice.best_marks):
        assert score is not None  # solved or rolled out: every option has a score
        mark = Text(f"{arrow} {tr('hint.best')}", style="green") if marked else ""
        table.add_row(_answer(answer, style), tr.decimal(score, signed=True), mark)
    parts.append(table)
    return Group(*parts)


def render_scores(
    results: Sequence[DealResult], names: Sequence[str], tr: Translator
) -> RenderableType:
    """The match score table: one row per finished deal, then the totals."""
    if not results:
        return Text(tr("score.none"))
    table = _table()
    table.add_column(tr("score.deal"), justify="right")
    table.add_column(tr("score.chooser"))
    table.add_column(tr("score.game"))
    for name in names:
        table.add_column(name, justify="right")
    totals = [0, 0, 0]
    for r in results:
        for s in range(3):
            totals[s] += r.scores[s]
        table.add_row(
            str(r.number), names[r.chooser], tr.game(r.game), *(f"{v:+d}" for v in r.scores)
        )
    table.add_row(
        "",
        "",
        Text(tr("score.total"), style="bold"),
        *(Text(f"{v:+d}", style="bold") for v in totals),
    )
    return _titled(tr("score.title"), table)


def talon_key(view: SeatView) -> str:
    """The text key of the talon's line: shown to all, or seen by this seat alone."""
    return "table.talon" if view.rules.talon is Talon.SHOWN else "table.talon_yours"


def render_summary(
    result: DealResult,
    totals: Sequence[int],
    names: Sequence[str],
    tr: Translator,
    rules: Rules | None = None,
) -> RenderableType:
    """After a deal: each player's role, tricks, score and new total (roles and targets as
    ``rules`` have them; None: the house rules)."""
    title = tr(
        "summary.title",
        number=result.number,
        game=tr.game(result.game),
        name=names[result.chooser],
    )
    table = _table()
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("col.player", "left"),
        ("col.role", "left"),
        ("col.tricks", "right"),
        ("col.score", "right"),
        ("col.total", "right"),
    )
    for key, justify in columns:
        table.add_column(tr(key), justify=justify)
    for seat in range(3):
        role = result.role_of(seat)
        table.add_row(
            names[seat],
            tr.role(role, rules),
            tr.tricks(result.taken[seat], role, result.game, rules),
            f"{result.scores[seat]:+d}",
            f"{totals[seat]:+d}",
        )
    return _titled(title, table)


def render_review(
    analysis: DealReview, names: Sequence[str], human: int | None, style: CardStyle
) -> RenderableType:
    """Each player's score before their card in each analysed trick, with what the card
    cost where it cost something; what each player's cards cost in all; and your costly
    cards with the better ones. Tricks in a row where nothing changed share a line."""
    tr = style.tr
    if analysis.first_trick > 16:
        return Text(tr("analysis.none"))
    parts: list[RenderableType] = [Text(tr("analysis.title"), style="bold")]
    if not analysis.complete:
        parts.append(Text(tr("analysis.partial", number=analysis.first_trick)))
    table = Table(box=None, padding=(0, 2, 0, 0))
    table.add_column(tr("analysis.trick"), justify="right")
    for name in names:
        table.add_column(name, justify="right")
    if analysis.cut is not None:  # the trick the deadline fell in: what was proven
        table.add_row(
            str(analysis.cut.number),
            *(
                Text(f"{lo:+d}" if lo == hi else f"{lo:+d}..{hi:+d}", style="dim")
                for lo, hi in analysis.cut.score_bounds
            ),
        )
    by_trick: dict[int, dict[int, PlayReview]] = {}
    for r in analysis.reviews:
        by_trick.setdefault(r.trick, {})[r.seat] = r
    # (first trick, last trick, scores, costs): a run of tricks with the same scores and
    # no cost shares a line; a trick with a cost has a line of its own.
    rows: list[tuple[int, int, tuple[int, ...], tuple[int, ...]]] = []
    for number in sorted(by_trick):
        plays = by_trick[number]
        scores = tuple(plays[s].best_score for s in range(3))
        costs = tuple(plays[s].lost for s in range(3))
        if rows and rows[-1][2] == scores and not any(costs) and not any(rows[-1][3]):
            rows[-1] = (rows[-1][0], number, scores, costs)
        else:
            rows.append((number, number, scores, costs))
    for first, last, scores, costs in rows:
        cells = []
        for score, cost in zip(scores, costs):
            # The cost in the cell itself: it reads without colour too.
            cells.append(
                Text(f"{score:+d} (-{cost})", style="red") if cost else Text(f"{score:+d}")
            )
        table.add_row(str(first) if first == last else f"{first}-{last}", *cells)
    table.add_row("=", *(f"{v:+d}" for v in analysis.scores))
    parts.append(table)
    lost = ", ".join(f"{names[s]} {v}" for s, v in enumerate(analysis.lost()))
    if analysis.complete:
        parts.append(Text(tr("analysis.lost", list=lost)))
    else:
        parts.append(Text(tr("analysis.lost_part", first=analysis.first_trick, list=lost)))
    if human is not None:
        mistakes = [r for r in analysis.mistakes() if r.seat == human]
        if not mistakes:
            parts.append(Text(tr("analysis.all_best")))
        for r in mistakes:
            parts.append(
                Text(
                    tr(
                        "analysis.alt",
                        number=r.trick,
                        card=style.plain(r.card),
                        score=f"{r.score:+d}",
                        best=" ".join(style.plain(c) for c in r.best),
                        best_score=f"{r.best_score:+d}",
                    )
                )
            )
    return Group(*parts)


def render_standings(
    totals: Sequence[int], places: Sequence[int], names: Sequence[str], tr: Translator
) -> RenderableType:
    table = _table(show_header=False)
    table.add_column(justify="right")
    table.add_column()
    table.add_column(justify="right")
    for seat in sorted(range(3), key=lambda s: (places[s], s)):
        table.add_row(f"{places[seat]}.", names[seat], f"{totals[seat]:+d}")
    return _titled(tr("match.final"), table)


def render_history(entries: Sequence[MatchEntry], tr: Translator, size: int = 10) -> RenderableType:
    """The statistics and the leaderboard of ``entries`` in the current language."""
    if not entries:
        return Text(tr("stats.none"))
    summary = summarize_history(entries)
    parts: list[RenderableType] = []
    table = _table()
    table.add_column(tr("stats.level"))
    for key in (
        "stats.played",
        "stats.won",
        "stats.win_rate",
        "stats.avg_total",
        "stats.best_total",
    ):
        table.add_column(tr(key), justify="right")
    for lv in summary.by_level:
        table.add_row(
            tr(f"level.{lv.level}") if f"level.{lv.level}" in MESSAGES["en"] else lv.level,
            str(lv.played),
            str(lv.won),
            f"{lv.won / lv.played:.0%}",
            tr.decimal(lv.average_total, signed=True),
            f"{lv.best_total:+d}",
        )
    table.add_row(
        Text("Σ", style="bold"),
        str(summary.played),
        str(summary.won),
        f"{summary.win_rate:.0%}",
        tr.decimal(summary.average_total, signed=True),
        f"{summary.best_total:+d}" if summary.best_total is not None else "-",
    )
    parts.append(_titled(tr("stats.title"), table))
    if summary.games:
        games = _table()
        games.add_column(tr("score.game"))
        games.add_column(tr("stats.chosen"), justify="right")
        games.add_column(tr("stats.made"), justify="right")
        for game in Contract:
            if game.label in summary.games:
                chosen, made = summary.games[game.label]
                games.add_row(tr.game(game), str(chosen), str(made))
        parts.append(Text(""))
        parts.append(_titled(tr("stats.chooser_games"), games))
    parts.append(Text(""))
    board = leaderboard(entries, size)
    if not board:
        parts.append(Text(tr("stats.no_wins")))
    else:
        top = _table()
        top.add_column(tr("stats.rank"), justify="right")
        top.add_column(tr("stats.result"), justify="right")
        top.add_column(tr("stats.date"))
        top.add_column(tr("stats.level"))
        top.add_column(tr("stats.deals"), justify="right")
        for rank, entry in enumerate(board, 1):
            top.add_row(
                f"{rank}.",
                str(entry.result),
                entry.finished[:16].replace("T", " "),
                tr(f"level.{entry.level}"),
                str(entry.deals),
            )
        parts.append(_titled(tr("stats.leaderboard"), top))
    return Group(*parts)
