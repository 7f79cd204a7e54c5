"""A bot's process: started from a command line, spoken to by JSON lines on its stdin and
stdout, never waited on past a deadline, always reaped.

Its stdout is read by a thread into a bounded queue, a line at a time and at most
:data:`~ts358.bots.protocol.MAX_LINE_BYTES` a line, so that a bot that writes a line without
end, or floods lines, costs bounded memory and is told apart (:class:`BotFault`). Its stderr
is drained by another thread (the last lines kept, for the fault's detail), so that a bot
that writes much there never blocks. The bot runs in a session of its own: closing it
kills its whole process group, children included.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Sequence
from typing import IO, Any, Protocol

from ts358._input import quote
from ts358.bots.protocol import MAX_LINE_BYTES

__all__ = ["FAULT_KINDS", "MAX_QUEUED_LINES", "BotFault", "BotProcess", "Inbox", "Transport"]

MAX_QUEUED_LINES = 256
"""Lines a bot may write ahead of being read; more is a flood."""

FAULT_KINDS = ("no_start", "late", "malformed", "illegal", "oversized", "flood", "died")
"""What can go wrong with a bot: it did not start or answer the hello; it answered after
the time control; it wrote a line that is not a JSON object; its decision is not allowed;
it wrote a line longer than the limit; it wrote more lines than it was asked for; it
ended (or closed its stdout or stdin)."""

CLOSE_SECONDS = 1.0
"""How long a bot told ``bye`` has to exit before it is killed."""


class BotFault(Exception):
    """A fault of a bot: ``kind`` one of :data:`FAULT_KINDS`, ``detail`` one line."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class Inbox:
    """What a bot has sent and the seat has not read yet: its lines, at most
    :data:`MAX_QUEUED_LINES` (more is a flood), or the fault that ended them; after a fault
    nothing more is kept. Filled from one thread, read from another."""

    def __init__(self, unit: str = "lines") -> None:
        self._unit = unit
        self._items: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._count = 0
        self._ended = False
        self._lock = threading.Lock()

    def put(self, kind: str, value: Any) -> bool:
        """Keep a ``line`` (bytes) or a fault (``died``, ``oversized``: its detail); whether
        more may follow."""
        with self._lock:
            if self._ended:
                return False
            if kind == "line" and self._count >= MAX_QUEUED_LINES:
                kind, value = "flood", f"more than {MAX_QUEUED_LINES} {self._unit} not asked for"
            self._ended = kind != "line"
            self._count += 1
        self._items.put((kind, value))
        return not self._ended

    def get(self, deadline: float) -> tuple[str, Any]:
        """The oldest item, waiting until ``deadline`` at most (:class:`queue.Empty`)."""
        item = self._items.get(timeout=max(deadline - time.monotonic(), 0.0))
        with self._lock:
            self._count -= 1
        return item


class Transport(Protocol):
    """How a seat talks to its bot: a process (:class:`BotProcess`) or a connection
    (:class:`~ts358.bots.remote.RemoteBot`)."""

    def send(self, message: dict[str, Any]) -> None: ...
    def receive(self, deadline: float) -> bytes: ...
    def close(self) -> None: ...


class BotProcess:
    """The process of ``command`` (a command line, split as a POSIX shell would, or its
    words), started at once; BotFault("no_start") if it can't be."""

    def __init__(self, command: str | Sequence[str], *, cwd: str | None = None) -> None:
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.command = command if isinstance(command, str) else shlex.join(argv)
        if not argv:
            raise BotFault("no_start", "an empty command")
        try:
            self._process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                start_new_session=sys.platform != "win32",
            )
        except OSError as exc:
            raise BotFault(
                "no_start", f"can't run {quote(self.command)}: {exc.strerror or exc}"
            ) from None
        self._inbox = Inbox()
        self.stderr: collections.deque[str] = collections.deque(maxlen=20)
        assert self._process.stdout is not None and self._process.stderr is not None
        threading.Thread(target=self._read, args=(self._process.stdout,), daemon=True).start()
        threading.Thread(target=self._drain, args=(self._process.stderr,), daemon=True).start()
        # Reaped even if the owner forgets to close it (or the interpreter exits first).
        self._finalizer = weakref.finalize(self, _kill, self._process)

    @property
    def pid(self) -> int:
        return self._process.pid

    def send(self, message: dict[str, Any]) -> None:
        """One message, as a line on the bot's stdin; BotFault("died") if it can't take it."""
        data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
        stdin = self._process.stdin
        try:
            assert stdin is not None
            stdin.write(data)
            stdin.flush()
        except (OSError, ValueError):
            raise BotFault("died", self._ended()) from None

    def receive(self, deadline: float) -> bytes:
        """The bot's next line (without its end), waiting until ``deadline`` (a
        :func:`time.monotonic` time) at most; BotFault if there is none by then, or the bot
        ended, flooded or wrote a line too long."""
        try:
            kind, value = self._inbox.get(deadline)
        except queue.Empty:
            raise BotFault("late", "no answer within the time control") from None
        if kind == "line":
            line: bytes = value
            return line
        if kind == "died":
            raise BotFault("died", self._ended())
        raise BotFault(kind, value)

    def close(self) -> None:
        """Tell the bot ``bye``, give it :data:`CLOSE_SECONDS` to exit, then kill its
        process group; always reaped. Again: nothing."""
        if self._process.poll() is None:
            with contextlib.suppress(BotFault):
                self.send({"type": "bye"})
            with contextlib.suppress(OSError, ValueError):
                assert self._process.stdin is not None
                self._process.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._process.wait(CLOSE_SECONDS)
        self._finalizer()

    def _ended(self) -> str:
        code = self._process.poll()
        said = f"; it said: {self.stderr[-1]}" if self.stderr else ""
        if code is None:
            return f"the bot closed its input or output{said}"
        return f"the bot ended with exit code {code}{said}"

    def _read(self, stream: IO[bytes]) -> None:
        while True:
            line = stream.readline(MAX_LINE_BYTES + 1)
            if not line:
                self._inbox.put("died", None)
                return
            if len(line) > MAX_LINE_BYTES:
                self._inbox.put("oversized", f"a line of more than {MAX_LINE_BYTES} bytes")
                return
            if line.strip() and not self._inbox.put("line", line.rstrip(b"\r\n")):
                return

    def _drain(self, stream: IO[bytes]) -> None:
        for line in iter(stream.readline, b""):
            self.stderr.append(line.decode("utf-8", "replace").rstrip()[:200])


def _kill(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        with contextlib.suppress(OSError):
            if sys.platform == "win32":
                process.kill()
            else:
                os.killpg(process.pid, signal.SIGKILL)
    else:
        # Its children (the bot's own session) may outlive it: they go too.
        with contextlib.suppress(OSError):
            if sys.platform != "win32":
                os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(5)
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
