"""The game at the terminal, callable from Python: the match loop with saves, hints and the
after-deal review (:mod:`~ts358.session.play`), the human seat, the table on screen, the
texts in three languages, saved matches and the history of finished ones."""
