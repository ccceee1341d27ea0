"""The papers anonygraph implements: their published figures, as package data."""

PAPERS: tuple[str, ...] = ("rlaa", "seal", "intentanony", "dp-embed", "aura")
"""The papers ``anonygraph reproduce`` takes, by name: the keys of
`anonygraph.reporting.reproduce.PLANS` and ``UNPLANNED`` (a test checks it),
listed here so that the command's ``--help`` imports no run or model layer."""
