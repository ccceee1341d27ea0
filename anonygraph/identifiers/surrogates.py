"""Realistic fake values of each identifier kind, from Faker.

A surrogate keeps the shape a reader relies on: a first name stays one word,
a lowercase chat name stays lowercase, a phone number keeps its country code
and separators, an IP its family. Kinds Faker has no generator for (national
IDs, plates, passports, record numbers, postcodes) keep the original's layout
with each letter and digit drawn anew.
"""

from __future__ import annotations

import random
import re
import string
from functools import lru_cache
from typing import Any

LOCALES = ("en_US", "en_GB", "de_DE", "en_IN")
"""Faker locales the surrogates are drawn from."""


@lru_cache(maxsize=1)
def _faker() -> Any:
    from faker import Faker

    return Faker(list(LOCALES))


def reshape(value: str, rng: random.Random, *, keep_prefix: int = 0) -> str:
    """Draw each letter and digit of ``value`` anew, keeping its layout."""
    out = list(value[:keep_prefix])
    for ch in value[keep_prefix:]:
        if ch.isdigit():
            out.append(rng.choice(string.digits))
        elif ch.isalpha() and ch.isascii():
            pool = string.ascii_uppercase if ch.isupper() else string.ascii_lowercase
            out.append(rng.choice(pool))
        else:
            out.append(ch)
    return "".join(out)


def _like_case(fake: str, original: str) -> str:
    return fake.lower() if original.islower() else fake


def surrogate(kind: str, value: str, rng: random.Random) -> str:
    """Return a fake value of ``kind`` drawn from ``rng`` (seeded by the caller)."""
    # One locale per value, so a first and a last name belong together.
    fake = _faker()[rng.choice(LOCALES)]
    fake.seed_instance(rng.getrandbits(64))
    if kind == "PERSON":
        words = len(value.split())
        name = fake.first_name()
        if words > 1:
            name += f" {fake.last_name()}"
        return _like_case(name, value)
    if kind == "EMAIL":
        return str(fake.email())
    if kind == "PHONE":
        # Keep "+CC" so the number still reads as the same country's.
        code = re.match(r"\+\d{1,3}(?=\D)", value)
        return reshape(value, rng, keep_prefix=code.end() if code else 0)
    if kind == "CARD":
        return _luhn_like(value, rng)
    if kind == "IBAN":
        return str(fake.iban())
    if kind == "IP_ADDRESS":
        return str(fake.ipv6() if ":" in value else fake.ipv4_public())
    if kind == "URL":
        return f"https://{fake.domain_name()}/{fake.user_name()}"
    if kind == "HANDLE":
        head = re.match(r"@|/?u/", value)
        return f"{head.group(0) if head else ''}{fake.user_name()}"
    if kind == "ADDRESS":
        return str(fake.street_address())
    if kind == "DATE_OF_BIRTH" and not any(ch.isdigit() for ch in value):
        return str(fake.date_of_birth().strftime("%d %B %Y"))
    return reshape(value, rng)


def _luhn_like(value: str, rng: random.Random) -> str:
    """A fake card number in the original's layout that passes the Luhn check."""
    fake = reshape(value, rng)
    digits = [int(ch) for ch in fake if ch.isdigit()]
    if not digits:
        return fake
    body = digits[:-1]
    total = 0
    for i, d in enumerate(reversed(body)):
        d = d * 2 if i % 2 == 0 else d
        total += d - 9 if d > 9 else d
    check = (10 - total % 10) % 10
    last = max(i for i, ch in enumerate(fake) if ch.isdigit())
    return fake[:last] + str(check) + fake[last + 1 :]
