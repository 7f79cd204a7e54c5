"""The README's Python tour is run as a doctest, and its two opening commands stay true."""

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
CI_RUN = Path(__file__).resolve().parent.parent / ".ci" / "run"


def test_readme_python_tour_runs():
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```pycon\n(.*?)```", text, flags=re.S)
    assert blocks, "the README has no pycon tour"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    globs: dict = {}
    for number, block in enumerate(blocks):
        test = parser.get_doctest(block, globs, f"README block {number}", str(README), 0)
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0
    assert result.failed == 0


def test_readme_test_command_is_what_ci_runs():
    readme = README.read_text(encoding="utf-8")
    command = re.search(r"# The README's test command.*\n(.+)\n", CI_RUN.read_text()).group(1)
    assert command.strip() in readme


def test_readme_position_example_is_a_valid_position():
    from ts358.analysis.solve import solve
    from ts358.position import Position

    text = re.search(r"```toml\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S).group(1)
    position = Position.from_toml(text, source="README.md")
    result = solve(position)
    assert len(result.players) == 3 and result.moves
