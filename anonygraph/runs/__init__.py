"""Batch runs: inputs, the run store, checkpoints, engines, tables in and out.

`ray_engine` spreads a run's records over a Ray cluster (imported only when
asked for: Ray is an optional extra).
"""
