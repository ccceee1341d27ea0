"""A person's name written again in another script, in brackets after it.

Forms and rosters of many countries give a name twice: "Yuki Tanaka (田中
由紀)", "Олжас (Olzhas Bekov)". The detector finds one spelling; the other,
in the bracket right after it, is the same person's.
"""

from __future__ import annotations

from anonygraph.identifiers.identifier import Identifier
from anonygraph.tools import kept_patterns

NATIVE_SCRIPT = kept_patterns.compile(
    r"[ \t]*[(（](?P<v>[^\x00-\u024f()（）\n](?:[^\x00-\u024f()（）\n]| ){0,29}?)[)）]"
)
"""A parenthesis of letters outside the Latin script ("(田中 由紀)")."""


LATIN_SPELLING = kept_patterns.compile(
    r"[ \t]*[(（](?P<v>[A-ZÀ-ÞĀ-Ž][^\W\d_]+(?:[ -][A-ZÀ-ÞĀ-Ž][^\W\d_]+){1,3})[)）]"
)
"""A parenthesis of two to four capitalized Latin words ("(Olzhas Bekov)")."""


def names_in_other_scripts(text: str, found: list[Identifier]) -> list[Identifier]:
    """Find a name written again in another script, in brackets right after it.

    "Yuki Tanaka (田中 由紀)", "Dmitri Volkov (Дмитрий Волков)": the bracket
    holds the same person's name in letters outside the Latin script; "Олжас
    (Olzhas Bekov)": a name outside it, then its Latin spelling (two words
    or more of a name's shape).
    """
    from anonygraph.identifiers.recognizers.form_names import name_shaped

    extra: list[Identifier] = []
    for ident in found:
        if ident.kind != "PERSON":
            continue
        # "Олжас (Olzhas Bekov)", "ተስፋይ ገብረመድህን (Tesfay Gebremedhin)": a
        # name outside the Latin script, then its spelling in Latin letters.
        latin = LATIN_SPELLING.match(text, ident.end)
        if (
            latin
            and any(c.isalpha() and ord(c) > 0x24F for c in ident.text)
            and name_shaped(latin.group("v"))
        ):
            start, end = latin.span("v")
            extra.append(
                Identifier("PERSON", start, end, latin.group("v"), 0.6, "NameMention")
            )
            continue
        m = NATIVE_SCRIPT.match(text, ident.end)
        # Two letters at least: "（父）" after a name says whose father it is.
        if m and sum(c.isalpha() for c in m.group("v")) >= 2:
            start, end = m.span("v")
            extra.append(
                Identifier("PERSON", start, end, m.group("v"), 0.6, "NameMention")
            )
    return extra
