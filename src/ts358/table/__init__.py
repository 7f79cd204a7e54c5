"""The application layer, which knows no front end: a table (a match, its seats, its save as
it goes), the computer seats, saved matches and the history of finished ones, and the
texts in three languages (a :class:`~ts358.table.texts.Translator`, never a global). The
terminal (:mod:`ts358.terminal`) and the browser (:mod:`ts358.web`) are front ends over it."""
