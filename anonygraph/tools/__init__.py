"""Plain functions the steps apply; a method's own rules are in ``tools/<method>/``.

Shared here: spans, acceptance checks, review edits, search, matching, text
metrics and diff, MiniLM, the torch device. One method's: `tools.rlaa`,
`tools.intentanony`, `tools.aura`, `tools.seal`, `tools.dp_embed`.
"""
