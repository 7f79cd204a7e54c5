"""Real PostgreSQL and Redis servers for the tests, from Debian's packages.

Fixtures (a pytest plugin: ``pytest_plugins = ["services"]`` in tests/conftest.py):

- ``postgres_server`` (session): a throwaway PostgreSQL cluster (:class:`PostgresServer`).
- ``postgres_url`` (session): ``postgresql+psycopg://postgres@127.0.0.1:PORT/ts358``, a
  database on that cluster shared by the whole session.
- ``postgres_db`` (function): the URL of a new, empty database for one test, dropped after it.
- ``redis_url`` (session): ``redis://127.0.0.1:PORT/0`` of a redis-server without persistence.
- ``redis_clean_url`` (function): the same server, emptied (FLUSHALL) before the test.

Plain functions for more: :func:`start_postgres`, :func:`fresh_postgres_database`,
:func:`drop_postgres_database`, :func:`start_redis` (a second, independent server).

The binaries come from Debian's ``postgresql`` (the newest /usr/lib/postgresql/*/bin) and
``redis-server`` packages. Without them, or without the psycopg and redis Python packages,
the tests that ask for these fixtures are skipped, unless the environment variable ``CI`` is
set: then they fail, since CI (.ci/run) installs them.

PostgreSQL refuses to run as root: under root the cluster runs as the ``postgres`` system
user (``nobody`` without it), in a temporary directory given to that user. Every server runs
in its own session (process group) and is killed with its group on teardown; on Linux it
also gets SIGKILL if the process that started it dies (``setpriv --pdeathsig``).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

READY_TIMEOUT = 30.0  # seconds for a server to accept connections
STOP_TIMEOUT = 10.0  # seconds for a clean shutdown before SIGKILL
PG_SUPERUSER = "postgres"
PG_DATABASE = "ts358"
_PORT_TRIES = 5  # a free port can be taken between choosing it and the server binding it


class ServiceError(RuntimeError):
    """A server did not start (the message ends with the tail of its log)."""


# --- skip, or fail under CI ---------------------------------------------------------------


def in_ci() -> bool:
    """Whether ``CI`` is set to a true value (CI=1, CI=true, ...)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no", "off")


def unavailable(reason: str) -> None:
    """Skip the test for want of ``reason``; fail it instead under CI."""
    if in_ci():
        pytest.fail(f"{reason} (CI is set: CI must install it, see .ci/run)", pytrace=False)
    pytest.skip(reason)


def postgres_bindir() -> Path | None:
    """The newest /usr/lib/postgresql/VERSION/bin with initdb and postgres, else PATH's."""
    found = []
    for initdb in glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        bindir = Path(initdb).parent
        version = bindir.parent.name
        if (bindir / "postgres").is_file():
            found.append((tuple(int(n) for n in re.findall(r"\d+", version)), bindir))
    if found:
        return max(found)[1]
    initdb_path = shutil.which("initdb")
    if initdb_path and shutil.which("postgres", path=str(Path(initdb_path).parent)):
        return Path(initdb_path).parent
    return None


def _require_postgres(bindir: Path | None = None) -> Path:
    bindir = bindir or postgres_bindir()
    if bindir is None:
        unavailable(
            "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): "
            "apt-get install postgresql"
        )
        raise AssertionError("unreachable")  # pragma: no cover
    try:
        import psycopg  # noqa: F401
    except ImportError:
        unavailable('psycopg is not installed: pip install "psycopg[binary]>=3.1"')
    try:
        import sqlalchemy  # noqa: F401
    except ImportError:
        unavailable('SQLAlchemy is not installed: pip install "sqlalchemy>=2"')
    return bindir


def _require_redis() -> str:
    binary = shutil.which("redis-server") or (
        "/usr/bin/redis-server" if os.access("/usr/bin/redis-server", os.X_OK) else None
    )
    if binary is None:
        unavailable("redis-server is not installed: apt-get install redis-server")
        raise AssertionError("unreachable")  # pragma: no cover
    try:
        import redis  # noqa: F401
    except ImportError:
        unavailable('redis-py is not installed: pip install "redis>=5"')
    return binary


