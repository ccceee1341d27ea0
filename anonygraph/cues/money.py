"""Money amounts: salaries, rents, prices; generalized to an order of magnitude."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from anonygraph.attributes.income import income_band
from anonygraph.cues import author_words
from anonygraph.cues.cue import Cue
from anonygraph.cues.lexicon import table
from anonygraph.cues.numbers import number_value
from anonygraph.tools import kept_patterns

_NUMBER = (
    r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:[ \u00a0\u202f]\d{3}(?!\d))+|\d+(?:\.\d+)?"
)
"""A figure: "1,200", "32 000" (a space between thousands), "58", "2.5"."""
_MULT = r"k|K|m|M|mil|million|thousand|grand|lakhs?|lacs?|crores?|LPA|lpa"
_WORD_NUMBER = (
    r"(?P<wnum>an?|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
    r"(?:[\s-](?:one|two|three|four|five|six|seven|eight|nine))?|one|two|three|"
    r"four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen)"
    r"(?P<hundred>\s+hundred)?(?:\s+and\s+\w+)?\s+(?P<wmult>thousand|grand|million)\b"
)


@lru_cache(maxsize=1)
def currencies() -> tuple[dict[str, float], dict[str, list[str]], dict[str, str]]:
    """Return (code -> USD per unit at PPP, form -> codes, country -> code).

    From ``data/currencies.tsv`` (see its header for the basis): a form
    several currencies share ("$", "pesos", "kroner") lists them in file
    order, the first being the one meant when the text names no country.
    """
    rates: dict[str, float] = {}
    forms: dict[str, list[str]] = {}
    countries: dict[str, str] = {}
    for code, rate, written, used_in in table("currencies.tsv"):
        rates[code] = float(rate)
        for form in [code.lower(), *written.split("|")]:
            if code not in forms.setdefault(form, []):
                forms[form].append(code)
        for country in used_in.split("|"):
            countries[country] = code
    return rates, forms, countries


_SYMBOLS = r"[$€£¥₹₩₱฿₦₪₺]|(?:US|C|CA|A|AU|NZ|S|HK|R)\$"
_CODES = r"(?!LPA)[A-Z]{3}"
"""Three capitals before or after a figure: a currency code when the table has it."""


@lru_cache(maxsize=1)
def amount_pattern() -> re.Pattern[str]:
    """Return the pattern of an amount: a figure with its currency or multiplier."""
    words = sorted(
        (
            f
            for f, codes in currencies()[1].items()
            if re.fullmatch(r"[a-zà-ÿ. ]{3,}|zł", f) and f.upper() not in codes
        ),
        key=len,
        reverse=True,
    )
    word = "|".join(re.escape(w) for w in words)
    return kept_patterns.compile(
        rf"(?P<cur>{_SYMBOLS}|\b(?:{_CODES}|Rs\.?|RM|R(?=\d)|zł)\s?)\s?(?P<num>{_NUMBER})"
        rf"(?:\s?(?P<mult>{_MULT})\b)?"
        rf"|(?P<num2>{_NUMBER})(?:\s?(?P<mult2>{_MULT}))?\s?"
        rf"(?P<cur2>(?i:{word})|{_CODES})\b"
        rf"|\b(?P<num3>\d{{1,3}}(?:\.\d+)?)(?:(?P<mult3>k|K)|\s?(?P<grand>grand|lakhs?|lacs?|crores?|LPA))\b"
        rf"|\b(?i:{_WORD_NUMBER})(?:\s(?P<cur4>(?i:{word})))?",
    )


INCOME_PHRASES: dict[str, str] = {
    "low": "a modest wage",
    "middle": "a decent salary",
    "high": "good money",
    "very high": "a very high income",
}
"""How a salary reads once its figure goes: the income band, in words."""
LIVING_PHRASES: dict[str, str] = {
    "low": "a modest income",
    "middle": "a decent income",
    "high": "a good income",
    "very high": "a very high income",
}
"""The same bands, for what someone lives on (a pension, a household)."""
MODIFIER_PHRASES: dict[str, str] = {
    "low": "modest",
    "middle": "decent",
    "high": "generous",
    "very high": "very generous",
}
"""The same bands where the amount describes a noun ("a $34k stipend")."""
MODIFIES_NOUN = kept_patterns.compile(
    r"\s+(?!(?:a|an|the|per|each|every|and|or|but|for|in|on|at|to|of|from|before|"
    r"after|which|that|with|is|was|a\s+year|net|gross|plus|now|so|if)\b)[a-z]+\b"
)

CODE_AFTER = kept_patterns.compile(r"\s?([A-Z]{3})\b")
HEDGE_BEFORE = kept_patterns.compile(
    r"(?:\b(?:about|around|roughly|maybe|almost|nearly|over|under|just over|close to|"
    r"just under|approximately|like|only|barely)\s+)$",
    re.IGNORECASE,
)
PERIOD_AFTER = kept_patterns.compile(
    r"^(?:\s*(?:a|per|an|/|each)\s*(?:year|yr|annum|month|mo|hour|hr|h|week|wk)\b"
    r"|\s*(?:annually|yearly|monthly|hourly|weekly)\b)(?:\s+(?:before|after) tax\b)?",
    re.IGNORECASE,
)
PERIOD = kept_patterns.compile(
    r"^\s*(?:a|per|an|/|each)\s*(?P<period>year|yr|annum|month|mo|hour|hr|h|week|wk)\b"
    r"|^\s*(?P<period2>annually|yearly|monthly|hourly|weekly)\b",
    re.IGNORECASE,
)
SALARY_WORDS = kept_patterns.compile(
    r"\b(?:salary|make|makes|making|earn|earns|earning|paid|pay|pays|paying|paycheck|income|wage|wages|"
    r"raise|bonus|offer|clear|cleared|clearing|take home|bring home|working|cleared|"
    r"earned|made|took home|takes home|taking home|brought home|brings home|"
    r"bringing home|"
    r"pulled in|pull in|pulls in|bring in|brought in|gross|grossed|netted|stipend|"
    r"pension|allowance|benefits)\b",
    re.IGNORECASE,
)
RENT_WORDS = kept_patterns.compile(
    r"\b(?:rent|mortgage|lease|apartment|flat)\b", re.IGNORECASE
)
COST_WORDS = kept_patterns.compile(
    r"\b(?:rent|rents|mortgage|lease|price|prices|cost|costs|bill|bills|fee|fees|"
    r"tuition|deposit)\b",
    re.IGNORECASE,
)
"""Words that make the amount after them a sum paid out, not an income."""
PAY_IS = kept_patterns.compile(
    r"\b(?:salary|pension|wage|income|stipend|pay)\s+(?:is|was|will be)\s+$", re.I
)
"""'my salary is' before a figure: the band word alone describes the pay."""
MARKET_BEFORE = kept_patterns.compile(
    r"\b(?:rents?|prices?)\s+(?:in|around|near|here)\b[^,;:]*$", re.IGNORECASE
)
"""A price a place asks ("rent in Brighton is"): it says nothing of the author."""
PAY_NOUN_BEFORE = kept_patterns.compile(
    r"\b(?:salary|pay|wage|wages|income|stipend|pension)\s+$", re.IGNORECASE
)
"""A pay noun right before the figure, with no verb between ("salary around")."""
PAY_OF = kept_patterns.compile(
    r"(?P<det>\b(?:a|an|my|his|her|their|our|the)\s+)(?P<mid>[\w-]+(?P<own>'s)?\s+)?"
    r"(?P<noun>salary|pension|wage|stipend|income|allowance)\s+of\s+$",
    re.IGNORECASE,
)
"""'a salary of' before a figure: the phrase that replaces the figure names the pay."""
SIX_FIGURES = kept_patterns.compile(
    r"\b(?:six|seven)[\s-]figures?\b(?:\s+(?:salary|income))?", re.I
)
MULTIPLIERS = {
    "lakh": 1e5,
    "lakhs": 1e5,
    "lac": 1e5,
    "lacs": 1e5,
    "lpa": 1e5,
    "crore": 1e7,
    "crores": 1e7,
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


SHORT_PERIODS = frozenset({"hour", "hr", "h", "hourly", "week", "wk", "weekly"})
"""Periods whose pay says no year's income: the hours and weeks worked are unsaid."""


