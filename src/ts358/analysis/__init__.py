"""Double-dummy analysis: solving positions (:mod:`~ts358.analysis.solve`), the review of a
finished deal (:mod:`~ts358.analysis.review`) and statistics of random deals per game
(:mod:`~ts358.analysis.game_stats`). docs/architecture.md places it in the package."""
