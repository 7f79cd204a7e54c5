"""Writing a finished match's record (docs/record.md) where a person asked for it: checked
before the match, so that a path that can't be written is said at once and not after the
last deal."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ts358.match import Match
from ts358.record import write_record
from ts358.table.saves import WriteError

__all__ = ["check_record", "write_match_record"]


@contextlib.contextmanager
def _record_errors(path: Path) -> Iterator[None]:
    try:
        yield
    except OSError as exc:
        raise WriteError(f"can't write the record {path}: {exc.strerror or exc}") from None


def check_record(path: Path) -> None:
    """WriteError (one line) if the record can't be written at ``path``. The file is
    opened for writing as :func:`write_match_record` will open it, without changing it (a
    file created for the check is removed)."""
    existed = os.path.lexists(path)
    with _record_errors(path):
        with open(path, "a", encoding="utf-8"):
            pass
        if not existed:
            path.unlink()


def write_match_record(
    path: Path, match: Match, faults: Sequence[dict[str, Any]] | None = None
) -> None:
    """Write the record of a finished match (with the faults of its bots); WriteError (one
    line) if it can't be written."""
    with _record_errors(path):
        write_record(path, match, faults or ())