def _hours_unsaid(amount: float, per: str, sentence: str) -> bool:
    """Tell a pay by the hour or the week, whose yearly band would be a guess.

    "$19/hr so broke af", "€520 a week, which isn't much": a judgement of a
    year's income ("a decent salary") from them assumes full-time work all
    year, which the author may be far from.
    """
    if per:
        return per in SHORT_PERIODS
    return amount < 100 or bool(re.search(r"\bweek", sentence, re.IGNORECASE))


FULL_YEAR_FLOOR_USD = 10_000
"""A year's pay below this (USD at PPP) is below a year's full-time work at
the lowest wages: a figure with no period read as yearly and falling under it
is more likely a month's pay, so neither reading is sure."""


def _period_unsettled(amount: float, per: str, sentence: str, rate: float) -> bool:
    """Tell whether an amount with no period reads as two bands ("RM6k plus").

    With no "a year"/"a month" in its sentence a figure is read as yearly,
    but a yearly reading below a year's lowest full-time pay (RM6k: about
    3,700 USD) may well be a monthly wage: its band is a guess either way.
    """
    if per or amount < 100 or re.search(r"\b(?:week|month)", sentence, re.I):
        return False
    return amount * rate < FULL_YEAR_FLOOR_USD


def _currency(match: re.Match[str], countries: frozenset[str]) -> float | None:
    """Return USD at PPP per unit of the amount's currency, in the text's economy.

    None where the currency is a word the table gives to no country the
    text names: which money it is cannot be settled.

    "$" in a text set in Canada is Canadian; "francs" Swiss; a figure with no
    currency is in the money of the country the text names, else dollars.
    """
    rates, forms, by_country = currencies()
    written = (
        match.group("cur") or match.group("cur2") or match.group("cur4") or ""
    ).strip()
    local = [by_country[c] for c in sorted(countries) if c in by_country]
    mult = match.group("mult") or match.group("mult2") or match.group("grand") or ""
    if mult.lower() in ("lakh", "lakhs", "lac", "lacs", "lpa", "crore", "crores"):
        local = local or ["INR"]  # lakh and crore are South Asian numbering
    if not written:
        return rates[local[0]] if local else 1.0
    if written.isupper() and written in rates:
        return rates[written]
    codes = forms.get(written.lower()) or forms.get(written.lower().rstrip("s")) or []
    if not codes:
        return 1.0
    chosen = next((c for c in codes if c in local), codes[0])
    if (
        countries
        and chosen not in local
        and chosen != "USD"
        and re.fullmatch(r"[a-z]+", written.lower())
    ):
        # "150 000 francs" in a text set in Cameroon: the word names many
        # currencies and the table's (Swiss) one is not the text's country's;
        # a band from it would be a guess. The dollar is quoted everywhere.
        return None
    return rates[chosen]


