"""Running graphs over records: input formats, tracing (the run layer moves here)."""
