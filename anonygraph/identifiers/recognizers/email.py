"""E-mail addresses, with the domain checked against the bundled suffix list."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from presidio_analyzer.predefined_recognizers import EmailRecognizer


@lru_cache(maxsize=1)
def _extractor() -> Any:
    import tldextract

    # No suffix-list URL: tldextract reads the snapshot shipped in its wheel
    # instead of fetching the public-suffix list (no request at run time).
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


class OfflineEmailRecognizer(EmailRecognizer):
    """Presidio's e-mail recognizer, validated without the network."""

    def validate_result(self, pattern_text: str) -> bool:
        """Accept an address whose domain ends in a known public suffix."""
        return bool(_extractor()(pattern_text).fqdn)
