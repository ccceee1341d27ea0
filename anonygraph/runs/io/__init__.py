"""Reading and writing records: JSONL, shared data formats, tables, output."""
