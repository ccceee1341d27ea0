"""Personal URLs: a profile on a social or hosting site, or a person's own site.

A URL is a person's when its path names a user (facebook.com/dale.ecklund,
github.com/name, linkedin.com/in/name, behance.net/name, a ``userId=``
query), or when the text introduces it as someone's page (Portfolio:,
Website:, my blog). An organization's homepage with no personal path is
its public contact and stays.
"""

from __future__ import annotations

import re

from anonygraph.identifiers.recognizers.base import CuedPatternRecognizer, before
from anonygraph.identifiers.recognizers.email import known_suffix

PROFILE_SITES = frozenset(
    """facebook.com fb.com instagram.com twitter.com x.com linkedin.com
    github.com gitlab.com bitbucket.org behance.net dribbble.com tiktok.com
    youtube.com medium.com substack.com reddit.com pinterest.com tumblr.com
    soundcloud.com vimeo.com twitch.tv t.me telegram.me wa.me
    flickr.com deviantart.com artstation.com patreon.com ko-fi.com
    buymeacoffee.com linktr.ee about.me threads.net bsky.app mastodon.social
    keybase.io stackoverflow.com kaggle.com huggingface.co xing.com vk.com
    weibo.com paypal.me venmo.com cash.app""".split()
)
"""Sites whose first path segment (or /in/, /u/, /@) names a person."""

SITE_PATHS = frozenset(
    "company companies about help jobs careers legal policies privacy".split()
)
"""First path segments on profile sites that name no person."""

PERSONAL_QUERY = re.compile(r"[?&](?:user_?id|userid|uid|profile_?id|user|u)=", re.I)
"""A query parameter that names a user."""

PERSONAL_CUE = re.compile(
    r"(?:portfolio|website|homepage|home page|my site|my blog|blog|personal site|"
    r"my page|web)\s*[:\-]?\s*$"
)
"""Words that introduce a URL as someone's own page."""


class PersonalUrlRecognizer(CuedPatternRecognizer):
    """A URL that points at one person."""

    ENTITY = "URL"
    PATTERNS = (
        (
            "url",
            r"(?<![@\w.-])(?P<v>(?:https?://)?(?:www\.)?(?:[A-Za-z0-9-]+\.)+"
            r"[A-Za-z]{2,}(?:/[^\s<>\"'()\[\]]*)?)",
            0.8,
        ),
    )

    def validate(self, value: str, text: str, start: int, end: int) -> bool:
        """Accept a profile path, a user query, or a cued personal site."""
        bare = re.sub(r"^(?:https?://)?(?:www\.)?", "", value).rstrip(".,;:!?")
        host, _, path = bare.partition("/")
        if "." not in host or not known_suffix(host) or text[end : end + 1] == "@":
            return False
        if re.fullmatch(
            r"[\w-]+\.(?:py|js|ts|php|lua|rb|go|java|cs|md|txt|json|html|css|sh)", host
        ):
            return False
        segments = [s for s in re.split(r"[/?#]", path) if s]
        site = host.lower().removeprefix("m.")
        if site in PROFILE_SITES and segments:
            first = segments[0].lower()
            if (
                first in ("in", "u", "user", "users", "people", "profile")
                and len(segments) > 1
            ):
                return True
            return first not in SITE_PATHS
        if PERSONAL_QUERY.search(path):
            return True
        return bool(PERSONAL_CUE.search(before(text, start, 25)))
