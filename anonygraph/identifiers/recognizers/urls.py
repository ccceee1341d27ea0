"""Personal URLs: a profile, a share link, or a person's own site.

A URL is a person's when its path names a user (facebook.com/dale.ecklund,
github.com/name, linkedin.com/in/name, any site's /u/name, /member/name,
/~name or /@name, a ``userId=`` query), when it carries an opaque share
token (an album, a shared photo or document: mixed-case letters and digits),
or when the text introduces it as someone's own page (Portfolio:, Website:,
"my build log at ..."). An organization's homepage, its help, about or
donate pages and a project's pages on a code host (issues, releases, wiki)
are its public contact and stay.
"""

from __future__ import annotations

import re

from anonygraph.identifiers.recognizers.base import CuedPatternRecognizer, before
from anonygraph.identifiers.recognizers.email import ROLE_LOCAL_PARTS, known_suffix
from anonygraph.identifiers.recognizers.name_checks import ORG_WORDS
from anonygraph.tools import kept_patterns

PROFILE_SITES = frozenset(
    """facebook.com fb.com instagram.com twitter.com x.com linkedin.com
    github.com gitlab.com bitbucket.org behance.net dribbble.com tiktok.com
    youtube.com medium.com substack.com reddit.com pinterest.com tumblr.com
    soundcloud.com vimeo.com twitch.tv t.me telegram.me wa.me
    flickr.com deviantart.com artstation.com patreon.com ko-fi.com
    buymeacoffee.com linktr.ee about.me threads.net bsky.app mastodon.social
    keybase.io stackoverflow.com kaggle.com huggingface.co xing.com vk.com
    weibo.com paypal.me venmo.com cash.app gist.github.com""".split()
)
"""Sites whose first path segment (or /in/, /u/, /@) names a person."""

SITE_PATHS = frozenset(
    """company companies about help jobs careers legal policies privacy
    questions q tags watch results search explore hashtag topics r groups
    events pages marketplace shorts embed""".split()
)
"""First path segments on profile sites that name no person: the site's own
pages, a question, a video, a forum, a group or an organization's page."""

PERSONAL_QUERY = kept_patterns.compile(
    r"[?&](?:user_?id|userid|uid|profile_?id|user|u)=", re.I
)
"""A query parameter that names a user."""

USER_PATHS = frozenset(
    """u user users member members people profile profiles in author authors
    usr account accounts""".split()
)
"""Path segments, on any site, after which the next segment names a user."""

PUBLIC_PATHS = frozenset(
    """issues issue pulls pull releases release wiki discussions blob tree
    commits actions projects docs doc help about contact support donate
    careers jobs legal privacy terms faq pricing blog news press""".split()
)
"""Path segments of an organization's or a project's public pages."""

TOKEN = kept_patterns.compile(r"(?=[\w-]*[a-z])(?=[\w-]*[A-Z])(?=[\w-]*\d)[\w-]{6,64}")
"""An opaque share token: upper- and lowercase letters and digits mixed."""

FIRST_PERSON = kept_patterns.compile(
    r"\b(?:my|mine|i'm|i am|i've|i have|(?:add|follow|find|friend) me (?:on|at|via))\b"
    r"[^.!?\n]{0,60}$"
)
"""A first-person phrase earlier in the URL's sentence ("my build log at",
"add me on steam")."""

