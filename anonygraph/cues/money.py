"""Money amounts: salaries, rents, prices; generalized to an order of magnitude."""

from __future__ import annotations

import re

from anonygraph.attributes.income import income_band
from anonygraph.cues.cue import Cue

_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_MULT = r"k|K|m|M|mil|million|thousand|grand"
_CURRENCY_WORD = (
    r"dollars|bucks|euros?|pounds|quid|USD|EUR|GBP|CAD|AUD|pesos|rupees|yen|francs"
)
AMOUNT = re.compile(
    rf"(?P<cur>[$€£¥]|(?:US|C|A|NZ)\$)\s?(?P<num>{_NUMBER})(?:\s?(?P<mult>{_MULT})\b)?"
    rf"|(?P<num2>{_NUMBER})(?:\s?(?P<mult2>{_MULT}))?\s?(?P<cur2>{_CURRENCY_WORD})\b"
    rf"|\b(?P<num3>\d{{2,3}})(?P<mult3>k|K)\b",
)
PERIOD = re.compile(
    r"^\s*(?:a|per|an|/|each)\s*(?P<period>year|yr|annum|month|mo|hour|hr|h|week|wk)\b"
    r"|^\s*(?P<period2>annually|yearly|monthly|hourly|weekly)\b",
    re.IGNORECASE,
)
SALARY_WORDS = re.compile(
    r"\b(?:salary|make|makes|making|earn|earns|earning|paid|pay|pays|paying|paycheck|income|wage|wages|"
    r"raise|bonus|offer)\b",
    re.IGNORECASE,
)
RENT_WORDS = re.compile(r"\b(?:rent|mortgage|lease|apartment|flat)\b", re.IGNORECASE)
SIX_FIGURES = re.compile(
    r"\b(?:six|seven)[\s-]figures?\b(?:\s+(?:salary|income))?", re.I
)
MULTIPLIERS = {
    "k": 1e3,
    "thousand": 1e3,
    "grand": 1e3,
    "m": 1e6,
    "mil": 1e6,
    "million": 1e6,
}
PER_YEAR = {
    "year": 1,
    "yr": 1,
    "annum": 1,
    "annually": 1,
    "yearly": 1,
    "month": 12,
    "mo": 12,
    "monthly": 12,
    "week": 52,
    "wk": 52,
    "weekly": 52,
    "hour": 2080,
    "hr": 2080,
    "h": 2080,
    "hourly": 2080,
}


BANDS: tuple[tuple[str, float, float], ...] = (
    ("a small amount", 0, 100),
    ("a few hundred", 100, 1e3),
    ("a few thousand", 1e3, 1e4),
    ("tens of thousands", 1e4, 1e5),
    ("hundreds of thousands", 1e5, 1e6),
    ("millions", 1e6, float("inf")),
)
"""Order-of-magnitude phrases an amount generalizes to, with the amounts each covers."""


def amount_band(amount: float) -> str:
    """Return the order of magnitude of ``amount``, without currency."""
    return next((name for name, _, high in BANDS if amount < high), "millions")


def band_range(band: str) -> tuple[float, float]:
    """Return the amounts a band phrase covers, (0, 0) for no band."""
    return next(((low, high) for name, low, high in BANDS if name == band), (0.0, 0.0))


def income_level(yearly: float) -> str:
    """Map a yearly income to the PersonalReddit levels (USD-like units)."""
    return income_band(yearly)


def detect_money(text: str) -> list[Cue]:
    """Find money amounts; salaries state the income level, other sums hint at it."""
    cues: list[Cue] = []
    for m in AMOUNT.finditer(text):
        raw = m.group("num") or m.group("num2") or m.group("num3")
        mult = (m.group("mult") or m.group("mult2") or m.group("mult3") or "").lower()
        amount = float(raw.replace(",", "")) * MULTIPLIERS.get(mult, 1)
        sentence_start = max(text.rfind(c, 0, m.start()) for c in ".!?\n")
        sentence_end = min(
            [i for i in (text.find(c, m.end()) for c in ".!?\n") if i >= 0]
            or [len(text)]
        )
        sentence = text[sentence_start + 1 : sentence_end]
        period = PERIOD.match(text[m.end() :])
        per = (
            (period.group("period") or period.group("period2")).lower()
            if period
            else ""
        )
        band = amount_band(amount)
        if m.group("num3") and not SALARY_WORDS.search(sentence):
            continue  # a bare "10k" is a race or a step count unless pay is talked of
        hourly_or_yearly = per in (
            "year",
            "yr",
            "annum",
            "annually",
            "yearly",
            "hour",
            "hr",
            "h",
            "hourly",
        )
        if SALARY_WORDS.search(sentence) or (
            hourly_or_yearly and not RENT_WORDS.search(sentence)
        ):
            yearly = amount * PER_YEAR.get(per, 1)
            if not per and amount < 1_000:
                yearly = amount * 2080  # a bare small salary figure is hourly
            cues.append(
                Cue(
                    m.start(),
                    m.end(),
                    m.group(0),
                    "income_level",
                    "salary",
                    income_level(yearly),
                    band,
                    4,
                    exact=True,
                )
            )
        else:
            kind = "rent" if RENT_WORDS.search(sentence) else "amount"
            cues.append(
                Cue(
                    m.start(),
                    m.end(),
                    m.group(0),
                    "income_level",
                    kind,
                    band,
                    band,
                    3 if kind == "rent" else 2,
                    exact=False,
                )
            )
    for m in SIX_FIGURES.finditer(text):
        level = "high" if m.group(0).lower().startswith("six") else "very high"
        cues.append(
            Cue(
                m.start(),
                m.end(),
                m.group(0),
                "income_level",
                "salary_band",
                level,
                "a good income",
                3,
                exact=False,
            )
        )
    return cues
