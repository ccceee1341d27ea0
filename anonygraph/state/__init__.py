"""Shared domain types, answer schemas, the iterative base state, per-method state."""
