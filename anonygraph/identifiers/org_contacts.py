"""An organization's public line, told by where the number stands, in any language.

The phone recognizer leaves a number its cue words call a desk's
("Helpdesk:", "our office"); many letters, forms and receipts name the
organization instead and put its line beside the name, in a language
whose desk words we do not list. Two places make a number the
organization's, not a person's:

- the text's heading: the first line of a text of several lines, holding
  no person's name and no word by which the writer offers their own
  number ("Rīgas Centrālā bibliotēka (…), tālr. 67 037 700", "محل الذهبي
  للرهونات، عمّان (هاتف المحل 06 465 9900)");
- the clause of an organization's name: a word headed by an organization
  noun (a clinic, a surgery, a board, an information centre, in their
  cognates across languages) before the number in its clause, after any
  person's name there ("GP: Dr Rhodri Bevan, Taff Vale Surgery 01443 …",
  "the Residential Tenancies Board can be reached on 0818 …").

The clause's organization also owns the site or desk mailbox that follows
its number ("Info e prenotazioni: 06 …, www.museo…"), and the line it owns
("the bursar's number is …"); a row of fields parted by "·" or "|" that a
role mailbox closes is the organization's, as is each contact in it; so is
a number a sentence of common words offers in the last lines of a text
whose first line names an organization ("For updates call 876-…"). A
"person" find that holds an organization's noun names the organization.

The number stays as the author wrote it; a person's number beside their
name or their own label ("Mobile", "my") is still replaced, and a contact
that spells a word of a person's name found in the text stays a find.
"""

from __future__ import annotations

import re

from anonygraph.identifiers.identifier import Identifier
from anonygraph.identifiers.recognizers.name_checks import LETTER
from anonygraph.tools import kept_patterns

NUMBER_KINDS = frozenset({"PHONE", "NUMBER"})
"""Kinds of a find that may be an organization's line."""

HEADING_PLACES = frozenset({"ADDRESS", "POSTCODE"})
"""Kinds a letterhead holds beside its line: the organization's address."""

CONTACT_KINDS = NUMBER_KINDS | HEADING_PLACES | {"URL"}
"""Kinds of an organization's contact under its heading or marked public."""

PUBLIC = kept_patterns.compile(
    r"(?i)(?<![^\W\d_])(?:public|publique?|p[úu]blic[oa]|pubblic[oa]|"
    r"öffentlich\w*|offentlig|publiczn\w*)(?![^\W\d_])"
)
"""The word by which a writer marks a contact as public ("720 Chuy Ave
(public)", "# public contact in footer: …", "Carpets (public): …")."""

HEADING_LINES = 3
"""Lines a letterhead spans at most: the name and a line or two of contacts."""

BANK_HEADS = kept_patterns.compile(
    r"(?i)bank|banco|banque|banca|بنك|مصرف|銀行|银行|은행"
)
"""Organization nouns that name a bank: a bank's name before an account
number is where a person keeps it ("Bank: Zanaco, account 0874 …")."""

ORG_HEADS = kept_patterns.compile(
    r"(?i)(?<![^\W\d_])(?:surger(?:y|ies)|clinic|klinik|cl[ií]nica|clinique|"
    r"pharmac|farmac|apothe|apotek|dental|dentist|ambulant|hospital|h[ôo]pital|"
    r"ospedale|spital|bolnic|board|council|ministr|municipal|op[ćc]ina|comune|"
    r"mairie|ayuntamiento|prefeitura|bibliot|library|museum|museo|mus[ée]e|"
    r"gimnas|gym|fitness|centre|center|centro|zentrum|centar|центр|център|"
    r"school|schule|escuela|[ée]cole|escola|scuola|skola|[šs]kola|college|"
    r"coll[èe]ge|colegio|universi[td]|institut(?!ion)|academ|akadem|cooperativ|"
    r"associa|asociaci|fundaci|funda[çc][ãa]o|foundation|administra|"
    r"organi[sz]a(?:tion|ci[óo]n|cij|cj|[çc][ãa]o|zione)|organisme|organismo|"
    r"kinderopvang|kindergarten|liceo|lyc[ée]e|desk(?![^\W\d_])|hotel|restaurant|caf[ée]|bakery|shop|store|"
    r"tienda|magasin|studio|estudio|servic|servizi|agency|agencia|agentur|insurance|assur|"
    r"versicher|seguro|ασφαλ|informa[cçțtz]|информ|info(?![^\W\d_])|infolin|hotline|bank|banco|banque|banca|"
    r"r[ée]ception|recepci|recep[çc][ãa]o|accueil|r[ée]clam|bursar|portaria|"
    r"concierge|club|klub|secretar|sekretar|kanzlei|notar|registry|registrar|"
    r"محل|متجر|مكتب|مستشفى|عيادة|صيدلية|بنك|مصرف|شركة|مدرسة|جامعة|مركز)"
)
"""Stems of the nouns that head an organization's name or its desk, in the
languages of the texts we read ("Zobni ambulanti", "bibliotēka", "Surgery",
"infolinka", "Информационен център", "محل الذهبي")."""

