"""The game at the terminal, callable from Python: the match loop with hints and the
after-deal review (:mod:`~ts358.terminal.play`), the seat typed at a prompt
(:mod:`~ts358.terminal.human`) and the table drawn with Rich (:mod:`~ts358.terminal.render`)."""
