"""Batch runs: a process pool or a Dask cluster (:mod:`~ts358.batch.pool`) and the
duplicate-deal arena of computer players (:mod:`~ts358.batch.arena`)."""
