"""bench/ceiling.py hands a sampling player the real layout: it must be the layout the seat's
own constraints describe, or the ceiling it measures is of another game."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from ts358.batch.arena import make_board
from ts358.players import make_player
from ts358.players.layouts import constraints_of
from ts358.players.sampling import SamplingPlayer
from ts358.view import DecisionKind

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _ceiling() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location("ceiling", BENCH / "ceiling.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


def test_the_real_layout_fits_what_the_seat_knows_at_every_decision() -> None:
    ceiling = _ceiling()
    checked = dict.fromkeys(ceiling.KINDS, 0)
    for index in range(6):
        deal = make_board(31, index).deal()
        players = [make_player("medium", s) for s in range(3)]
        while (pending := deal.pending()) is not None:
            view = pending.view
            assert view.kind is not None
            if view.kind.value in checked:
                world = ceiling.real_world(deal, view)
                assert constraints_of(view).admits(world), (index, view.kind, len(view.tricks))
                checked[view.kind.value] += 1
            deal.apply_answer(players[pending.seat].decide(pending.view))
    assert all(checked.values()), checked


def test_a_sighted_seat_uses_the_real_layout_only_at_the_decisions_measured() -> None:
    ceiling = _ceiling()
    deal = make_board(32, 0).deal()
    players = [make_player("medium", s) for s in range(3)]
    views = {}
    while (pending := deal.pending()) is not None and pending.view.kind is not DecisionKind.PLAY:
        views[pending.view.kind] = pending.view
        deal.apply_answer(players[pending.seat].decide(pending.view))
    assert pending is not None
    player = make_player("hard", 5)
    assert isinstance(player, SamplingPlayer)
    sampled = player._worlds(pending.view, 4)
    seen = ceiling.sighted(player, deal)
    real = ceiling.real_world(deal, pending.view)
    assert seen._worlds(pending.view, 4) == [real]
    assert sampled != [real] * 4  # the seat's own samples are not the real layout

    class Asked:
        def __init__(self) -> None:
            self.views: list[object] = []

        def decide(self, view: object) -> object:
            self.views.append(view)
            return None

    sight, line = Asked(), Asked()
    split = ceiling.Split(sight, line, {"play"})
    split.decide(pending.view)
    choice = views[DecisionKind.CHOOSE]
    split.decide(choice)
    assert sight.views == [pending.view] and line.views == [choice]
