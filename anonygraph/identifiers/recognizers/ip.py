"""IP addresses that can point at a subscriber: public IPv4 and IPv6.

Private, loopback and link-local addresses (10.x, 192.168.x, 127.0.0.1,
fe80::) name a machine inside a network, not a person, and stay; a private
address a log line gives a user ("user=… assigned=10.8.14.22", "holder=…
ip=10.24.8.117": a VPN's or a site's address for that person's session)
is that person's.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Any

from presidio_analyzer import RecognizerResult
from presidio_analyzer.predefined_recognizers import IpRecognizer

from anonygraph.identifiers.recognizers.lookalikes import VERSION

VERSION_TAIL = re.compile(r"[-+.][\w]")
"""What follows a version, never an address: ``-beta``, ``+build``, ``.5``."""

VERSION_HEAD = re.compile(
    r"(?i)\b(?:v|version|release|build|ver\.?|firmware|fw|software|sw|os|kernel)\s*$"
)
"""A version cue right before the dotted numbers."""

GIVEN_KEY = re.compile(
    r"(?i)(?<![\w.-])(?:assigned|ip|(?:client|user|remote|tunnel|vpn|framed|src)_?ip)"
    r"[ \t]*[=:][ \t]*$"
)
"""A log key that names the address a user's session was given."""

USER_KEY = re.compile(
    r"(?i)(?<![\w.-])(?:user(?:name)?|login|holder|member|subscriber|customer|"
    r"account|msisdn|email)[ \t]*[=:]"
)
"""A log key that names the person a line is about."""


class PersonalIpRecognizer(IpRecognizer):
    """Presidio's IP recognizer, without internal addresses or version strings."""

    def analyze(
        self,
        text: str,
        entities: list[str],
        nlp_artifacts: Any = None,
        regex_flags: Any = None,
    ) -> list[RecognizerResult]:
        """Drop a dotted quad that runs on into a version (1.2.3.4-beta, 1.2.3.4.5)."""
        return [
            r
            for r in super().analyze(text, entities, nlp_artifacts, regex_flags)
            if not VERSION_TAIL.match(text[r.end : r.end + 2])
            and not VERSION_HEAD.search(text[max(0, r.start - 9) : r.start])
            and (not _internal(text[r.start : r.end]) or _given(text, r.start))
        ]

    def invalidate_result(self, pattern_text: str) -> bool:
        """Reject a private, loopback, link-local or unspecified address."""
        host, _, prefix = pattern_text.strip("[]").partition("/")
        if prefix.isdigit() and "." in host and int(prefix) < 32:
            return True  # "10.12.0.0/16": a network's block (an IPv6 /56 is a home's)
        try:
            ipaddress.ip_address(host)
        except ValueError:
            return bool(VERSION.search(pattern_text))
        return False  # an internal address is judged in its line (`analyze`)


def _internal(value: str) -> bool:
    """Tell a private, loopback, link-local or unspecified address."""
    try:
        address = ipaddress.ip_address(value.strip("[]").partition("/")[0])
    except ValueError:
        return False
    return bool(
        address.is_loopback
        or address.is_link_local
        or address.is_unspecified
        or (address.is_private and address.version == 4 and not _shared(address))
    )


def _given(text: str, start: int) -> bool:
    """Tell an address a log key gives a user the same line names."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    return bool(
        GIVEN_KEY.search(text[max(line_start, start - 24) : start])
        and USER_KEY.search(line)
    )


def _shared(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Tell a carrier-grade NAT or documentation address (kept as an identifier)."""
    return any(
        address in ipaddress.ip_network(net)
        for net in (
            "100.64.0.0/10",
            "192.0.2.0/24",
            "198.51.100.0/24",
            "203.0.113.0/24",
        )
    )
