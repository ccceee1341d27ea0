"""Money amounts: salaries, rents, prices; generalized to an order of magnitude."""

from __future__ import annotations

import re

from anonygraph.attributes.income import USD_PER_UNIT, income_band
from anonygraph.cues.cue import Cue

_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_MULT = r"k|K|m|M|mil|million|thousand|grand"
_CURRENCY_WORD = (
    r"dollars|bucks|euros?|pounds|quid|USD|EUR|GBP|CAD|AUD|NZD|CHF|SEK|NOK|DKK|JPY|"
    r"INR|pesos|rupees|yen|francs|kroner|krona|kronor|krone|zloty|rand|reais|yuan"
)
_CURRENCY_CODE = r"USD|EUR|GBP|CAD|AUD|NZD|CHF|SEK|NOK|DKK|JPY|INR|R\$|Rs\.?"
AMOUNT = re.compile(
    rf"(?P<cur>[$€£¥]|(?:US|C|A|NZ)\$|\b(?:{_CURRENCY_CODE})\s)\s?(?P<num>{_NUMBER})"
    rf"(?:\s?(?P<mult>{_MULT})\b)?"
    rf"|(?P<num2>{_NUMBER})(?:\s?(?P<mult2>{_MULT}))?\s?(?P<cur2>{_CURRENCY_WORD})\b"
    rf"|\b(?P<num3>\d{{2,3}})(?:(?P<mult3>k|K)|\s(?P<grand>grand))\b",
)
RATES: dict[str, float] = {
    **USD_PER_UNIT,
    "us$": 1.0, "dollars": 1.0, "bucks": 1.0, "euros": 1.1, "pounds": 1.27,
    "quid": 1.27, "francs": 1.12, "c$": 0.74, "a$": 0.66, "nz$": 0.61,
    "sek": 0.095, "krona": 0.095, "kronor": 0.095, "nok": 0.094, "dkk": 0.145,
    "kroner": 0.1, "krone": 0.1, "¥": 0.0067, "jpy": 0.0067, "yen": 0.0067,
    "inr": 0.012, "rupees": 0.012, "rs": 0.012, "rs.": 0.012, "pesos": 0.055,
    "zloty": 0.25, "rand": 0.055, "reais": 0.18, "r$": 0.18, "yuan": 0.14,
}  # fmt: skip
"""Rough rates to US dollars: enough to place an income in its band."""
INCOME_PHRASES: dict[str, str] = {
    "low": "a modest wage",
    "middle": "a decent salary",
    "high": "good money",
    "very high": "a very high income",
}
"""How a salary reads once its figure goes: the income band, in words."""
HEDGE_BEFORE = re.compile(
    r"(?:\b(?:about|around|roughly|maybe|almost|nearly|over|under|just over|"
    r"just under|approximately|like|only|barely)\s+)$",
    re.IGNORECASE,
)
PERIOD_AFTER = re.compile(
    r"^(?:\s*(?:a|per|an|/|each)\s*(?:year|yr|annum|month|mo|hour|hr|h|week|wk)\b"
    r"|\s*(?:annually|yearly|monthly|hourly|weekly)\b)(?:\s+(?:before|after) tax\b)?",
    re.IGNORECASE,
)
PERIOD = re.compile(
    r"^\s*(?:a|per|an|/|each)\s*(?P<period>year|yr|annum|month|mo|hour|hr|h|week|wk)\b"
    r"|^\s*(?P<period2>annually|yearly|monthly|hourly|weekly)\b",
    re.IGNORECASE,
)
SALARY_WORDS = re.compile(
    r"\b(?:salary|make|makes|making|earn|earns|earning|paid|pay|pays|paying|paycheck|income|wage|wages|"
    r"raise|bonus|offer|clear|cleared|clearing|take home|bring home|working|cleared)\b",
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


def _yearly(amount: float, per: str, sentence: str) -> float:
    if per:
        return amount * PER_YEAR.get(per, 1)
    if re.search(r"\bweek", sentence, re.IGNORECASE):
        return amount * 52
    if re.search(r"\bmonth", sentence, re.IGNORECASE):
        return amount * 12
    return amount * 2080 if amount < 100 else amount  # a bare small figure is hourly


def _currency(match: re.Match[str]) -> float:
    name = (match.group("cur") or match.group("cur2") or "$").strip().lower()
    return RATES.get(name, RATES.get(name.rstrip("s"), 1.0))


def detect_money(text: str) -> list[Cue]:
    """Find money amounts; salaries state the income level, other sums hint at it.

    A salary's span takes in a hedge before it and its period after it
    ("about 140,000 francs a year"), so the band phrase that replaces it
    reads in the sentence ("I make good money, which ...").
    """
    cues: list[Cue] = []
    for m in AMOUNT.finditer(text):
        raw = m.group("num") or m.group("num2") or m.group("num3")
        mult = (
            m.group("mult") or m.group("mult2") or m.group("mult3") or m.group("grand")
            or ""
        ).lower()  # fmt: skip
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
        hourly_or_yearly = per in ("year", "yr", "annum", "annually", "yearly", "hour",
                                   "hr", "h", "hourly")  # fmt: skip
        start, end = m.start(), m.end()
        living_on = re.search(r"\b(?:on|living on|live on)\s+$", text[:start])
        if (
            SALARY_WORDS.search(sentence)
            or living_on
            or (hourly_or_yearly and not RENT_WORDS.search(sentence))
        ):
            level = income_level(_yearly(amount, per, sentence) * _currency(m))
            hedge = HEDGE_BEFORE.search(text[:start])
            start = hedge.start() if hedge else start
            after = PERIOD_AFTER.match(text[end:])
            end = end + after.end() if after else end
            cues.append(
                Cue(start, end, text[start:end], "income_level", "salary", level,
                    INCOME_PHRASES[level], 4, exact=True)
            )  # fmt: skip
        else:
            kind = "rent" if RENT_WORDS.search(sentence) else "amount"
            hedge = HEDGE_BEFORE.search(text[:start])
            start = (
                hedge.start()
                if hedge and band.startswith(("a ", "tens", "hundreds"))
                else start
            )
            cues.append(
                Cue(start, end, text[start:end], "income_level", kind, band, band,
                    3 if kind == "rent" else 2,
                    # A figure says more than its order of magnitude does.
                    exact=kind == "rent")
            )  # fmt: skip
    for m in SIX_FIGURES.finditer(text):
        level = "high" if m.group(0).lower().startswith("six") else "very high"
        cues.append(
            Cue(m.start(), m.end(), m.group(0), "income_level", "salary_band", level,
                INCOME_PHRASES[level], 3, exact=True)
        )  # fmt: skip
    return cues
