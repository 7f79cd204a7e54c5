"""A request of a person that the online server refuses, said in that person's language.

The lobby's refusals that a person can meet through the page (a seat taken, a wrong
password, too many tries) come from the message catalogue (``online.*`` keys of
:mod:`ts358.table.texts`): ``str()`` of one is English, for logs and programs, and
:meth:`RequestError.say` writes it in the language the page asked in. Refusals only a
program can provoke (a malformed request) stay English text. (Not :mod:`ts358.refusal`,
the engine's reasons for refusing a decision.)
"""

from __future__ import annotations

from typing import TypeVar

from ts358.table.texts import t

__all__ = ["RequestError"]

_R = TypeVar("_R", bound="RequestError")


class RequestError(ValueError):
    """A request that can't be done, in one line.

    >>> RequestError("not JSON").say("pl")
    'not JSON'
    >>> taken = RequestError.of("online.name_taken", name="'Ala'")
    >>> str(taken), taken.say("cs")
    ("the name 'Ala' is taken", "jméno 'Ala' už má někdo jiný")
    """

    def __init__(self, message: str, /) -> None:
        super().__init__(message)
        self.key: str | None = None
        self.params: dict[str, object] = {}

    @classmethod
    def of(cls: type[_R], key: str, /, **params: object) -> _R:
        """The catalogue's message ``key`` with ``params``, as this kind of refusal."""
        made = cls(t(key, "en", **params))
        made.key = key
        made.params = params
        return made

    def say(self, lang: str) -> str:
        """The refusal in ``lang`` (English where it is not the catalogue's)."""
        return str(self) if self.key is None else t(self.key, lang, **self.params)