SEAT_HEADS = kept_patterns.compile(
    r"(?i)(?<![^\W\d_])(?:office|bureau|b[üu]ro|ufficio|oficina|escrit[óo]rio|"
    r"societ(?:y|ies)|sociedad|soci[ée]t[ée]|verein|gesellschaft)(?![^\W\d_])"
    # A compound ending in an office's noun ("Personalbüro", "Geschäftsstelle").
    r"|(?<![^\W\d_])[^\W\d_]{3,}(?:b[üu]ro|stelle|zentrum|verwaltung|kontor(?:et)?|praxis)"
    r"(?![^\W\d_])"
    # Scripts without spaces or case: the noun closes the name ("…動物病院").
    r"|病院|医院|診療所|クリニック|事務所|役所|役場|学校|銀行|会社|協会|組合|"
    r"センター|诊所|公司|银行|中心|事务所|병원|의원|은행|학교|센터|사무소"
)
"""Nouns of an organization's seat or body besides `ORG_HEADS` (an office,
a society, a compound or a script that writes the noun inside the word);
kept here, apart from the heads other modules read as not a person's."""

OWN_NUMBER = kept_patterns.compile(
    r"(?i)\b(?:me|my|mine|i|i'm|mich|mir|mein\w*|moi|mon|ma|mi|mio|mia|meu|"
    r"minha|mój|moja|mig|min|mitt|mobile?|móvil|celular|cell|handy|whats ?app|"
    r"home|private?|personal|privat|casa|your|yours|votre|vos|ihre?|deine?|"
    r"tu|tus|seu|sua|uw|jouw)\b"
)
"""Words by which a writer offers their own number or asks for the reader's
("confirm your … account 43917285"), or a person's line."""

WEB_ADDRESS = kept_patterns.compile(
    r"[^\s@]+@[^\s@]+|(?<![\w.])(?:https?://)?(?:[\w-]+\.)+[^\W\d_]{2,}(?:/\S*)?"
)
"""A mailbox or a site: its pieces ("….example.my", "me@…") are no
writer's own words."""


def _offers_own(words: str) -> bool:
    """Tell words by which a writer offers their own number (`OWN_NUMBER`).

    A mailbox's or a site's pieces do not count: "billing@….example.my"
    names Malaysia, not the writer.
    """
    return OWN_NUMBER.search(WEB_ADDRESS.sub(" ", words)) is not None


CLAUSE_END = kept_patterns.compile(r"[.!?][ \t]+(?=[^\W\d_])|;[ \t]|\n")
"""Where the clause a number closes begins: after a sentence's stop or a line
("tel. 04 574 …" is an abbreviation's stop)."""

FIELD_MARK = kept_patterns.compile(r"[ \t][·|•][ \t]")
"""A mark between a row's fields ("Vessel: Sea Star · Agent: Harbour
Agency, +253 …"): a name in an earlier field is not the number's."""


def keep_org_contacts(text: str, found: list[Identifier]) -> list[Identifier]:
    """Drop the numbers that stand as an organization's public line.

    Args:
        text: The text the finds are in.
        found: Non-overlapping finds sorted by start.

    Returns:
        ``found`` without the numbers of a heading or of an organization's
        clause (see the module docstring).

    """
    persons = [i for i in found if i.kind == "PERSON" and not _org_named(i.text)]
    letterhead = _letterhead(text, found)
    name_words = {
        w
        for p in persons
        for w in re.findall(rf"{LETTER}{{3,}}", p.text)
        if w.istitle()
    }
    return [
        i
        for i in found
        if not (
            (
                (i.kind in CONTACT_KINDS or _desk_mailbox(i))
                and (
                    any(s <= i.start and i.end <= e for s, e in letterhead)
                    or _public(text, i)
                    or (i.kind in NUMBER_KINDS and _mailbox_line(text, i, found))
                    or _contact_row(text, i, found)
                )
            )
            or (
                i.kind in NUMBER_KINDS
                and (
                    _in_heading(text, i, found)
                    or _in_org_clause(text, i, persons)
                    or _in_footer(text, i, found)
                )
            )
            # "Info e prenotazioni: 06 …, www.museo…", "Agent: Harbour
            # Agency, +253 …, ops@harbour…": the site or desk mailbox that
            # follows the organization's name in its clause.
            or (
                (i.kind == "URL" or _desk_mailbox(i))
                and _in_org_clause(text, i, persons, strict=True)
            )
            # "Pay to club a/c 38-9014-…", "to school account 0917 …": the
            # organization's account, named before it.
            or (
                i.kind == "BANK_ACCOUNT"
                and _in_org_clause(text, i, persons, banks=False)
            )
        )
        # A contact that spells a word of a person's name found in the text
        # ("Città di San Marino" beside the applicant's husband Marino) would
        # leave that name standing: it stays a find.
        or _spells_a_name(i.text, name_words)
    ]


