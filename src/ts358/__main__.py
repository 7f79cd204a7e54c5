"""The ``ts358`` command's entry point, for ``python -m ts358`` and the console script.

Importing the command line (Typer, Rich, the engine, the compiled core) takes a few hundred
milliseconds. Ctrl-C then must end the command like everywhere else (a line, exit code 130),
not with a traceback of the import, so the handler is set before the imports: this module and
the package's ``__init__`` import nothing heavy (the package imports its API on first use).
"""

import sys


def run() -> None:
    """Run ``ts358`` with the command-line arguments (:func:`ts358.cli.main`)."""
    try:
        from ts358.cli import main

        main()
    except KeyboardInterrupt:  # main handles its own; this one came during the imports
        print("\nts358: interrupted", file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    run()
