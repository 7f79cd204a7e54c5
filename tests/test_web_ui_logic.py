"""The page's logic (src/ts358/web/static/ui.js) checked by Node's test runner
(tests/js/ui.test.mjs): where seats sit, how cards are written, the hand's fan, taps."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

TESTS = Path(__file__).parent / "js"


def test_the_page_logic_passes_its_unit_tests():
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is needed for the page's unit tests (.ci/run installs it)")
        pytest.skip("node is not installed")
    done = subprocess.run([node, "--test", str(TESTS)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# fail 0" in done.stdout and "# pass " in done.stdout
