"""The examples in the package's docstrings run as doctests, on the installed package (so
they run the same from a checkout, an editable install or a wheel)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import ts358

MODULES = [
    "ts358",
    *sorted(
        name
        for _, name, _ in pkgutil.walk_packages(ts358.__path__, "ts358.")
        if not name.endswith("__main__")
    ),
]

# Modules over an optional package that has no wheel for every platform: (module, package).
OPTIONAL = {"ts358.rl.openspiel": "pyspiel"}

# Modules whose docstrings must keep examples: the value types and the entry points a new
# user reads first.
WITH_EXAMPLES = {
    "ts358",
    "ts358.cards",
    "ts358.rules",
    "ts358.position",
    "ts358.deal",
    "ts358.seeds",
    "ts358.analysis.solve",
}


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    if name in OPTIONAL:
        pytest.importorskip(OPTIONAL[name])
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
    if name in WITH_EXAMPLES:
        assert result.attempted > 0, f"{name} lost its examples"


def test_every_module_is_found():
    assert set(MODULES) >= WITH_EXAMPLES
    assert "ts358.deal" in MODULES and "ts358.cli.app" in MODULES
