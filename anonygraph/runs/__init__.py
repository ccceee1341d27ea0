"""Running graphs over records: input formats, tracing (the run layer moves here).

`ray_engine` spreads a run's records over a Ray cluster (imported only when
asked for: Ray is an optional extra).
"""
