"""Reading what ts358 is given, so that no input file can crash it: files read up to a size
cap, JSON and TOML parsed with their nesting and numbers checked, and values quoted short in
error messages.

The file formats (positions, match records, saves, the JSON lines of ``ts358 analyze``) keep
their own error types; their readers call these helpers and word what they raise:
:class:`InputError` for the checks made here, OSError, UnicodeDecodeError and the parsers'
own syntax errors as before.
"""

from __future__ import annotations

import json
import math
import re
import reprlib
import sys
from collections.abc import Callable, Iterator
from os import PathLike
from typing import Any, BinaryIO, TypeVar

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = [
    "MAX_INPUT_BYTES",
    "QUOTE_CHARS",
    "InputError",
    "TOMLDecodeError",
    "number",
    "parse_json",
    "parse_toml",
    "quote",
    "read_input",
    "read_lines",
]

MAX_INPUT_BYTES = 2**20
"""The most ts358 reads of one input: a file, or one line of a JSON-lines file. The largest
files it writes are far smaller (an 18-deal match record is about 30 kB), and the cap keeps a
huge file or ``/dev/zero`` from being read until the memory runs out."""

QUOTE_CHARS = 60
"""The longest a value quoted in an error message gets (:func:`quote`)."""

TOMLDecodeError = tomllib.TOMLDecodeError
"""What :func:`parse_toml` raises for text that is not TOML (on every Python version)."""

_TOO_LARGE = f"{MAX_INPUT_BYTES // 2**20} MB"


class InputError(ValueError):
    """An input refused by the checks here: too large, nested too deeply, a number too long.
    The message says which, without naming the file (the reader does)."""


class _Short(reprlib.Repr):
    def repr_int(self, x: int, level: int) -> str:
        # Not converted to decimal at all: str() refuses an int of more than 4300 digits
        # (sys.set_int_max_str_digits), which TOML's hex, octal and binary numbers can give.
        if x.bit_length() > 4 * QUOTE_CHARS:
            return f"<a number of {x.bit_length()} bits>"
        return super().repr_int(x, level)


# reprlib bounds the work as well as the text: a long string is cut before its repr is made,
# and a nested list is shown only a few levels deep, however deep it goes.
_SHORT = _Short()
_SHORT.maxstring = _SHORT.maxlong = _SHORT.maxother = QUOTE_CHARS
_SHORT.maxlevel = 3


def quote(value: object) -> str:
    """``value`` as an error message quotes it: its repr, cut to at most :data:`QUOTE_CHARS`
    characters (``'xxxxxxx...xxxxxxx'``), so that a huge value can't flood the message.

    >>> quote("hearts"), quote([[[[[1]]]]]), quote("x" * 10**6)[:8], len(quote("x" * 10**6))
    ("'hearts'", '[[[[...]]]]', "'xxxxxxx", 60)
    """
    text = _SHORT.repr(value)
    return text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 3] + "..."


def number(
    value: object,
    low: float,
    high: float,
    *,
    whole: bool = False,
    unit: str = "",
    given: str | None = None,
) -> float:
    """``value`` checked as a number read from outside (a file, a form, a message): an int
    or a float (never a bool), finite, from ``low`` to ``high``; with ``whole``, an int.
    ``unit`` (``"seconds"``) is named in the refusal, which quotes ``given`` (the text the
    number was read from, when there was one) or else the value.
    The one check every such number passes before it is used: a huge int (JSON and TOML
    read any number of digits) is compared, never converted, so it can't overflow.

    Raises:
        InputError: saying what was expected and quoting what was given, for the caller to
            prefix with where it was read (``key 'pace' must be ...``).

    >>> number(2, 0, 5), number(0.5, 0, 5)
    (2, 0.5)
    >>> number(10**400, 0, 3600)
    Traceback (most recent call last):
    ...
    ts358._input.InputError: must be a number from 0 to 3600, not <a number of 1329 bits>
    >>> number(-1, 0, 1e6, unit="seconds")
    Traceback (most recent call last):
    ...
    ts358._input.InputError: must be a number of seconds from 0 to 1000000, not -1
    """
    kinds = (int,) if whole else (int, float)
    if (
        not isinstance(value, kinds)
        or isinstance(value, bool)
        or (isinstance(value, float) and not math.isfinite(value))
        or not low <= value <= high
    ):
        what = ("a whole number" if whole else "a number") + (f" of {unit}" if unit else "")
        shown = quote(value if given is None else given)
        raise InputError(f"must be {what} from {_plain(low)} to {_plain(high)}, not {shown}")
    return value


