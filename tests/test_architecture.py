"""The layering of docs/architecture.md: each module imports only its own layer and the
layers above it, so the package has no import cycles and each part can be read alone."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import ts358

PACKAGE = Path(ts358.__file__).parent

# Layer of each part: a module may import modules of its own part or of a lower layer, so
# two parts of one layer (the terminal and the browser: siblings) never import each other.
LAYERS = {
    "": 1,  # the engine, top-level modules
    "players": 2,
    "bots": 3,
    "batch": 4,
    "analysis": 5,
    "table": 6,  # the application layer: no front end
    "terminal": 7,
    "web": 7,
    "rl": 7,  # the reinforcement-learning environments: a front end for programs
    "online": 8,  # the online server: the browser's table with people, a lobby, a database
    "cli": 9,
}
# The compiled core is used by these parts only (docs/architecture.md, The core).
CORE_USERS = ("tricks", "players", "analysis")


def part(module: str) -> str:
    """The part of docs/architecture.md a module (without the ``ts358.`` prefix) belongs to."""
    if module == "__main__":  # python -m ts358: the command line
        return "cli"
    head, _, rest = module.partition(".")
    return head if rest or head in LAYERS else ""


def modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).with_suffix("")
        name = ".".join(p for p in rel.parts if p != "__init__")
        out.append((name, path))
    return out


def imports(path: Path) -> list[str]:
    """The ts358 modules a file imports (``from ts358 import x`` gives ``x``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "ts358":
                found += [alias.name for alias in node.names]
            elif node.module.startswith("ts358."):
                found.append(node.module.removeprefix("ts358."))
        elif isinstance(node, ast.Import):
            found += [
                a.name.removeprefix("ts358.") for a in node.names if a.name.startswith("ts358.")
            ]
        assert not (isinstance(node, ast.ImportFrom) and node.level), f"{path}: relative import"
    return found


def allowed(module: str, target: str) -> bool:
    """Whether ``module`` may import ``target``: its own part, or a lower layer."""
    return part(target) == part(module) or LAYERS[part(target)] < LAYERS[part(module)]


ALL = modules()


def test_every_module_is_in_a_layer():
    assert len(ALL) > 30
    for name, _ in ALL:
        assert part(name) in LAYERS, name


@pytest.mark.parametrize("name, path", ALL, ids=[n or "ts358" for n, _ in ALL])
def test_imports_follow_the_layers(name, path):
    if name == "":
        return  # the package's __init__: the public API gathered from every layer
    mine = LAYERS[part(name)]
    for target in imports(path):
        if target == "_core358":
            assert name.startswith(CORE_USERS), f"{name} uses the core directly"
            continue
        assert target in {n for n, _ in ALL}, f"{name} imports ts358.{target}: no such module"
        assert target != "", f"{name} imports the package facade (import the module instead)"
        theirs = LAYERS[part(target)]
        assert allowed(name, target), (
            f"{name} ({part(name) or 'engine'}, layer {mine}) imports ts358.{target} "
            f"({part(target) or 'engine'}, layer {theirs})"
        )


def test_the_rule_can_fail():
    # A players module importing the table would break the layering; so would the browser
    # importing the terminal, its sibling.
    assert not allowed("players.sampling", "table.table")
    assert not allowed("web.table", "terminal.play")
    assert not allowed("terminal.play", "web.messages")
    assert allowed("web.table", "table.table") and allowed("terminal.play", "terminal.render")
    assert allowed("deal", "cards") and allowed("analysis.solve", "batch.pool")
    assert part("cards") == "" and part("batch.arena") == "batch" and part("cli.app") == "cli"
