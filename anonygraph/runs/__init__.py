"""Batch runs: inputs, the run store, checkpoints, engines, tables in and out."""