def _currency_written(match: re.Match[str], text: str, end: int) -> bool:
    """Tell whether an amount names its currency ("$85k", "45 000 kronor")."""
    if match.group("cur") or match.group("cur2") or match.group("cur4"):
        return True
    return end > match.end()  # "85k CAD": the code after the figure


AUTHOR_PAYS = kept_patterns.compile(
    r"\b(?:I|we)(?:'ve|'d)?\s+(?:\w+ly\s+)?(?:paid|pay|pays|paying)$", re.IGNORECASE
)
"""The author as the payer ("I paid the rent"): the sum goes out, it is no pay."""


def _author_pays(before: str, pay: re.Match[str]) -> bool:
    """Tell whether a pay word has the author paying out ("I paid the rent")."""
    return bool(AUTHOR_PAYS.search(before[: pay.end()])) and not re.match(
        r"\s+(?:myself|ourselves)\b", before[pay.end() :], re.IGNORECASE
    )


def _paid_out(before: str) -> bool:
    """Tell whether the nearest word before an amount that says what it is is a cost."""
    words = [(m.start(), "cost") for m in COST_WORDS.finditer(before)] + [
        (m.start(), "cost" if _author_pays(before, m) else "pay")
        for m in SALARY_WORDS.finditer(before)
    ]
    return bool(words) and max(words)[1] == "cost"


