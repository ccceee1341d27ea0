"""The identifier detector: each kind's formats, its look-alikes, the pii command."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from anonygraph.cli import main
from anonygraph.identifiers import KINDS, find_identifiers


def found(text: str) -> list[tuple[str, str]]:
    return [(i.kind, i.text) for i in find_identifiers(text)]


POSITIVES = [
    # names: spaCy, cues, lowercase chat, names that are words, whole words
    ("Account holder Patrick Nwosu called about a charge.", "PERSON", "Patrick Nwosu"),
    ("Hello, my name is John O'Brien.", "PERSON", "John O'Brien"),
    ("Please contact Jane Doe at noon", "PERSON", "Jane Doe"),
    ("Regards,\nÉmile Zola", "PERSON", "Émile Zola"),
    ("Dear Mrs. Smith,\nyour parcel is late.", "PERSON", "Mrs. Smith"),
    ("yo its dre. running late", "PERSON", "dre"),
    ("hiya its bethan!! new fone", "PERSON", "bethan"),
    ("tell kiana i'm on my way", "PERSON", "kiana"),
    ("Used car for sale. Ask for Hope, evenings only.", "PERSON", "Hope"),
    (
        "Xin chào, tôi là Nguyễn Thị Minh Anh. My name is Nguyễn Thị Minh Anh",
        "PERSON",
        "Nguyễn Thị Minh Anh",
    ),
    ("Naam: Sanne de Wit\nTelefoon: 06 98765432", "PERSON", "Sanne de Wit"),
    ("Talk soon, Josh (0402 555 781)", "PERSON", "Josh"),
    ("Rafa here, the boiler is broken again.", "PERSON", "Rafa"),
    ("Hello, this is Nguyễn Văn An. Order #A-99812", "PERSON", "Nguyễn Văn An"),
    ("Bonjour, je m'appelle Camille Dubois.", "PERSON", "Camille Dubois"),
    ("Call Grandma Rose at (212) 555-0199", "PERSON", "Rose"),
    (
        "Thanks!\n\n-- \nJamal Washington\nSenior Analyst\njw@nw.example.com",
        "PERSON",
        "Jamal Washington",
    ),
    ("Emergency contact: Luis (husband) 555-867-5309.", "PHONE", "555-867-5309"),
    ("Tel. 030 12345678. Mit freundlichen Grüßen", "PHONE", "030 12345678"),
    ("name: Takeshi Yamamoto / tel: 090-1234-5678", "PHONE", "090-1234-5678"),
    ("IP 203.0.113.45 failed. User jdoe_92 reported it.", "HANDLE", "jdoe_92"),
    (
        "Listing: 221 E 48th St, Apt 6C, New York, NY 10017.",
        "ADDRESS",
        "221 E 48th St, Apt 6C",
    ),
    # e-mail, phone
    (
        "Write to jane.doe+news@mail.example.co.uk today.",
        "EMAIL",
        "jane.doe+news@mail.example.co.uk",
    ),
    ("Callback 404-555-0172 after six.", "PHONE", "404-555-0172"),
    ("Ring me on +44 20 7946 0958.", "PHONE", "+44 20 7946 0958"),
    ("Portable : 06.12.34.56.78", "PHONE", "06.12.34.56.78"),
    ("WhatsApp (+33) 6 12 34 56 78 le soir", "PHONE", "(+33) 6 12 34 56 78"),
    ("Telefon 0221 5558 7734", "PHONE", "0221 5558 7734"),
    ("Celular: +55 71 99876-5432", "PHONE", "+55 71 99876-5432"),
    # PayNow takes a phone number, but nothing in the text says this one is:
    # replaced all the same, typed only as a number.
    ("paynow to 9123 4567 can already", "NUMBER", "9123 4567"),
    ("this is me 07700 900318", "PHONE", "07700 900318"),
    ("sent to +91 70221 48830 for user", "PHONE", "+91 70221 48830"),
    # national and tax IDs, with their checksums
    ("Steuer-ID 37948406158, bitte.", "NATIONAL_ID", "37948406158"),
    ("BSN: 707248218", "NATIONAL_ID", "707248218"),
    ("CPF: 821.973.669-04", "NATIONAL_ID", "821.973.669-04"),
    ("his nric S8832157Z i key in wrongly", "NATIONAL_ID", "S8832157Z"),
    ("DNI 12345678Z en la ficha", "NATIONAL_ID", "12345678Z"),
    ("SIN 046 454 286 on file", "NATIONAL_ID", "046 454 286"),
    ("Medicare 6530 54258 6 / 2, DOB", "NATIONAL_ID", "6530 54258 6 / 2"),
    ("my TFN: 409 910 532", "NATIONAL_ID", "409 910 532"),
    ("NHS 943 476 5919 on the form", "NATIONAL_ID", "943 476 5919"),
    ("NINO AB 12 34 56 C please", "NATIONAL_ID", "AB 12 34 56 C"),
    ("PAN ABCPE1234F linked to Aadhaar", "NATIONAL_ID", "ABCPE1234F"),
    # cards, IBAN, accounts
    ("card 4526 0181 5908 3012 was charged", "CARD", "4526 0181 5908 3012"),
    ("New IBAN is IE88 BOFI 9000 1745 6209 13.", "IBAN", "IE88 BOFI 9000 1745 6209 13"),
    ("BSB 062-000 account 10458823.", "BANK_ACCOUNT", "10458823"),
    ("agência 0291, conta corrente 45821-7", "BANK_ACCOUNT", "45821-7"),
    # network
    ("login ok from 73.162.44.201 today", "IP_ADDRESS", "73.162.44.201"),
    ("depuis 2a01:e0a:1f3:9c70::42 at", "IP_ADDRESS", "2a01:e0a:1f3:9c70::42"),
    (
        "messaged him (facebook.com/dale.ecklund.73).",
        "URL",
        "facebook.com/dale.ecklund.73",
    ),
    ("code at github.com/octo-dev42 is mine", "URL", "github.com/octo-dev42"),
    ("Portfolio: temitopebh.design", "URL", "temitopebh.design"),
    ("Update from u/cornfed_cat_mom: found it", "HANDLE", "u/cornfed_cat_mom"),
    ("follow me @sunny_days_22 on insta", "HANDLE", "@sunny_days_22"),
    ("new cashapp is $MoneyMovesATL lol", "HANDLE", "$MoneyMovesATL"),
    ('401 88 user="rmartinez"', "HANDLE", "rmartinez"),
    # addresses and postcodes
    (
        "Mailing address 3310 Peachtree Rd NE, Unit 1204, Atlanta",
        "ADDRESS",
        "3310 Peachtree Rd NE, Unit 1204",
    ),
    ("Flat 3, 14 Mill Lane, Leeds", "ADDRESS", "Flat 3, 14 Mill Lane"),
    ("Wir wohnen in der Hauptstraße 12 seit Mai.", "ADDRESS", "Hauptstraße 12"),
    ("Neue Adresse: Am Weidenhof 3a, 50667 Köln.", "ADDRESS", "Am Weidenhof 3a"),
    (
        "Address: H.No. 12-3-45, Banjara Hills, Hyderabad",
        "ADDRESS",
        "H.No. 12-3-45, Banjara Hills",
    ),
    ("Address: 2-14-3 Shibuya, Shibuya-ku", "ADDRESS", "2-14-3 Shibuya"),
    (
        "Endereço: Av. Sete de Setembro 2045, Salvador",
        "ADDRESS",
        "Av. Sete de Setembro 2045",
    ),
    ("shes at 27 Heol y Coed now", "ADDRESS", "27 Heol y Coed"),
    ("Atlanta, GA 30326. Case closed", "POSTCODE", "30326"),
    ("62 Cranbrook Avenue, Hull HU6 7TR", "POSTCODE", "HU6 7TR"),
    ("Neue Adresse: Am Weidenhof 3a, 50667 Köln.", "POSTCODE", "50667"),
    ("Oudegracht 144, 3511 AZ Utrecht", "POSTCODE", "3511 AZ"),
    ("Minato-ku, Tokyo 107-0062.", "POSTCODE", "107-0062"),
    ("near 155 Rideau St, Ottawa K1N 5X6.", "POSTCODE", "K1N 5X6"),
    ("Salvador - BA, 40080-001", "POSTCODE", "40080-001"),
    # dates of birth, plates, passports, medical records
    ("Verified with DOB 1986-04-19 and", "DATE_OF_BIRTH", "1986-04-19"),
    ("geboren am 02.12.1993. Neue", "DATE_OF_BIRTH", "02.12.1993"),
    ("She was born on March 3, 1990 in Leeds", "DATE_OF_BIRTH", "March 3, 1990"),
    ("my whip got towed (plate IL EV 48213 smh)", "LICENSE_PLATE", "EV 48213"),
    ("Placa do veículo: RIO2A18", "LICENSE_PLATE", "RIO2A18"),
    ("The van AB12 CDE was parked outside.", "LICENSE_PLATE", "AB12 CDE"),
    ("Ma voiture AB-123-CD est au garage.", "LICENSE_PLATE", "AB-123-CD"),
    ("〒150-0002 Tokyo, Shibuya-ku, Shibuya 2-14-3", "ADDRESS", "Shibuya 2-14-3"),
    ("〒150-0002 Tokyo, Shibuya-ku", "POSTCODE", "150-0002"),
    ("write to PO Box 1234 now", "ADDRESS", "PO Box 1234"),
    ("12 rue de la Paix, 75002 Paris", "ADDRESS", "12 rue de la Paix"),
    ("12 rue de la Paix, 75002 Paris", "POSTCODE", "75002"),
    ("Right to work: British passport 120774593", "PASSPORT", "120774593"),
    ("NHS 852 611 4913, MRN K3309127. Presented", "MEDICAL_RECORD", "K3309127"),
    ("our records show patient ID SD-40771.", "MEDICAL_RECORD", "SD-40771"),
]


@pytest.mark.parametrize(("text", "kind", "span"), POSITIVES)
def test_when_text_holds_an_identifier_then_it_is_found_whole(
    text: str, kind: str, span: str
) -> None:
    assert (kind, span) in found(text)


LOOKALIKES = [
    ("Regression in v2.3.14 since 1.2.3; build 5.0.8", "IP_ADDRESS"),
    ("pkg 1.2.3.4-beta is out", "IP_ADDRESS"),
    ("Server 192.168.0.1 is down.", "IP_ADDRESS"),
    ("login ok from 73.162.44.201 today", "PHONE"),
    ("SKU 802.758.87, order #112-4471-0093, ref 7781-22A", "PHONE"),
    ("Your subscription (order 4471-0093) renews at $4.99/month.", "PHONE"),
    ("Case 88-20431 closed. OTP 482913 sent.", "PHONE"),
    ("Buy the soundtrack (ISBN 978-1-4028-9462-6 booklet)", "PHONE"),
    ("2026-02-12 08:14:02 WARN client exceeded 30 req/min", "PHONE"),
    ("the years 1990-2005 were", "PHONE"),
    ("preheat to 350°F, bake 60 to 65 minutes in a 9x5 pan", "PHONE"),
    ("call the baking hotline 1-800-555-0100 (Mon-Fri)", "PHONE"),
    ("please call our front desk at (608) 555-0100.", "PHONE"),
    ("Questions: help@historyweekly.example.com.", "EMAIL"),
    ("write to support@shop.example.com for returns", "EMAIL"),
    ("Stock photo from dealer site hondaottawa.example.ca.", "URL"),
    ("See https://example.com/about for our story", "URL"),
    ("fixed the save bug at loader.lua:77 and PaymentController.php:156", "URL"),
    ("Barack Obama was sworn in on January 20, 2009.", "PERSON"),
    ("Hello World, contact Customer Support.", "PERSON"),
    ("I walked 3 miles down the road", "ADDRESS"),
    ("the stock $AAPL fell 3%", "HANDLE"),
    ("Contact us: Acme Corp, 1 Infinite Loop, Cupertino, CA 95014.", "ADDRESS"),
    ("Contact us: Acme Corp, 1 Infinite Loop, Cupertino, CA 95014.", "POSTCODE"),
    ("Bake at 180°C for 25-30 minutes.", "PERSON"),
    ("Poison control: 1-800-222-1222.", "NATIONAL_ID"),
    ("Our Berlin office: Friedrichstraße 68, 10117 Berlin.", "ADDRESS"),
    ("Our Berlin office: Friedrichstraße 68, 10117 Berlin.", "POSTCODE"),
    ("Call +49 30 2000 4000 (switchboard).", "PHONE"),
    ("Dial-in 0800 123 4567, PIN 4455 66#.", "PHONE"),
    ("2024-03-11T09:15:22.481Z ERROR Job 48213 failed, trace 7f3a9c21e4b0", "PHONE"),
    ("Order 112-4471935-0093221 shipped via UPS 1Z999AA10123456784.", "PHONE"),
    ("Taylor Swift announced the Eras Tour; tickets start at $49.50.", "PERSON"),
    ("Aadhaar 2345 6789 0123 is needed for KYC", "PERSON"),
    ("my SSN is 536-22-1234", "PHONE"),
    ("call the baking hotline 1-800-555-0100", "PHONE"),
    ("Thanks r/Iowa!", "HANDLE"),
    ("the meeting is on 02.12.1993 at noon", "DATE_OF_BIRTH"),
    ("card 4111 1111 1111 1112 (bad Luhn)", "CARD"),
    ("IBAN DE89 3704 0044 0532 0130 01 (bad checksum)", "IBAN"),
    ("Steuer-ID 37948406159 (wrong digit)", "NATIONAL_ID"),
    ("BSN: 707248219", "NATIONAL_ID"),
    ("we raised the map limit to 2048 tiles", "POSTCODE"),
    ("model NA-LX129BL stopped with error H21", "LICENSE_PLATE"),
    ("we use passport photos only", "PASSPORT"),
]


PHONE_SHAPED = [
    # Numbers the phone library accepts somewhere, that the text does not
    # present as phones: replaced, typed NUMBER, never called a phone.
    # (A PESEL's date and check digit type it where its label names it.)
    ("PESEL: 02320317846", "NATIONAL_ID", "02320317846"),
    ("NHS no. taken by first aider after fall: 485 210 7378", "NUMBER", "485 210 7378"),
    # (A pet's microchip number is no one's: test_identifier_org_clauses.py.)
    ("Local guardian: Kavitha Iyer, 98450 71263, Bengaluru", "NUMBER", "98450 71263"),
    # ... and the same kind of number presented as a phone.
    ("Mobile: 98450 71263", "PHONE", "98450 71263"),
    ("call me on 9123 4567 tonight", "PHONE", "9123 4567"),
    ("my husband Ray (312) 555-0148", "PHONE", "(312) 555-0148"),
    ("mine is +254 711 602 348. don't be late", "PHONE", "+254 711 602 348"),
    ("Flowers: Mrs. Gomes (01711-482903)", "PHONE", "01711-482903"),
]


@pytest.mark.parametrize(("text", "kind", "span"), PHONE_SHAPED)
def test_when_a_number_is_phone_shaped_then_only_a_phone_word_or_form_types_it_phone(
    text: str, kind: str, span: str
) -> None:
    found = [(i.kind, i.text) for i in find_identifiers(text)]
    assert (kind, span) in found


@pytest.mark.parametrize(("text", "kind"), LOOKALIKES)
def test_when_text_holds_a_lookalike_then_that_kind_is_not_found(
    text: str, kind: str
) -> None:
    assert kind not in [k for k, _ in found(text)]


def test_when_a_name_is_found_then_its_other_mentions_are_found_too() -> None:
    text = "To: Amir Haddad\nAmir, your crown appointment is Thursday."
    assert [t for k, t in found(text) if k == "PERSON"] == ["Amir Haddad", "Amir"]


def test_when_spacy_takes_the_greeting_with_a_name_then_the_greeting_stays() -> None:
    text = "Hallo Frau Brinkmann, Steuer-ID 37948406158."
    assert [t for k, t in found(text) if k == "PERSON"] == ["Frau Brinkmann"]


def test_when_a_unicode_name_is_found_then_no_word_is_cut() -> None:
    text = "Xin chào, tôi là Nguyễn Thị Minh Anh, my name is Nguyễn Thị Minh Anh."
    for ident in find_identifiers(text):
        assert not text[ident.end : ident.end + 1].isalnum()
        assert ident.start == 0 or not text[ident.start - 1].isalnum()


def test_when_placeholders_are_in_the_text_then_they_are_not_identifiers() -> None:
    assert found("Hi [PERSON_1], call [PHONE_2] today.") == []


def test_when_kinds_are_named_then_only_those_are_reported() -> None:
    text = "Hi, I'm Jane Doe, jane.doe@gmail.com, 404-555-0172."
    assert {k for k, _ in found(text)} >= {"PERSON", "EMAIL", "PHONE"}
    assert [k for k in (i.kind for i in find_identifiers(text, kinds=["EMAIL"]))] == [
        "EMAIL"
    ]


def test_when_identifiers_are_found_then_kinds_and_offsets_are_consistent() -> None:
    text = (
        "Dear Ms. Okafor,\nyour SSN 536-22-1234 and card 4526 0181 5908 3012 "
        "are on file."
    )
    for ident in find_identifiers(text):
        assert ident.kind in KINDS
        assert text[ident.start : ident.end] == ident.text
        assert ident.recognizer


def test_when_detecting_then_no_network_request_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"network request during detection: {args}")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    from anonygraph.identifiers.recognizers import email

    email._extractor.cache_clear()
    text = "Mail kenji.sato@docomo.ne.jp or visit facebook.com/kenji.sato.9 today."
    assert ("EMAIL", "kenji.sato@docomo.ne.jp") in found(text)


def test_when_the_pii_command_runs_then_identifiers_become_numbered_placeholders(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = "Hello, this is Aoife Byrne, phone 087 555 3390, aoife.byrne@gmail.com."
    assert main(["pii", text]) == 0
    assert capsys.readouterr().out.strip() == (
        "Hello, this is [PERSON_1], phone [PHONE_1], [EMAIL_1]."
    )
