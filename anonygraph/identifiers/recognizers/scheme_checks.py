"""Check rules of more national ID schemes, each from the scheme's published rule.

Balkan and Baltic birth-date numbers (JMBG, EGN, asmens kodas and
isikukood, kennitala), tax and citizen numbers with a weighted check digit
(OIB, Kazakh IIN, Ukrainian RNOKPP, Iranian code melli, Japanese My
Number), identity cards whose letters carry a value (Taiwan, Hong Kong,
the Polish ID card), and numbers that hold a birth date or year (Mongolian
register, Uzbek PINFL, Senegalese NIN) or a plain check (Uruguayan
cédula). Each function takes the number without separators and tells
whether its rule holds; `id_schemes` pairs each with its shape and labels.
"""

from __future__ import annotations

import re
from datetime import date


def is_date(year: int, month: int, day: int) -> bool:
    """Tell whether the numbers make a calendar date."""
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True


def weighted(number: str, weights: tuple[int, ...]) -> int:
    """Return the sum of the digits of ``number`` times their weights."""
    return sum(int(d) * w for d, w in zip(number, weights, strict=False))


def yu_jmbg(n: str) -> bool:
    """JMBG (Serbia, Bosnia, Montenegro, North Macedonia; EMŠO in Slovenia).

    Day, month, the last three digits of the year, region, serial, and a
    mod 11 check digit over weights 7 to 2, twice.
    """
    year = int(n[4:7]) + (1000 if n[4] == "9" else 2000)
    if not is_date(year, int(n[2:4]), int(n[:2])):
        return False
    value = 11 - weighted(n, (7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2)) % 11
    return (0 if value > 9 else value) == int(n[12])


def bg_egn(n: str) -> bool:
    """Bulgarian EGN: a birth date (month plus 20 or 40 by century), mod 11."""
    month, century = int(n[2:4]), 1900
    if month > 40:
        month, century = month - 40, 2000
    elif month > 20:
        month, century = month - 20, 1800
    if not is_date(century + int(n[:2]), month, int(n[4:6])):
        return False
    value = weighted(n, (2, 4, 8, 5, 10, 9, 7, 3, 6)) % 11
    return (0 if value == 10 else value) == int(n[9])


def hr_oib(n: str) -> bool:
    """Croatian OIB: eleven digits, an ISO 7064 mod 11,10 check digit."""
    product = 10
    for d in n[:10]:
        total = (int(d) + product) % 10 or 10
        product = total * 2 % 11
    return (11 - product) % 10 == int(n[10])


