"""Domain types and per-graph state schemas."""
