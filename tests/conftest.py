"""Shared test setup: keep it minimal (several test modules share it)."""

import sys
from pathlib import Path

# Helper modules living next to the tests (reference_solver, ...) import by plain name.
_TESTS = str(Path(__file__).resolve().parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

# Real PostgreSQL and Redis servers for the tests (tests/services.py), and the online
# server's database fixture (tests/online_helpers.py).
pytest_plugins = ["services", "online_helpers"]