def baltic_code(n: str) -> bool:
    """Lithuanian asmens kodas and Estonian isikukood: sex and century, a date, mod 11.

    The check digit is the sum over weights 1-9, 1 mod 11; where that is 10,
    over weights 3-9, 1-3; where that is 10 again, 0.
    """
    if n[0] not in "123456":
        return False
    century = 1800 + 100 * ((int(n[0]) - 1) // 2)
    if not is_date(century + int(n[1:3]), int(n[3:5]), int(n[5:7])):
        return False
    value = weighted(n, (1, 2, 3, 4, 5, 6, 7, 8, 9, 1)) % 11
    if value == 10:
        value = weighted(n, (3, 4, 5, 6, 7, 8, 9, 1, 2, 3)) % 11 % 10
    return value == int(n[10])


def is_kennitala(n: str) -> bool:
    """Icelandic kennitala: a birth date, a serial, a mod 11 digit, the century."""
    if n[9] not in "890":
        return False
    year = {"8": 1800, "9": 1900, "0": 2000}[n[9]] + int(n[4:6])
    if not is_date(year, int(n[2:4]), int(n[:2]) % 40):
        return False
    value = 11 - weighted(n, (3, 2, 7, 6, 5, 4, 3, 2)) % 11
    return value != 10 and value % 11 == int(n[8])


def kz_iin(n: str) -> bool:
    """Kazakh IIN: a birth date, century and sex, a serial, a mod 11 digit."""
    if n[6] not in "0123456" or not is_date(2000, int(n[2:4]), int(n[4:6])):
        return False
    value = weighted(n, tuple(range(1, 12))) % 11
    if value == 10:
        value = weighted(n, (3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 2)) % 11
    return value != 10 and value == int(n[11])


def ua_rnokpp(n: str) -> bool:
    """Ukrainian RNOKPP (tax number): weights -1 5 7 9 4 6 10 5 7, mod 11, mod 10."""
    return weighted(n, (-1, 5, 7, 9, 4, 6, 10, 5, 7)) % 11 % 10 == int(n[9])


def ir_melli(n: str) -> bool:
    """Iranian code melli: weights 10 to 2, a mod 11 check digit."""
    if len(set(n)) == 1:
        return False
    rest = weighted(n, tuple(range(10, 1, -1))) % 11
    return int(n[9]) == (rest if rest < 2 else 11 - rest)


def jp_my_number(n: str) -> bool:
    """Japanese My Number: twelve digits, a weighted mod 11 check digit."""
    body = n[:11][::-1]
    total = sum(int(d) * (i + 2 if i < 6 else i - 4) for i, d in enumerate(body))
    rest = total % 11
    return int(n[11]) == (0 if rest <= 1 else 11 - rest)


def my_mykad(n: str) -> bool:
    """Malaysian MyKad: a birth date, a state or country code, a serial."""
    place = int(n[6:8])
    return is_date(2000, int(n[2:4]), int(n[4:6])) and place != 0


TW_LETTERS = "ABCDEFGHJKLMNPQRSTUVXYWZIO"
"""Taiwan's ID letters in the order of their values 10 to 35."""


def tw_id(n: str) -> bool:
    """Taiwanese ID: a region letter (valued 10-35), sex, seven digits, a check."""
    value = TW_LETTERS.index(n[0].upper()) + 10
    total = value // 10 + value % 10 * 9 + weighted(n[1:9], (8, 7, 6, 5, 4, 3, 2, 1))
    return n[1] in "12" and (total + int(n[9])) % 10 == 0


def hk_hkid(n: str) -> bool:
    """Hong Kong ID: one or two letters, six digits, a mod 11 check (10 is A)."""
    match = re.fullmatch(r"([A-Z]{1,2})(\d{6})\(?([\dA])\)?", n.upper())
    if match is None:
        return False
    letters, body, check = match.groups()
    values = [36] * (2 - len(letters)) + [ord(c) - 55 for c in letters]
    total = values[0] * 9 + values[1] * 8 + weighted(body, (7, 6, 5, 4, 3, 2))
    value = (11 - total % 11) % 11
    return check == ("A" if value == 10 else str(value))


def pl_id_card(n: str) -> bool:
    """Polish ID card: three letters, a check digit, five digits (7 3 1 weights)."""
    values = [ord(c) - 55 for c in n[:3].upper()] + [int(d) for d in n[4:9]]
    weights = (7, 3, 1, 7, 3, 1, 7, 3)
    return sum(v * w for v, w in zip(values, weights, strict=True)) % 10 == int(n[3])


def mn_register(n: str) -> bool:
    """Mongolian register number: two Cyrillic letters, a birth date, a serial.

    The date is year, month, day; a month past 20 is one born from 2000.
    """
    month = int(n[4:6])
    year = 2000 if month > 20 else 1900
    return is_date(year + int(n[2:4]), month - 20 if month > 20 else month, int(n[6:8]))


def uz_pinfl(n: str) -> bool:
    """Uzbek PINFL (JShShIR): sex and century, a birth date (day, month, year)."""
    if n[0] not in "123456":
        return False
    century = 1800 + 100 * ((int(n[0]) - 1) // 2)
    return is_date(century + int(n[5:7]), int(n[3:5]), int(n[1:3]))


def uy_ci(n: str) -> bool:
    """Uruguayan cédula: a check digit over weights 2 9 8 7 6 3 4 (mod 10)."""
    body = n[:-1].zfill(7)
    return (10 - weighted(body, (2, 9, 8, 7, 6, 3, 4)) % 10) % 10 == int(n[-1])


def sn_nin(n: str) -> bool:
    """Senegalese CNI/NIN: sex digit, a place code, a birth year, a serial."""
    return n[0] in "12" and 1900 <= int(n[4:8]) <= 2030


def luhn_digits(n: str) -> bool:
    """Check the Luhn (mod 10) digit of a digit string."""
    total = 0
    for i, ch in enumerate(reversed(n)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def pl_pesel(n: str) -> bool:
    """Polish PESEL: a birth date (the month carries the century), weights 1 3 7 9."""
    month = int(n[2:4])
    century = {0: 1900, 1: 2000, 2: 2100, 3: 2200, 4: 1800}[month // 20]
    if not is_date(century + int(n[:2]), month % 20, int(n[4:6])):
        return False
    return (10 - weighted(n, (1, 3, 7, 9, 1, 3, 7, 9, 1, 3)) % 10) % 10 == int(n[10])


def ro_cnp(n: str) -> bool:
    """Romanian CNP: sex and century, a birth date, a county, a mod 11 digit."""
    century = {"1": 1900, "2": 1900, "3": 1800, "4": 1800, "5": 2000, "6": 2000}
    year = century.get(n[0], 1900) + int(n[1:3])
    if n[0] == "0" or not is_date(year, int(n[3:5]), int(n[5:7])):
        return False
    if not 1 <= int(n[7:9]) <= 52:
        return False
    rest = weighted(n, (2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9)) % 11
    return (1 if rest == 10 else rest) == int(n[12])


def za_id(n: str) -> bool:
    """South African ID: a birth date, a serial, citizenship 0-2, a Luhn digit."""
    return is_date(2000, int(n[2:4]), int(n[4:6])) and n[10] in "012" and luhn_digits(n)


def se_pnr(n: str) -> bool:
    """Swedish personnummer: a birth date (coordination: day plus 60), a Luhn digit."""
    digits = n[-10:]
    day = int(digits[4:6])
    return is_date(2000, int(digits[2:4]), day - 60 if day > 60 else day) and (
        luhn_digits(digits)
    )


def sv_dui(n: str) -> bool:
    """Salvadoran DUI: eight digits, a check digit over weights 9 to 2 (mod 10)."""
    return (10 - weighted(n, (9, 8, 7, 6, 5, 4, 3, 2)) % 10) % 10 == int(n[8])


def ru_snils(n: str) -> bool:
    """Russian SNILS: nine digits weighted 9 to 1, the sum mod 101 (100 gives 00)."""
    total = weighted(n, (9, 8, 7, 6, 5, 4, 3, 2, 1)) % 101
    return (0 if total == 100 else total) == int(n[9:11])


def ru_inn(n: str) -> bool:
    """Russian personal INN: twelve digits, two check digits (mod 11, mod 10)."""
    first = weighted(n, (7, 2, 4, 10, 3, 5, 9, 4, 6, 8)) % 11 % 10
    second = weighted(n, (3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8)) % 11 % 10
    return first == int(n[10]) and second == int(n[11])
