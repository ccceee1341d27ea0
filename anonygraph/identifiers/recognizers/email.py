"""E-mail addresses, checked against the bundled suffix list, role addresses left.

An organization's role address (support@, info@, noreply@ ...) is its public
contact, not a person's identifier, and stays in the text.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from presidio_analyzer.predefined_recognizers import EmailRecognizer

ROLE_LOCAL_PARTS = frozenset(
    """support info help hello contact contactus noreply no-reply donotreply
    do-not-reply sales admin office team service services billing accounts
    enquiries enquiry inquiries press media careers jobs hr webmaster
    postmaster reception frontdesk bookings booking orders privacy legal
    abuse security feedback marketing news newsletter customerservice
    customercare care shop store hallo kontakt info-de servicio atendimento
    contato bonjour payroll finance invoices invoice invoicing accounting
    creditors debtors crediteuren debiteuren facturen facturatie facturation
    facturacion buchhaltung rechnungen comptabilite contabilidad recruiting
    recruitment events event forum conference visa visas consulate embassy
    rentals alquileres ventas vendas verkauf vertrieb kundenservice
    kundeservice asiakaspalvelu secretariat secretaria secretaría reservas
    reservations tickets kadry biuro sekretariat recepcja medlem medlemmar
    kansli financeiro financeira tesouraria registrar registry manager
    management parking hola ciao hej admissions membership members
    treasurer secretary helpdesk servicedesk kundendienst verwaltung
    administracion administracao rh rrhh intake grants soc noc camp races
    relations customer customers tax enquire clients client applications
    registration registrations entries volunteers""".split()
)
"""Local parts an organization's public contact address uses; one may lead a
longer part ("help.kakaomap@", "visa.bern@")."""


@lru_cache(maxsize=1)
def _extractor() -> Any:
    import tldextract

    # No suffix-list URL: tldextract reads the snapshot shipped in its wheel
    # instead of fetching the public-suffix list (no request at run time).
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


def known_suffix(host: str) -> bool:
    """Tell whether ``host`` ends in a public suffix of the bundled list."""
    return bool(_extractor()(host).suffix)


class OfflineEmailRecognizer(EmailRecognizer):
    """Presidio's e-mail recognizer, validated without the network."""

    def validate_result(self, pattern_text: str) -> bool:
        """Accept a personal address whose domain ends in a known public suffix."""
        return bool(_extractor()(pattern_text).fqdn)

    def invalidate_result(self, pattern_text: str) -> bool:
        """Reject an organization's role address."""
        local, _, host = pattern_text.lower().partition("@")
        return (
            local in ROLE_LOCAL_PARTS
            or local.split(".")[0] in ROLE_LOCAL_PARTS
            or local in host.split(".")  # "stormur@stormur.is": the body's own name
            or _word_no_one_carries(local)
            or _role_pieces(local)
        )


def _role_pieces(local: str) -> bool:
    """Tell a local part of role words, maybe beside a word that names no one.

    "camp.admin@", "customer.relations@", "teuila.races@", "counciltax@":
    its pieces are letters only, one of them a role word or opens with an
    organization's noun (a council, a clinic), and no other piece is a given
    name or surname some Faker locale lists ("maria.sales@" is Maria's).
    """
    from anonygraph.cues.places import fold
    from anonygraph.identifiers.org_contacts import ORG_HEADS
    from anonygraph.identifiers.recognizers.name_checks import known_names

    pieces = re.split(r"[._-]", local)
    if not all(p.isalpha() for p in pieces):
        return False
    roles = [p in ROLE_LOCAL_PARTS or bool(ORG_HEADS.match(p)) for p in pieces]
    return any(roles) and not any(
        fold(p) in known_names() for p, role in zip(pieces, roles) if not role
    )


def _word_no_one_carries(local: str) -> bool:
    """Tell a local part that is one word and holds no one's name.

    "appeals@", "socios@", "pandc@": letters only, four or more, and no
    given name or surname some Faker locale lists at either end of it, an
    initial or two aside ("rwhitfield", "evargasm", "lipecastro",
    "hopeac" are people's).
    """
    from anonygraph.cues.places import fold
    from anonygraph.identifiers.recognizers.name_checks import known_names

    if not (local.isalpha() and len(local) >= 4):
        return False
    names = known_names()
    n = len(local)
    for i in range(3):
        for j in range(4 + i, n + 1):
            if (j == n or i == 0 or j >= n - 2) and fold(local[i:j]) in names:
                return False
    return all(fold(local[i:]) not in names for i in range(n - 3))