# --- processes ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _RunAs:
    """Who a server runs as: ``None`` ids for the current user."""

    name: str
    uid: int | None = None
    gid: int | None = None


def _unprivileged_user() -> _RunAs:
    """The current user, or under root the ``postgres`` system user (``nobody``)."""
    if os.geteuid() != 0:
        return _RunAs(pwd.getpwuid(os.geteuid()).pw_name)
    for name in ("postgres", "nobody"):
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        return _RunAs(name, entry.pw_uid, entry.pw_gid)
    raise ServiceError("running as root, and no 'postgres' or 'nobody' user to run PostgreSQL")


def _world_traversable(path: Path) -> bool:
    return all(p.stat().st_mode & stat.S_IXOTH for p in [path, *path.parents])


def _make_tempdir(prefix: str, owner: _RunAs) -> Path:
    """A new directory, owned by ``owner``, which that user can reach."""
    base = Path(tempfile.gettempdir())
    if owner.uid is not None and not _world_traversable(base):
        base = Path("/tmp")
    path = Path(tempfile.mkdtemp(prefix=prefix, dir=base))
    if owner.uid is not None:
        os.chown(path, owner.uid, owner.gid if owner.gid is not None else -1)
    return path


def _child_env() -> dict[str, str]:
    """The environment without PG* variables (PGDATA, PGPORT, ... would redirect a server)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    env["LC_ALL"] = "C"
    return env


def _command(argv: list[str]) -> list[str]:
    # SIGKILL when the test process dies without its teardown; setpriv runs after Popen has
    # dropped privileges, so the kernel keeps the setting, and it execs (the pid stays).
    setpriv = shutil.which("setpriv")
    return [setpriv, "--pdeathsig", "KILL", "--", *argv] if setpriv else argv


def _popen(argv: list[str], log: Path, cwd: Path, run_as: _RunAs) -> subprocess.Popen[bytes]:
    with open(log, "ab") as out:
        return subprocess.Popen(
            _command(argv),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=cwd,
            env=_child_env(),
            start_new_session=True,  # its own process group, killed as one
            user=run_as.uid,
            group=run_as.gid,
            extra_groups=[] if run_as.uid is not None else None,
        )


def _children(pid: int) -> dict[int, str]:
    """``pid``'s live descendants (Linux /proc), each with its start time (against reuse)."""
    by_parent: dict[int, list[tuple[int, str]]] = {}
    for entry in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        child = int(entry.split("/")[2])
        by_parent.setdefault(int(fields[1]), []).append((child, fields[19]))
    found: dict[int, str] = {}
    todo = [pid]
    while todo:
        for child, started in by_parent.get(todo.pop(), []):
            if child not in found:
                found[child] = started
                todo.append(child)
    return found