PERSONAL_CUE = kept_patterns.compile(
    r"(?:portfolio|website|homepage|home page|my site|my blog|blog|personal site|"
    r"my page|web)(?:\s*(?:&|and|/)\s*[^\W\d_]+)?\s*[:\-]?\s*$"
)
"""Words that introduce a URL as someone's own page, maybe with a second
word joined on ("Portfolio & references:")."""


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
        page, _, query = path.partition("?")
        segments = [s for s in re.split(r"[/#]", page) if s]
        lowered = [s.lower() for s in segments]
        site = host.lower().removeprefix("m.")
        if site in PROFILE_SITES and lowered[:1] and lowered[0] in SITE_PATHS:
            return False  # youtube.com/watch?v=…, reddit.com/r/…: no one's page
        if any(s.startswith(("~", "@")) and len(s) > 2 for s in segments):
            return True
        if any(s in USER_PATHS and i + 1 < len(lowered) for i, s in enumerate(lowered)):
            return True
        if PERSONAL_QUERY.search("?" + query):
            return True
        if any(TOKEN.fullmatch(s) for s in segments + re.split(r"[&=]", query)):
            return True
        if set(lowered) & PUBLIC_PATHS:
            return False
        if site in PROFILE_SITES and segments:
            return lowered[0] not in SITE_PATHS
        if OWNER_AFTER.match(text, end) or _names_someone(text, host, segments):
            return True
        prior = before(text, start, 80)
        if PERSONAL_CUE.search(prior[-25:]):
            return True
        # "my build log at kb.example.ca/build-7": a page of the writer's own,
        # not a bare homepage (where one shops or works).
        return bool(segments and FIRST_PERSON.search(prior))


ORG_FORM_AFTER = kept_patterns.compile(
    r",?[ \t]+(?:A/S|ApS|AS|ASA|AB|Oy|Ltd|GmbH|Inc|LLC|AG|SA|S\.A\.|BV|B\.V\.|"
    r"plc|SRL)\b"
)
"""A company's legal form after a capitalized run: the run is its name."""


def _joined_name(text: str, label: str) -> bool:
    """Tell a host that is a name of the text written as one word.

    "rasmusholm.photo" beside "Rasmus Kjærgaard Holm", "ashworthkane.design"
    beside "Poppy Ashworth-Kane": neighbouring capitalized words of a name
    in the text (or its first and last), joined, are the host's first label.
    """
    label = label.lower().replace("-", "")
    if len(label) < 6 or not label.isalpha():
        return False
    for m in re.finditer(r"[A-ZÀ-Þ][^\W\d_]+(?:[ -][A-ZÀ-Þ][^\W\d_]+){1,3}", text):
        words = [w.lower() for w in re.split(r"[ -]", m.group(0))]
        if set(words) & ORG_WORDS or ORG_FORM_AFTER.match(text, m.end()):
            continue  # "Carlsberg Byen Ejendomme A/S": a company's own site
        joins = {words[0] + words[-1]} | {
            "".join(words[i:j])
            for i in range(len(words))
            for j in range(i + 2, len(words) + 1)
        }
        if label in joins:
            return True
    return False


OWNER_AFTER = kept_patterns.compile(
    r"[ \t]*\((?:her|his|their|my)\b[^()\n]{0,20}\)", re.IGNORECASE
)
"""A note after a URL that it is someone's own ("(her link, not ours)")."""


def _names_someone(text: str, host: str, segments: list[str]) -> bool:
    """Tell a URL whose site or first path part carries a name the text gives.

    "merve-draws.de" beside "ruf Merve an", "calendly.com/caoimhe-mgp" beside
    "Caller: Caoimhe …", "jlferreira.dev" beside "@jlferreira": a word of
    the host's first label or of the first path segment stands elsewhere
    as a capitalized name, a handle or an e-mail's local part.
    """
    parts = [host.split(".")[0], *segments[:1]]
    if _joined_name(text, parts[0]):
        return True
    words = {w for part in parts for w in re.split(r"[-_.]", part) if len(w) >= 4}
    for word in words:
        if not word.isalpha() or word.lower() in ROLE_LOCAL_PARTS:
            continue
        name = rf"(?<![\w./-]){re.escape(word.title())}(?![\w-])"
        handle = (
            rf"(?<![\w.+-])@{re.escape(word)}\b|(?<![\w.-]){re.escape(word)}[\w.-]*@"
        )
        if re.search(name, text) or re.search(handle, text, re.IGNORECASE):
            return True
    return False
