"""Japanese and Korean addresses: a block's number after its town or road name.

Japan numbers blocks, not streets: a ward's town or its chōme ("…久保田町",
"…三丁目") then the block and house numbers ("38-2"), maybe a building and
its room ("メゾン白川203号室"). Korea numbers a road: a city or district
("해운대구") before a road's name ending in -ro or -gil ("센텀중앙로") and
its number, maybe a building's dong and a flat's ho ("1203동 1504호").
The layout says it is an address whatever label stands before it; a town
or a road named without its numbers stays (a place, not a home).
"""

from __future__ import annotations

from anonygraph.identifiers.recognizers.base import CuedPatternRecognizer

HAN_KANA = r"\u3005\u4e00-\u9fff\u30a0-\u30ff"
"""Han characters, the iteration mark and katakana (a town's or building's name)."""

JAPANESE = (
    rf"(?<![{HAN_KANA}])(?P<v>[{HAN_KANA}]{{1,24}}(?:町|丁目|村|番地)[ \u3000]?"
    r"\d{1,4}(?:[-－‐]\d{1,4}){0,2}"
    rf"(?:[ \u3000]?[{HAN_KANA}A-Za-z]{{1,12}}?\d{{1,4}}号室)?)(?![\d-])"
)
"""A town or chōme, its block and house numbers, maybe a room."""

KOREAN = (
    r"(?<![가-힣])(?P<v>(?:[가-힣]{2,8}(?:특별시|광역시|시|도)[ \t]+)?"
    r"[가-힣]{1,6}(?:구|군)[ \t]+[가-힣]{2,12}(?:로|길)[ \t]?\d{1,4}(?:-\d{1,4})?"
    r"(?:,?[ \t]*\d{1,4}동[ \t]*\d{1,4}호)?)(?![\d-])"
)
"""A district, a road's name and its number, maybe a building's dong and ho."""


class BlockAddressRecognizer(CuedPatternRecognizer):
    """A Japanese block address or a Korean road address, by its layout."""

    ENTITY = "ADDRESS"
    PATTERNS = (("japanese_block", JAPANESE, 0.7), ("korean_road", KOREAN, 0.7))
