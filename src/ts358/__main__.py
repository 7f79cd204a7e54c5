"""The ``ts358`` command's entry point, for ``python -m ts358`` and the console script.

Importing the command line (Typer, Rich, the engine, the compiled core) takes a few hundred
milliseconds. Ctrl-C then must end the command like everywhere else (a line, exit code 130),
not with a traceback of the import, so the handler is set before the imports: this module and
the package's ``__init__`` import nothing heavy (the package imports its API on first use).

Python raises the KeyboardInterrupt of a Ctrl-C in whatever code runs when the signal is
handled, and where that is a callback (the import system's module locks have weak-reference
callbacks) it only prints "Exception ignored" and goes on: the command would then run to the
end; where it is code that wraps the exceptions it meets (a class's ``__set_name__``), it
arrives as another exception. So during the imports the handler also notes the signal, and
the command stops if one came, whatever became of its exception.
"""

# signal's C module (no stubs), loaded with the interpreter: signal itself would import enum
import _signal  # type: ignore[import-not-found]
import sys


def run() -> None:
    """Run ``ts358`` with the command-line arguments (:func:`ts358.cli.main`)."""
    interrupted = False

    def on_interrupt(signum: int, frame: object) -> None:
        nonlocal interrupted
        interrupted = True
        raise KeyboardInterrupt

    try:  # a Ctrl-C from here on ends the command with 130
        previous = _signal.signal(_signal.SIGINT, on_interrupt)
        try:
            from ts358.cli import main
        except BaseException:
            if not interrupted:
                raise
            # The Ctrl-C's exception, which the code it interrupted may have wrapped in its
            # own (Python 3.11 raises RuntimeError from a class's __set_name__).
            raise KeyboardInterrupt from None
        finally:
            _signal.signal(_signal.SIGINT, previous)
        if interrupted:  # its exception was raised in a callback, which Python ignores
            raise KeyboardInterrupt
        main()
    except KeyboardInterrupt:  # main handles its own; this one came during the imports
        print("\nts358: interrupted", file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    run()
