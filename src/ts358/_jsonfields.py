"""Typed fields of parsed JSON (saved matches, match records), with errors that name the key.

Each reader takes the error class to raise and a ``where`` prefix (``"deal 3: trick 5"``, or
``""`` for the top level), so a file format keeps its own error type and its messages read
``where: key 'x' ...``.
"""

from __future__ import annotations

from typing import Any, TypeVar

from ts358._input import quote
from ts358.rules import Rules, check_match_length

__all__ = ["field", "rules_field"]

T = TypeVar("T")


def _at(where: str) -> str:
    return f"{where}: " if where else ""


def field(obj: Any, key: str, kind: type[T], where: str, error: type[ValueError]) -> T:
    """``obj[key]``, checked to be a ``kind`` (a bool is never taken for a number)."""
    if not isinstance(obj, dict):
        raise error(f"{_at(where)}expected an object")
    if key not in obj:
        raise error(f"{_at(where)}key {key!r} is missing")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise error(f"{_at(where)}key {key!r} has the wrong type ({quote(value)})")
    return value


def rules_field(data: Any, where: str, error: type[ValueError]) -> Rules:
    """The rules of a save or record: its ``rules`` object (:meth:`Rules.to_json`) and its
    ``length``."""
    raw = field(data, "rules", dict, where, error)
    length = field(data, "length", int, where, error)
    try:
        check_match_length(length)
    except ValueError as exc:
        raise error(f"{_at(where)}key 'length': {exc}") from None
    try:
        return Rules.from_json(raw, length)
    except ValueError as exc:
        raise error(f"{_at(where)}rules: {exc}") from None
