"""Prompt templates, one module per method (adversary: shared steps); our own words."""