def _plain(bound: float) -> str:
    """A bound as people write it: 1000000, not 1e+06."""
    return str(int(bound)) if float(bound).is_integer() else f"{bound:g}"


def read_input(file: str | PathLike[str] | BinaryIO) -> str:
    """The text of an input file, given by its path or as a binary stream (standard input):
    UTF-8, with a byte-order mark at the start dropped (editors on Windows write one).

    Raises:
        InputError: the input is larger than :data:`MAX_INPUT_BYTES`.
        OSError: the file can't be read.
        UnicodeDecodeError: it is not UTF-8.
    """
    if isinstance(file, (str, PathLike)):
        with open(file, "rb") as stream:
            return read_input(stream)
    data = file.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"larger than {_TOO_LARGE}, the most ts358 reads of a file")
    return data.decode("utf-8-sig")


def read_lines(stream: BinaryIO) -> Iterator[str]:
    """The lines of a binary stream as UTF-8 text. The stream is not capped as a whole (the
    JSON lines of a long ``ts358 analyze`` run may be many megabytes), each line is.

    Raises:
        InputError: a line is longer than :data:`MAX_INPUT_BYTES` (the message gives its number).
        UnicodeDecodeError: a line is not UTF-8.
    """
    number = 0
    while line := stream.readline(MAX_INPUT_BYTES + 1):
        number += 1
        if len(line) > MAX_INPUT_BYTES:
            raise InputError(
                f"line {number} is longer than {_TOO_LARGE}, the most ts358 reads of a line"
            )
        yield line.decode("utf-8-sig" if number == 1 else "utf-8")


_T = TypeVar("_T")


def _parse(loads: Callable[[str], _T], syntax_error: type[ValueError], text: str) -> _T:
    try:
        return loads(text)
    except RecursionError:  # the parsers recurse once per level of nesting
        raise InputError("nested too deeply") from None
    except syntax_error:
        raise
    except ValueError:
        # The parsers' only other error: int() refusing a number of more digits than
        # sys.get_int_max_str_digits() (4300 by default).
        raise InputError("a number with too many digits") from None


# The escape of a UTF-16 surrogate: half of a character only (text decoded from UTF-8 holds no
# surrogate itself, so this is the only way one gets in).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def parse_json(text: str) -> Any:
    """:func:`json.loads`; json.JSONDecodeError if ``text`` is not JSON, InputError if it is
    nested too deeply, has a number with too many digits to read or a string that is not
    text (an escaped lone surrogate, ``"\\ud800"``: TOML refuses those, JSON does not, and
    such a string can be neither written to a file nor printed)."""
    data = _parse(json.loads, json.JSONDecodeError, text)
    if _SURROGATE_ESCAPE.search(text):
        _check_text(data)
    return data


def _check_text(data: Any) -> None:
    pending = [data]  # a loop, not recursion: the JSON may be nested hundreds deep
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            pending += [*value, *value.values()]
        elif isinstance(value, list):
            pending += value
        elif isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise InputError(f"a string that is not text: {quote(value)}") from None


def parse_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads``; TOMLDecodeError if ``text`` is not TOML, InputError if it is
    nested too deeply or has a number with too many digits to read."""
    return _parse(tomllib.loads, TOMLDecodeError, text)
