"""Handles: @name, u/name, $cashtag payment names, name#1234 tags, user names.

A user name counts where the text or the log says it is one: after a user
field (``user=``, ``by=operator:``), as the one an auth line was "for" before
"from <address>", as a home directory's name (``/home/name/``), or a
handle-shaped word the text says some ID or user name "is".
"""

from __future__ import annotations

import re

from anonygraph.identifiers.recognizers.base import CuedPatternRecognizer
from anonygraph.identifiers.recognizers.lookalikes import CUES

CHAT_STAMP = (
    r"(?:\[[^\]\n]{0,40}?\d[:.]\d\d[^\]\n]{0,30}\]|"
    r"(?:\d{1,2}[./-]\d{1,2}[./-]\d{2,4}[ \t,]+)?\d{1,2}[:.]\d\d"
    r"(?![:.]\d)(?:[ \t]*[AaPp][Mm])?)"
)
"""A chat's time stamp: "[10:02 AM]", "21:20", "12.11.2026 21:20" (no seconds)."""

NOT_HANDLES = frozenset(
    """admin root system null none anonymous guest unknown everyone here channel
    shared public default ubuntu ec2-user runner www-data nobody""".split()
)
"""Names after @ or user= that name no person."""


REFERENCE_ID = re.compile(
    r"(?i)\b(?:order|ref|reference|case|ticket|invoice|booking|tracking|"
    r"transaction|txn|session|request|job|trace|policy|item|product|build)"
    r"\s+id\b[^.\n]*$"
)
"""A reference's ID named before the word ("order id is ab_1234")."""


class HandleRecognizer(CuedPatternRecognizer):
    """A social or payment handle, or a user name a log line records."""

    ENTITY = "HANDLE"
    PATTERNS = (
        (
            "at_handle",
            r"(?<![\w@.+\]-])(?P<v>@[A-Za-z0-9_](?:[A-Za-z0-9_.]*[A-Za-z0-9_])?)",
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
            "user_is",
            r"(?i:\b(?:user(?:name)?|login|account|handle|gamertag|ign|id)\b"
            r"[^.\n]{0,25}?\bis\s+)"
            r"(?P<v>[a-z][a-z]*[._\d][\w.-]*[a-z0-9])\b",
            0.8,
        ),
        (
            # A messenger's ID after its name ("微信 linxiaoqi_sh", "LINE ID:
            # ploy.c", "Zalo: 0912…" is a phone's), and a UPI payment ID.
            "messenger_id",
            r"(?:(?i:\b(?:wechat|weixin|line|kakaotalk|kakao|zalo|telegram|signal|"
            r"skype|discord|snapchat|threema|viber)\b)|微信|카톡)"
            # After a colon any ID; after a space only one with a mark or digit
            # ("line please" is no one's).
            r"(?:[ \t]*(?i:id|号))?(?:[ \t]*[:：][ \t]*|[ \t]+(?=[A-Za-z][\w-]*[._\d]))"
            r"(?P<v>[A-Za-z][\w.-]{3,30}[A-Za-z0-9])(?![\w@])",
            0.8,
        ),
        (
            "upi_id",
            r"(?<![\w.@-])(?P<v>[\w.-]{3,40}@(?:ok(?:icici|sbi|axis|hdfcbank)|ybl|paytm|"
            r"upi|apl|ibl|axl|icici|sbi|hdfcbank|axisbank|kotak|yesbank|idfcbank))"
            r"(?![\w.@-])",
            0.85,
        ),
        (
            # "[10:02 AM] **will.tran**: morning!", "12.11.2026 21:20
            # dauren_k: ok": a chat line's speaker shaped as a user name
            # (a dot, an underscore or digits in a lowercase word), after a
            # chat's stamp (a log's has seconds) or opening a line of words.
            "chat_handle",
            rf"(?m)^[ \t]*(?:{CHAT_STAMP}[ \t]*[-–]?[ \t]*)?(?:\*\*)?"
            r"(?P<v>[a-z][a-z0-9]*(?:[._][a-z0-9]+)+|[a-z]{2,}\d{2,})(?:\*\*)?"
            r"[ \t]*:[ \t]+(?P<said>[^\n]*)",
            0.75,
        ),
        ("tag", r"(?<![\w#@])(?P<v>[A-Za-z][\w.]{2,31}#\d{4})(?!\w)", 0.8),
        (
            # A request's path in a log, without its host ("GET
            # /profile/epeli.nakau"): a name with a dot, an underscore or
            # digits, not the site's own page ("/users/settings").
            "profile_path",
            r"(?<![\w.:/-])/(?i:users?|profiles?|members?|people|accounts?)/"
            r"(?P<v>[A-Za-z]{2,}[._\d][\w.-]*[A-Za-z0-9])(?=[\s/?#\"]|$)",
            0.8,
        ),
        (
            "home_dir",
            r"(?:/home/|/Users/|[A-Z]:\\Users\\)(?P<v>[A-Za-z][\w.-]{1,30})(?=[/\\])",
            0.8,
        ),
        (
            "auth_for",
            r"\bfor\s+(?:invalid\s+user\s+|user\s+)?(?P<v>[a-z_][a-z0-9_.-]{2,31})"
            r"\s+from\s+\[?(?:\d{1,3}\.\d{1,3}\.|[0-9a-fA-F]{1,4}::?[0-9a-fA-F])",
            0.8,
        ),
        (
            "actor_field",
            r"(?i:\b(?:by|actor|operator|owner|author|assignee)\s*[=:]\s*)"
            r"(?:[a-z]+:)?(?P<v>[a-z][\w.-]{2,30}[a-z0-9])\b",
            0.8,
        ),
        (
            "user_word",
            r"(?i:\b(?:for|by|from)\s+user(?:name)?\s+)(?P<v>[A-Za-z][\w.-]{1,30}[A-Za-z0-9])",
            0.8,
        ),
    )

    def span(
        self, match: re.Match[str], text: str, nlp_artifacts: object
    ) -> tuple[int, int] | None:
        """Ask an unstamped speaker for a line of words (a config key has none)."""
        said = match.groupdict().get("said")
        if said is not None and not re.match(r"[ \t]*(?:\[|\*\*|\d)", match.group(0)):
            words = said.split()
            if (
                len(words) < 3
                or len(re.findall(r"[^\W\d_]{2,}", said)) < 3
                or "=" in said
                or match.group(0)[:1] in " \t"
            ):
                return None  # "db.host: localhost", an indented config key
        return super().span(match, text, nlp_artifacts)

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Reject a ticker ($AAPL), an e-mail's tail, system accounts, references."""
        bare = value.lstrip("@$/").removeprefix("u/")
        if bare.lower() in NOT_HANDLES or text.startswith("[bot]", end):
            return False  # "dependabot[bot]": a bot, no one's account
        if value.startswith("$") and (bare.isupper() and len(bare) <= 5):
            return False
        if "#" in value and CUES.search(value.partition("#")[0]):
            return False  # "issue#1234", "order#4471": a reference
        if text[end : end + 1] == "@":
            return False
        # "order id is ab_1234": the ID of a reference, not of a user.
        prior = text[max(0, start - 40) : start]
        return not REFERENCE_ID.search(prior)
