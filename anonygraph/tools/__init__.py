"""Deterministic helpers: search backends, PII scanner, DP mechanisms, metrics."""
