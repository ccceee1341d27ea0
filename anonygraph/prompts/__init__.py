"""Prompt templates, one module per role, in our own words."""
