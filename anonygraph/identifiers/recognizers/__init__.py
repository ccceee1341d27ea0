"""The recognizers of every identifier kind: Presidio's, configured, and ours.

Presidio's own recognizers are taken where they validate well (checksums,
context words): IBAN (mod 97), IP addresses, US SSN,
UK NINO, Aadhaar (Verhoeff); the NHS number with its context words. Ours,
written as Presidio recognizers, cover what it lacks or does badly (one
module per kind family).
Payment cards are ours (`recognizers.cards`: every grouping, glued
numbers, reference cues). Presidio's DATE_TIME, US_DRIVER_LICENSE, NRP and
LOCATION are never run: they take recipe quantities, order numbers and
places that identify no one.
"""

from __future__ import annotations

from collections.abc import Callable

from presidio_analyzer import EntityRecognizer
from presidio_analyzer.predefined_recognizers import (
    IbanRecognizer,
    InAadhaarRecognizer,
    UkNinoRecognizer,
    UsSsnRecognizer,
)

from anonygraph.identifiers.recognizers.addresses import (
    LabelledAddressRecognizer,
    PostcodeRecognizer,
    StreetAddressRecognizer,
)
from anonygraph.identifiers.recognizers.block_addresses import BlockAddressRecognizer
from anonygraph.identifiers.recognizers.cards import AnyIbanRecognizer, CardRecognizer
from anonygraph.identifiers.recognizers.documents import (
    BankAccountRecognizer,
    CbuRecognizer,
    ClabeRecognizer,
    CzechAccountRecognizer,
    DateOfBirthRecognizer,
    MedicalRecordRecognizer,
    PassportRecognizer,
)
from anonygraph.identifiers.recognizers.email import OfflineEmailRecognizer
from anonygraph.identifiers.recognizers.fields import FieldRecognizer
from anonygraph.identifiers.recognizers.form_names import FormValueNameRecognizer
from anonygraph.identifiers.recognizers.handles import HandleRecognizer
from anonygraph.identifiers.recognizers.honorifics import HonorificNameRecognizer
from anonygraph.identifiers.recognizers.id_fields import IdFieldRecognizer
from anonygraph.identifiers.recognizers.id_schemes import IdSchemeRecognizer
from anonygraph.identifiers.recognizers.ip import PersonalIpRecognizer
from anonygraph.identifiers.recognizers.labelled_names import LabelledNameRecognizer
from anonygraph.identifiers.recognizers.labelled_phones import LabelledPhoneRecognizer
from anonygraph.identifiers.recognizers.names import (
    ContextNameRecognizer,
    FilteredSpacyRecognizer,
)
from anonygraph.identifiers.recognizers.national_ids import (
    BsnRecognizer,
    CodiceFiscaleRecognizer,
    ContextNhsRecognizer,
    CpfRecognizer,
    CuedSsnRecognizer,
    CurpRecognizer,
    DniRecognizer,
    LabelledIdRecognizer,
    MedicareAuRecognizer,
    NirRecognizer,
    NricRecognizer,
    PanRecognizer,
    PpsnRecognizer,
    SinRecognizer,
    SteuerIdRecognizer,
    TfnRecognizer,
)
from anonygraph.identifiers.recognizers.phones import PhoneNumberRecognizer
from anonygraph.identifiers.recognizers.plates import LicensePlateRecognizer
from anonygraph.identifiers.recognizers.role_labels import RoleLabelNameRecognizer
from anonygraph.identifiers.recognizers.urls import PersonalUrlRecognizer

OURS: tuple[Callable[[], EntityRecognizer], ...] = (
    ContextNameRecognizer,
    FilteredSpacyRecognizer,
    LabelledNameRecognizer,
    RoleLabelNameRecognizer,
    FormValueNameRecognizer,
    HonorificNameRecognizer,
    OfflineEmailRecognizer,
    PhoneNumberRecognizer,
    LabelledPhoneRecognizer,
    PersonalIpRecognizer,
    PersonalUrlRecognizer,
    HandleRecognizer,
    StreetAddressRecognizer,
    LabelledAddressRecognizer,
    BlockAddressRecognizer,
    PostcodeRecognizer,
    DateOfBirthRecognizer,
    CardRecognizer,
    AnyIbanRecognizer,
    LicensePlateRecognizer,
    PassportRecognizer,
    MedicalRecordRecognizer,
    BankAccountRecognizer,
    SteuerIdRecognizer,
    BsnRecognizer,
    DniRecognizer,
    MedicareAuRecognizer,
    TfnRecognizer,
    SinRecognizer,
    NirRecognizer,
    CpfRecognizer,
    NricRecognizer,
    PanRecognizer,
    CodiceFiscaleRecognizer,
    ContextNhsRecognizer,
    CuedSsnRecognizer,
    LabelledIdRecognizer,
    PpsnRecognizer,
    CurpRecognizer,
    ClabeRecognizer,
    IdSchemeRecognizer,
    IdFieldRecognizer,
    FieldRecognizer,
    CzechAccountRecognizer,
    CbuRecognizer,
)
"""Our recognizers, each owning one kind (or one scheme of a kind)."""

PRESIDIO: tuple[Callable[[], EntityRecognizer], ...] = (
    IbanRecognizer,
    UsSsnRecognizer,
    UkNinoRecognizer,
    InAadhaarRecognizer,
)
"""Presidio's recognizers, taken as they are (checksums, context words)."""


def all_recognizers() -> list[EntityRecognizer]:
    """Return one instance of every recognizer the analyzer runs."""
    return [cls() for cls in (*PRESIDIO, *OURS)]
