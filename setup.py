"""Builds the Cython core ``ts358._core358``; all other metadata lives in pyproject.toml.

Set ``TS358_DEBUG=1`` for a debug build: bounds and wraparound checks on, no optimisation.
On x86-64 Linux the core uses the POPCNT instruction (the solver counts bits at every node:
10% of its time without it); set ``TS358_PORTABLE=1`` to build for CPUs without it (before
about 2008). A build machine without it is detected.
"""

import os
import platform
import sys

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("TS358_DEBUG", "") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
}

if os.name == "nt":
    compile_args = ["/Od"] if DEBUG else ["/O2"]
else:
    compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]


def _wants_popcnt() -> bool:
    # Linux only: MSVC builds use the instruction through an intrinsic anyway, and macOS
    # x86-64 is left portable (the load-time CPU check has been built and run only with GCC
    # on Linux).
    if not sys.platform.startswith("linux") or platform.machine() != "x86_64":
        return False
    if os.environ.get("TS358_PORTABLE", "") not in ("", "0"):
        return False
    try:
        with open("/proc/cpuinfo") as f:
            return "popcnt" in f.read()
    except OSError:
        return True


if _wants_popcnt():
    compile_args.append("-mpopcnt")

extension = Extension(
    "ts358._core358",
    ["src/_core358.pyx"],
    extra_compile_args=compile_args,
)

setup(ext_modules=cythonize([extension], compiler_directives=directives))