def _spells_a_name(value: str, name_words: set[str]) -> bool:
    """Tell a value that holds one of ``name_words`` as a whole word."""
    return bool(name_words) and any(
        w in name_words for w in re.findall(rf"{LETTER}{{3,}}", value)
    )


def _letterhead(text: str, found: list[Identifier]) -> list[tuple[int, int]]:
    """Return the spans of the lines of the text's letterhead.

    A letterhead is the text's first lines, up to `HEADING_LINES`, before a
    blank line and before the first line that holds a person's find or a
    word by which a writer offers their own contact ("SUNVELD ENERGY (PVT)
    LTD — QUOTATION" over "12 Kelvin Road North, Harare · +263 …", "Office:
    880 Commerce Street …" under a tax office's name). A line counts once a
    line names an organization (`_names_organization`) or by its own label
    ("Boutique : Riviera 2 …" under a repair slip's title): "Jane Doe" over
    her address, or "Re: Return of deposit - Apt 12 …", opens none.
    """
    # A person's name, mailbox, birth date or card on a line makes it theirs;
    # a company's registration number may read as a national ID.
    persons = [
        i
        for i in found
        if i.kind not in CONTACT_KINDS | {"NATIONAL_ID", "BANK_ACCOUNT"}
        and not _desk_mailbox(i)
        and not (i.kind == "PERSON" and _org_named(i.text))
    ]
    spans: list[tuple[int, int]] = []
    named = False
    start = 0
    for line in text.split("\n")[:HEADING_LINES]:
        end = start + len(line)
        if not line.strip() or _offers_own(line):
            break
        if any(start <= p.start <= end for p in persons):
            break
        named = named or _names_organization(line)
        if named or org_label(line):
            spans.append((start, end))
        start = end + 1
    return spans if text[start:].strip() else []


DESK_LOCAL = kept_patterns.compile(r"[^\W\d_]{2,20}")
"""A mailbox's local part of one word ("payments", "relief", "prijava"): a
desk's, where a person's joins names or initials ("delphine.ezr")."""


def _desk_mailbox(ident: Identifier) -> bool:
    """Tell an e-mail address whose local part is one word (a desk's)."""
    local = ident.text.partition("@")[0]
    return ident.kind == "EMAIL" and DESK_LOCAL.fullmatch(local) is not None


