"""The run layer: batch runs over a store, resumable and shareable.

`ray_engine` spreads a run's records over a Ray cluster (imported only when
asked for: Ray is an optional extra).
"""