def _start_time(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def _kill_group(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    """Stop ``proc`` with ``sig``, then SIGKILL whatever is left of it: its process group
    and its descendants (PostgreSQL's backends each start a session of their own)."""
    children = _children(proc.pid) if proc.poll() is None else {}
    with contextlib.suppress(ProcessLookupError):
        if proc.poll() is None:
            os.kill(proc.pid, sig)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(STOP_TIMEOUT)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    for child, started in children.items():
        if _start_time(child) == started:  # still that process, not a new one with its pid
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(child, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(STOP_TIMEOUT)


def _log_tail(log: Path, lines: int = 30) -> str:
    try:
        text = log.read_text(errors="replace")
    except OSError as exc:
        return f"(no log: {exc})"
    return "\n".join(text.splitlines()[-lines:]) or "(empty log)"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_ready(
    name: str, proc: subprocess.Popen[bytes], log: Path, ready: Callable[[], bool]
) -> None:
    """Poll ``ready`` until it holds; raise with the log's tail if the server exits first."""
    deadline = time.monotonic() + READY_TIMEOUT
    while True:
        if proc.poll() is not None:
            raise ServiceError(
                f"{name} exited with status {proc.returncode} before accepting connections;"
                f" the end of its log:\n{_log_tail(log)}"
            )
        if ready():
            return
        if time.monotonic() > deadline:
            raise ServiceError(
                f"{name} did not accept connections within {READY_TIMEOUT:.0f} s;"
                f" the end of its log:\n{_log_tail(log)}"
            )
        time.sleep(0.05)


def _port_taken(log: Path) -> bool:
    return "already in use" in _log_tail(log, 50).lower()


# --- PostgreSQL ---------------------------------------------------------------------------


@dataclass
class PostgresServer:
    """A running throwaway cluster; :meth:`stop` kills it and removes its directory."""

    port: int
    directory: Path
    bindir: Path
    proc: subprocess.Popen[bytes]
    startup_seconds: float
    socket_dir: Path | None = None
    user: str = PG_SUPERUSER
    _stopped: bool = field(default=False, repr=False)

    def url(self, database: str = PG_DATABASE, driver: str = "postgresql+psycopg") -> str:
        """A SQLAlchemy URL (``driver="postgresql"`` for a libpq/psycopg one)."""
        return f"{driver}://{self.user}@127.0.0.1:{self.port}/{database}"

    @property
    def log(self) -> Path:
        return self.directory / "postgres.log"

    def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        try:
            _kill_group(self.proc, signal.SIGINT)  # SIGINT: PostgreSQL's fast shutdown
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)


def _pg_accepts(port: int) -> Callable[[], bool]:
    import psycopg

    def ready() -> bool:
        try:
            with psycopg.connect(
                host="127.0.0.1", port=port, user=PG_SUPERUSER, dbname="postgres", connect_timeout=2
            ):
                return True
        except psycopg.OperationalError:
            return False

    return ready


def start_postgres(bindir: Path | None = None) -> PostgresServer:
    """initdb a cluster in a temporary directory and start it on 127.0.0.1:a free port.

    Trust authentication, superuser ``postgres``, an empty database ``ts358``; fsync off (a
    test cluster needs no durability). Raises :class:`ServiceError` with the log's tail.
    """
    started = time.monotonic()
    bindir = _require_postgres(bindir)
    import psycopg

    run_as = _unprivileged_user()
    directory = _make_tempdir("ts358-pg-", run_as)
    log = directory / "postgres.log"
    data = directory / "data"
    # Sockets live in a short path (a socket's path is limited to 107 bytes).
    socket_dir = directory if len(str(directory)) < 80 else None
    try:
        initdb = subprocess.run(
            _command(
                [
                    str(bindir / "initdb"),
                    "--pgdata",
                    str(data),
                    "--username",
                    PG_SUPERUSER,
                    "--auth",
                    "trust",
                    "--encoding",
                    "UTF8",
                    "--locale",
                    "C",
                    "--no-sync",
                ]
            ),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=directory,
            env=_child_env(),
            user=run_as.uid,
            group=run_as.gid,
            extra_groups=[] if run_as.uid is not None else None,
            timeout=120,
            check=False,
        )
        if initdb.returncode != 0:
            raise ServiceError(
                f"initdb failed (status {initdb.returncode}, as user {run_as.name}):\n"
                + initdb.stdout.decode(errors="replace")[-3000:]
            )
        for _ in range(_PORT_TRIES):
            port = free_port()
            proc = _popen(
                [
                    str(bindir / "postgres"),
                    "-D",
                    str(data),
                    "-c",
                    "listen_addresses=127.0.0.1",
                    "-c",
                    f"port={port}",
                    "-c",
                    f"unix_socket_directories={socket_dir or ''}",
                    "-c",
                    "fsync=off",
                    "-c",
                    "synchronous_commit=off",
                    "-c",
                    "full_page_writes=off",
                    "-c",
                    "max_connections=200",
                ],
                log,
                directory,
                run_as,
            )
            try:
                _wait_ready("PostgreSQL", proc, log, _pg_accepts(port))
            except ServiceError:
                _kill_group(proc, signal.SIGINT)
                if _port_taken(log):
                    continue
                raise
            except BaseException:
                _kill_group(proc, signal.SIGINT)
                raise
            server = PostgresServer(port, directory, bindir, proc, 0.0, socket_dir)
            try:
                with psycopg.connect(server.url("postgres", "postgresql"), autocommit=True) as c:
                    c.execute(f'CREATE DATABASE "{PG_DATABASE}"')
            except BaseException:
                server.stop()
                raise
            server.startup_seconds = time.monotonic() - started
            return server
        raise ServiceError(
            f"PostgreSQL found no free port in {_PORT_TRIES} tries:\n{_log_tail(log)}"
        )
    except BaseException:
        shutil.rmtree(directory, ignore_errors=True)
        raise


def _split_url(url: str) -> tuple[str, str]:
    """``(URL of the maintenance database 'postgres' for psycopg, database name)``."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    admin = parsed.set(drivername="postgresql", database="postgres")
    return admin.render_as_string(hide_password=False), str(parsed.database)


def fresh_postgres_database(url: str) -> str:
    """Create an empty database ``t_<random>`` on ``url``'s server; its URL (same driver)."""
    import psycopg
    from sqlalchemy.engine import make_url

    admin, _ = _split_url(url)
    name = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return make_url(url).set(database=name).render_as_string(hide_password=False)


def drop_postgres_database(url: str) -> None:
    """Drop ``url``'s database, disconnecting whoever still uses it."""
    import psycopg

    admin, name = _split_url(url)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# --- Redis --------------------------------------------------------------------------------


def _redis_pings(port: int) -> Callable[[], bool]:
    def ready() -> bool:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(64).startswith(b"+PONG")
        except OSError:
            return False

    return ready


def start_redis() -> tuple[str, Callable[[], None]]:
    """Start a redis-server on 127.0.0.1:a free port without persistence, in a temporary
    directory; ``(url, stop)``, ``stop()`` killing it and removing the directory."""
    binary = _require_redis()
    directory = Path(tempfile.mkdtemp(prefix="ts358-redis-"))
    log = directory / "redis.log"
    try:
        for _ in range(_PORT_TRIES):
            port = free_port()
            proc = _popen(
                [
                    binary,
                    "--port",
                    str(port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    str(directory),
                    "--daemonize",
                    "no",
                    "--logfile",
                    "",
                ],
                log,
                directory,
                _RunAs("current"),
            )
            try:
                _wait_ready("redis-server", proc, log, _redis_pings(port))
            except ServiceError:
                _kill_group(proc)
                if _port_taken(log):
                    continue
                raise
            except BaseException:
                _kill_group(proc)
                raise
            break
        else:
            raise ServiceError(f"redis-server found no free port in {_PORT_TRIES} tries")
    except BaseException:
        shutil.rmtree(directory, ignore_errors=True)
        raise

    stopped = False

    def stop() -> None:
        nonlocal stopped
        if stopped:
            return
        stopped = True
        try:
            _kill_group(proc)
        finally:
            shutil.rmtree(directory, ignore_errors=True)

    return f"redis://127.0.0.1:{port}/0", stop


# --- fixtures -----------------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    server = start_postgres()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_url(postgres_server: PostgresServer) -> str:
    """``postgresql+psycopg://postgres@127.0.0.1:PORT/ts358``, shared by the session."""
    return postgres_server.url()


@pytest.fixture
def postgres_db(postgres_url: str) -> Iterator[str]:
    """The URL of a new, empty database for this test alone (dropped after it)."""
    url = fresh_postgres_database(postgres_url)
    try:
        yield url
    finally:
        drop_postgres_database(url)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """``redis://127.0.0.1:PORT/0`` of a redis-server shared by the session."""
    url, stop = start_redis()
    try:
        yield url
    finally:
        stop()


@pytest.fixture
def redis_clean_url(redis_url: str) -> str:
    """The session's redis-server, emptied (all its databases) before this test."""
    import redis

    with redis.Redis.from_url(redis_url) as client:
        client.flushall()
    return redis_url