def _pay_word(doc: Any, clause: str, offset: int) -> bool:
    """Tell a clause with a word of pay the parse does not read as a copula's adjective.

    "clearing five hundred a week" is pay; "the ramen (¥950) is clear" is
    not: the same word, an adjective after "is" there.
    """
    for m in SALARY_WORDS.finditer(clause):
        span = (
            doc.char_span(offset + m.start(), offset + m.end(), "expand")
            if doc
            else None
        )
        if span is None or span.root.dep_ != "acomp":
            return True
    return False


def _said_of_another(doc: Any, start: int) -> bool:
    """Tell an amount whose clause has a subject that is neither the author nor a pay.

    "the change saves £140,000 a year", "it costs £35 a month": a saving, a
    cost, a budget is a sum a thing has. A clause said of "I", "we", "my
    salary" or "the pension", or one with its subject left out ("Earn about
    £38k"), may state the author's pay.
    """
    if doc is None:
        return False
    token = next((t for t in doc if t.idx <= start < t.idx + len(t.text)), None)
    for _ in range(8):  # the clause's verb is a few heads up at most
        if token is None or token.head.i == token.i or token.dep_ in ("pobj", "prep"):
            # "unreal for £11.50 an hour": what a preposition ties the amount
            # to is not the clause's subject's sum.
            return False
        token = token.head
        if token.pos_ not in ("VERB", "AUX"):
            continue
        subjects = [c for c in token.children if c.dep_ in ("nsubj", "nsubjpass")]
        if subjects:
            said = " ".join(t.text for s in subjects for t in s.subtree)
            if any(w in author_words.ANY for w in said.lower().split()):
                return False
            return not SALARY_WORDS.search(said) and any(map(_a_thing, subjects))
    return False


def _a_thing(subject: Any) -> bool:
    """Tell a subject that is a thing or someone else: "the change", "it", "she".

    A bare noun ("ur job is ...", "Bread is like 54 a year") may be the
    author's own, written without its owner.
    """
    if subject.pos_ == "PRON":
        person = subject.morph.get("Person")
        return bool(person) and person[0] == "3"
    return subject.ent_type_ == "PERSON" or any(
        c.dep_ == "det" and c.lower_ in ("the", "this", "that", "a", "an")
        for c in subject.children
    )


