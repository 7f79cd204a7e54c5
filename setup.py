"""Builds the Cython core ``ts358._core358``; all other metadata lives in pyproject.toml.

Set ``TS358_DEBUG=1`` for a debug build: bounds and wraparound checks on, no optimisation.
"""

import os

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

extension = Extension(
    "ts358._core358",
    ["src/_core358.pyx"],
    extra_compile_args=compile_args,
)

setup(ext_modules=cythonize([extension], compiler_directives=directives))
