"""Handles: @name, u/name, $cashtag payment names, user names in logs."""

from __future__ import annotations

from anonygraph.identifiers.recognizers.base import CuedPatternRecognizer

NOT_HANDLES = frozenset(
    "admin root system null none anonymous guest unknown everyone here channel".split()
)
"""Names after @ or user= that name no person."""


class HandleRecognizer(CuedPatternRecognizer):
    """A social or payment handle, or a user name a log line records."""

    ENTITY = "HANDLE"
    PATTERNS = (
        (
            "at_handle",
            r"(?<![\w@.+-])(?P<v>@[A-Za-z0-9_](?:[A-Za-z0-9_.]*[A-Za-z0-9_])?)",
            0.8,
        ),
        ("reddit_user", r"(?<![\w/])(?P<v>/?u/[A-Za-z0-9_-]{3,20})\b", 0.85),
        ("cashtag", r"(?<![\w$])(?P<v>\$[A-Za-z][A-Za-z0-9_]{2,19})\b", 0.8),
        (
            "log_user",
            r"(?i:\b(?:user(?:name)?|login|uid|account)\s*[=:]\s*)[\"']?"
            r"(?P<v>[A-Za-z][\w.-]{1,30}[A-Za-z0-9])",
            0.8,
        ),
        (
            "user_handle",
            r"(?i:\b(?:user(?:name)?|login|account|handle|gamertag|ign)\s+)"
            r"(?P<v>[a-z][a-z]*[._\d][\w.-]*[a-z0-9])\b",
            0.8,
        ),
        (
            "user_word",
            r"(?i:\b(?:for|by|from)\s+user(?:name)?\s+)(?P<v>[A-Za-z][\w.-]{1,30}[A-Za-z0-9])",
            0.8,
        ),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Reject a stock ticker ($AAPL), an e-mail's tail and system accounts."""
        bare = value.lstrip("@$/").removeprefix("u/")
        if bare.lower() in NOT_HANDLES:
            return False
        if value.startswith("$") and (bare.isupper() and len(bare) <= 5):
            return False
        return not text[end : end + 1] == "@"