def detect_money(
    text: str, countries: Iterable[str] = (), doc: Any = None
) -> list[Cue]:
    """Find money amounts; salaries state the income level, other sums hint at it.

    An amount is a pay only in a frame of pay: a pay word in its clause
    ("earn", "salary", "take home") or, for a yearly or hourly figure, a
    clause said of the author ("I get about £21,000 a year"); one said of a
    thing ("the change saves £140,000 a year") is a sum, not an income.

    A salary's span takes in a hedge before it and its period after it
    ("about 140,000 francs a year"), so the band phrase that replaces it
    reads in the sentence ("I make good money, which ...").

    Args:
        text: The text to scan.
        countries: The countries the text names: an amount is in their money.
        doc: The engine's parse of ``text``, which says whose clause an
            amount stands in; without it, every yearly figure may be a pay.

    """
    cues: list[Cue] = []
    where = frozenset(countries)
    rates = currencies()[0]
    last_end = 0
    for m in amount_pattern().finditer(text):
        last_end, previous_end = m.end(), last_end
        cur = (m.group("cur") or m.group("cur2") or "").strip()
        if re.fullmatch(_CODES, cur) and cur not in rates:
            continue  # three capitals that name no currency ("EST", "NHS")
        raw = m.group("num") or m.group("num2") or m.group("num3")
        mult = (
            m.group("mult") or m.group("mult2") or m.group("mult3") or m.group("grand")
            or m.group("wmult") or ""
        ).lower()  # fmt: skip
        if raw is None:
            words = m.group("wnum").lower()
            value = 1 if words in ("a", "an") else number_value(words)
            if value is None:
                continue
            value *= 100 if m.group("hundred") else 1
            raw = str(value)
        amount = float(re.sub(r"[,\s]", "", raw)) * MULTIPLIERS.get(mult, 1)
        # "$140k CAD": the code after a symbol's figure is the amount's too.
        code = CODE_AFTER.match(text, m.end())
        figure_end = code.end() if code and code.group(1) in rates else m.end()
        sentence_start = max(text.rfind(c, 0, m.start()) for c in ".!?\n")
        sentence_end = min(
            [i for i in (text.find(c, m.end()) for c in ".!?\n") if i >= 0]
            or [len(text)]
        )
        sentence = text[sentence_start + 1 : sentence_end]
        period = PERIOD.match(text[figure_end:])
        per = (
            (period.group("period") or period.group("period2")).lower()
            if period
            else ""
        )
        band = amount_band(amount)
        if (m.group("num3") or m.group("wnum")) and not (
            SALARY_WORDS.search(sentence) or period or mult == "lpa"
        ):
            continue  # a bare "10k" is a race or a step count unless pay is talked of
        if mult == "lpa":
            per = "year"
        hourly_or_yearly = mult == "lpa" or per in (
            "year", "yr", "annum", "annually", "yearly", "hour", "hr", "h", "hourly"
        )  # fmt: skip
        start, end = m.start(), figure_end
        living_on = re.search(
            r"\b(?:on|living on|live on|lives on)\s+(?:(?:about|around|roughly|just|"
            r"almost|nearly|over|under|barely|only)\s+)?$",
            text[:start],
        )
        # The clause before the figure: "when rent in Brighton is" says it is
        # a sum paid out (and a place's price), not an income.
        clause_before = text[max(sentence_start + 1, previous_end) : start]
        paid_out = not living_on and _paid_out(clause_before)
        # The pay word must be the amount's own: in its clause ("Take home is
        # about"), or right after it ("£38k salary"); "made" in another clause
        # ("At £34.99 it costs more, but the return made it") says no pay.
        clause_after = re.split(r"[,;:.!?]|\bbut\b", text[end:], maxsplit=1)[0]
        pay_word = _pay_word(doc, clause_before, start - len(clause_before)) or (
            _pay_word(doc, clause_after, end)
        )
        if not paid_out and (
            living_on
            or pay_word
            or (
                hourly_or_yearly
                and not RENT_WORDS.search(sentence)
                and not _said_of_another(doc, start)
            )
        ):
            rate = _currency(m, where)
            level = income_level(_yearly(amount, per, sentence) * (rate or 1.0))
            # A pension or what one lives on comes every week of the year.
            lives_on = bool(
                living_on or re.search(r"\bpension|\bretired", sentence, re.I)
            )
            if (
                rate is None
                or _period_unsettled(amount, per, sentence, rate)
                or (not _currency_written(m, text, figure_end))
                or (_hours_unsaid(amount, per, sentence) and not lives_on)
            ):
                # "9 LPA", "40k a year": without its currency a figure's band
                # is a guess at the economy; "$19/hr", "€520 a week": a year's
                # band from an hour's or a week's pay guesses the hours worked.
                # The placeholder takes the figure.
                figure_start = m.start("num3") if m.group("num3") else m.start()
                figure_end = m.end()
                if text.startswith("/", figure_end):  # "$19/hr" is one word
                    slash = PERIOD_AFTER.match(text[figure_end:])
                    figure_end += slash.end() if slash else 0
                cues.append(
                    Cue(figure_start, figure_end, text[figure_start:figure_end],
                        "income_level", "salary", level, "[INCOME]", 4,
                        exact=True, sure=False)
                )  # fmt: skip
                continue
            # "living on R25,000 a month", a pension: an income, not a salary.
            phrases = LIVING_PHRASES if lives_on else INCOME_PHRASES
            hedge = HEDGE_BEFORE.search(text[:start])
            start = hedge.start() if hedge else start
            after = PERIOD_AFTER.match(text[end:])
            end = end + after.end() if after else end
            phrase = phrases[level]
            pay_of = PAY_OF.search(text[:start])
            if pay_of:
                # "a salary of $58k": "a decent salary", not "a salary of" one.
                noun = f"{MODIFIER_PHRASES[level]} {pay_of.group('noun').lower()}"
                if pay_of.group("own"):  # "a teacher's salary of": the owner stays
                    start, phrase = pay_of.start("noun"), noun
                else:  # "a state pension of" -> "a modest state pension"
                    det = pay_of.group("det")
                    det = "a " if det.strip().lower() in ("a", "an") else det
                    start = pay_of.start()
                    phrase = (
                        f"{det}{MODIFIER_PHRASES[level]} {pay_of.group('mid') or ''}"
                        f"{pay_of.group('noun').lower()}"
                    )
            elif PAY_IS.search(text[:start]):
                # "my salary is decent", not "my salary is a decent salary"
                phrase = MODIFIER_PHRASES[level]
            elif PAY_NOUN_BEFORE.search(text[:start]):
                # "salary around RM7k per month": a band phrase would name the
                # pay twice ("salary a decent salary"); the figure goes alone.
                phrase = "[INCOME]"
            elif (
                not after
                and re.search(r"\b(?:a|an|my|our|his|her|their|the)\s+$", text[:start])
                and MODIFIES_NOUN.match(text[end:])
            ):
                phrase = MODIFIER_PHRASES[
                    level
                ]  # "a $34k stipend" -> "a decent stipend"
            cues.append(
                Cue(start, end, text[start:end], "income_level", "salary", level,
                    phrase, 4, exact=True, sure=phrase != "[INCOME]")
            )  # fmt: skip
        elif MARKET_BEFORE.search(clause_before):
            continue  # "rent in Brighton is £1,200": the place's price, not mine
        elif re.search(r"\b(?:the|a|an|this|that)\s+$", text[:start]) and (
            MODIFIES_NOUN.match(text[end:])
        ):
            continue  # "plus the £60 service charge": a thing's price, no income;
            # "the four figures rent" would not read either
        else:
            kind = "rent" if RENT_WORDS.search(sentence) else "amount"
            # "a few thousand" for £1,200 is false: the low end of a band reads
            # as its count of figures ("four figures"), which is true of it.
            band_phrase = band
            if band in ("a few hundred", "a few thousand"):
                if amount < 2 * band_range(band)[0]:
                    band_phrase = (
                        "three figures" if "hundred" in band else "four figures"
                    )
            hedge = HEDGE_BEFORE.search(text[:start])
            start = (
                hedge.start()
                if hedge and band.startswith(("a ", "tens", "hundreds"))
                else start
            )
            cues.append(
                Cue(start, end, text[start:end], "income_level", kind, band,
                    band_phrase,
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