def _mailbox_line(text: str, ident: Identifier, found: list[Identifier]) -> bool:
    """Tell a number on a line whose mailbox is an organization's role address.

    "From: reservas@puntabejuco-marina.example.pa (tel +507 240-5512)": the
    role address (one the e-mail recognizer left) tells whose the line is.
    """
    line_start = text.rfind("\n", 0, ident.start) + 1
    line_end = text.find("\n", ident.end)
    line_end = line_end if line_end >= 0 else len(text)
    line = text[line_start:line_end]
    if _offers_own(line) or any(
        line_start <= f.start < line_end and f.kind not in CONTACT_KINDS for f in found
    ):
        return False
    return bool(re.search(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", line))


ORG_LABEL = kept_patterns.compile(
    r"(?i)^[ \t(]*(?:office|oficina|bureau|büro|ufficio|escrit[óo]rio|company|"
    r"compa[ñn][íi]a|empresa|entreprise|soci[ée]t[ée]|firma|organi[sz]er|"
    r"organi[sz]ator|organizador|organisateur|veranstalter|boutique|magasin|"
    r"tienda|loja|negozio|head ?office|headquarters|sede|si[èe]ge|agence|"
    r"agencia|filiale|sucursal|branch)[ \t]*[:：]"
)
"""A line's label that names an organization's own seat ("Office:",
"Boutique :", "Organizator:")."""

LEGAL_FORM = kept_patterns.compile(
    r"(?i)(?<![^\W\d_])(?:ltd|ltda|llc|inc|gmbh|plc|pvt|s\.?a\.?s?|s\.?r\.?l|"
    r"pty|sp\. z o\.o|a/s|oy|ab|bv|nv|kft|corp|co\.|"
    # In capitals only: "AG", "KG", "e.V.", "W.L.L.", "d.o.o." ("ag" is a word).
    r"(?-i:AG|KG|e\.V|W\.L\.L|d\.o\.o))(?![^\W\d_])|&"
)
"""A company's legal form, or an "&" joining its partners' names."""


def org_label(line: str) -> bool:
    """Tell a line whose label names an organization's seat."""
    return bool(ORG_LABEL.match(line))


def _names_organization(heading: str) -> bool:
    """Tell a heading that names an organization, not a person or a subject.

    An organization's noun (`ORG_HEADS`), a legal form or "&", or a name in
    capitals of two words or more ("SUNVELD ENERGY", "DÉNEIGEMENT
    BOURASSA"); "Re: Return of deposit - Apt 12 …" names none.
    """
    return bool(
        ORG_HEADS.search(heading)
        or SEAT_HEADS.search(heading)
        or LEGAL_FORM.search(heading)
        or re.search(r"(?<!\w)[^\W\d_a-z]{3,}[ \t]+[^\W\d_a-z]{3,}(?!\w)", heading)
        or org_label(heading)
    )


def _public(text: str, ident: Identifier) -> bool:
    """Tell a contact its line marks public: in the line's label, or right after.

    "Carpets (public): … 010 55 23 70", "# public contact in footer: …",
    "720 Chuy Ave (public)"; "our public fault line … through <her link>"
    in a sentence marks no other contact.
    """
    line_start = text.rfind("\n", 0, ident.start) + 1
    label, colon, _ = text[line_start : ident.start].rpartition(":")
    after = re.match(r"[ \t]*\(([^()\n]{1,20})\)", text[ident.end :])
    return (bool(colon and PUBLIC.search(label)) and not _offers_own(label)) or bool(
        after and PUBLIC.search(after.group(1))
    )


def _in_heading(text: str, ident: Identifier, found: list[Identifier]) -> bool:
    """Tell a number on the first line of a text of several lines, a heading's.

    A heading holds no other identifier than the organization's address: a
    log's first line ("… cust_id=… phone=+91-… from 2405:201:…") is a
    record, not one.
    """
    first_end = text.find("\n")
    if first_end < 0 or ident.end > first_end or not text[first_end:].strip():
        return False
    prior = text[: ident.start]
    return (
        len(re.findall(rf"{LETTER}{{2,}}", prior)) >= 2
        and not any(
            f.start < first_end and f.kind not in NUMBER_KINDS | HEADING_PLACES
            for f in found
        )
        and not _offers_own(text[:first_end])
    )


def _in_org_clause(
    text: str,
    ident: Identifier,
    persons: list[Identifier],
    *,
    banks: bool = True,
    strict: bool = False,
) -> bool:
    """Tell a number whose clause names an organization before it.

    Without ``banks`` a bank's name does not count (an account number sits
    beside the bank that keeps it); with ``strict`` a person's name anywhere
    in the clause makes it no organization's.
    """
    clause_start = 0
    for m in CLAUSE_END.finditer(text, 0, ident.start):
        clause_start = m.end()
    before = [p.end for p in persons if clause_start <= p.start < ident.start]
    marks = list(
        FIELD_MARK.finditer(text, max(before, default=ident.start), ident.start)
    )
    if marks:
        clause_start = marks[-1].end()
    clause = text[clause_start : ident.start]
    if _offers_own(clause):
        return False
    heads = sorted(
        (
            m
            for pattern in (ORG_HEADS, SEAT_HEADS)
            for m in pattern.finditer(clause)
            if not _in_capitals(clause, m)
            and (banks or not BANK_HEADS.match(m.group(0)))
        ),
        key=lambda m: m.start(),
    )
    if not heads:
        return False
    last = heads[-1]
    if not any(clause_start <= p.start < ident.start for p in persons):
        return True
    if strict:
        return False
    # "GP: Dr Rhodri Bevan, Taff Vale Surgery 01443 …": beside a person, only
    # the organization's own name right before the number makes it its line
    # ("Bill Harrow (board secretary) at (512) …" gives his).
    word_end = re.match(r"[^\W\d_]*", clause[last.end() :])
    rest = clause[last.end() + (word_end.end() if word_end else 0) :]
    if POSSESSED_LINE.fullmatch(rest):
        return True  # "tell Auntie Rose the bursar's number is +256 …"
    # A script without case ("…動物病院（011-…") writes no lowercase noun.
    named = not clause[last.start()].islower() or re.search(
        r"['’]s[ \t]+$",
        clause[: last.start()],  # "Dr Sandhu's surgery (01536 …)"
    )
    return bool(named) and bool(NAME_TO_NUMBER.fullmatch(rest))


POSSESSED_LINE = kept_patterns.compile(
    r"(?i)['’]s[ \t]+(?:[^\W\d_]+[ \t]+)?(?:(?:phone|tel\w*)[ \t]+)?"
    r"(?:number|line|phone|no\.?)(?:[ \t]+[^\W\d_]+){0,4}?[ \t]*(?:is|:|\()?[ \t:]*"
)
"""An organization's noun owning the line that follows ("the bursar's
number is", "the society's number on the website (")."""


def _org_named(name: str) -> bool:
    """Tell a person's find that holds an organization's noun (its name)."""
    return any(
        not _in_capitals(name, m)
        for pattern in (ORG_HEADS, SEAT_HEADS)
        for m in pattern.finditer(name)
    )


def _contact_row(text: str, ident: Identifier, found: list[Identifier]) -> bool:
    """Tell a contact in a row of fields that an organization's mailbox closes.

    "Av. Carlemany 71, AD700 … · +376 … · hola@cowork…": a line of fields
    parted by "·" or "|", holding a role mailbox the e-mail recognizer left
    and no person's find, is the organization's; a person's address beside
    their own mailbox ("12 Main St · jane@…") keeps her mailbox a find.
    """
    if ident.kind not in CONTACT_KINDS:
        return False
    line_start = text.rfind("\n", 0, ident.start) + 1
    line_end = text.find("\n", ident.end)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    return bool(re.search(r"[ \t][·|•][ \t]", line)) and _mailbox_line(
        text, ident, found
    )


NAME_TO_NUMBER = kept_patterns.compile(r"[ \t,:(–-]*(?:(?i:tel|ph|phone)\.?[ \t:]*)?")
"""What stands between an organization's name and its number."""


FOOTER_LINES = 2
"""Last lines of a text that close it as its sender's footer."""

LABEL_ONLY = kept_patterns.compile(r"[ \t]*[^\W\d_][^\n:：]{0,40}[:：][ \t]*")
"""A field's label alone before a number ("Phone: ", "Guardian: "): the
record's subject's line, not its sender's."""


def _in_footer(text: str, ident: Identifier, found: list[Identifier]) -> bool:
    """Tell a number a sentence offers in the footer of an organization's text.

    "JAMAICA CONSTABULARY FORCE …" over a report that ends "For updates call
    876-…", a firm's letter that ends "Veuillez prendre contact au 02 …":
    the text's first line names an organization, the number stands in its
    last lines in a sentence of common words, not after a field's label
    alone ("Phone: …" is the record's person's), and no person's find or
    own word shares its line.
    """
    first_end = text.find("\n")
    if first_end < 0 or not _names_organization(text[:first_end]):
        return False
    lines = [m for m in re.finditer(r"[^\n]+", text) if m.group(0).strip()]
    footer = lines[-FOOTER_LINES:]
    line = next((m for m in footer if m.start() <= ident.start < m.end()), None)
    if line is None or line.start() <= first_end:
        return False
    clause_start = line.start()
    for m in CLAUSE_END.finditer(text, line.start(), ident.start):
        clause_start = m.end()
    clause = text[clause_start : ident.start]
    # Only common words offer it ("For updates call", "Veuillez prendre
    # contact au"): a name, even one no recognizer found ("ring Tekaai,"),
    # an uncased script or another number (a routing number) may be a
    # person's.
    words = re.findall(rf"{LETTER}+", clause)
    return not (
        not words
        or re.search(r"\d", clause)
        or not all(w.islower() for w in words[1:])
        or not words[0][:1].isupper()
        and not words[0].islower()
        or LABEL_ONLY.fullmatch(clause)
        or _offers_own(line.group(0))
        or any(
            line.start() <= f.start < line.end() and f.kind not in NUMBER_KINDS
            for f in found
        )
    )


def _in_capitals(clause: str, m: re.Match[str]) -> bool:
    """Tell a stem whose word is written in capitals ("INFO" is a log's level)."""
    word = re.match(r"[^\W\d_]+", clause[m.start() :])
    return word is not None and word.group(0).isupper() and word.group(0).isascii()
