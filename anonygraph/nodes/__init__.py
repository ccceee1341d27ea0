"""Graph steps: one function per step."""
