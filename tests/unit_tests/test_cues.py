"""Explicit-cue detectors and generalizers on invented sentences."""

from __future__ import annotations

from pathlib import Path

import pytest

from anonygraph.attributes.education import OPTIONS
from anonygraph.cues import Cue, detect_cues, generalize_text, is_generalization
from anonygraph.cues.lexicon import table


def cues_of(text: str, attribute: str) -> list[Cue]:
    return [c for c in detect_cues(text) if c.attribute == attribute]


@pytest.mark.parametrize(
    ("text", "quote", "attribute", "replacement"),
    [
        # A city alone: its country is the gazetteer's guess, not the text's.
        ("Moved to Calgary for work.", "Calgary", "city_country", "[PLACE]"),
        (
            "Moved to Calgary for work. Canada is cold.",
            "Calgary",
            "city_country",
            "Canada",
        ),
        # Halifax, Reading: big towns of two countries, the text says neither.
        ("Back home in Halifax it rains.", "Halifax", "birth_city_country", "[PLACE]"),
        ("I grew up in Zürich.", "Zürich", "birth_city_country", "[PLACE]"),
        ("I moved to Reading last year.", "Reading", "city_country", "[PLACE]"),
        (
            "Back home in Halifax, Nova Scotia.",
            "Halifax, Nova Scotia",
            "birth_city_country",
            "Canada",
        ),
        ("Winters in Texas are mild.", "Texas", "city_country", "the US"),
        ("We live in France now.", "France", "city_country", "Europe"),
        (
            "Summers in the Bay Area are foggy.",
            "the Bay Area",
            "city_country",
            "the US",
        ),
        ("I love Toulouse in spring.", "Toulouse", "city_country", "[PLACE]"),
        # Another place only that country holds confirms it.
        (
            "I love Toulouse in spring, and Lyon in autumn.",
            "Toulouse",
            "city_country",
            "France",
        ),
    ],
)
def test_when_a_place_is_named_then_it_is_a_cue_with_a_coarser_place(
    text: str, quote: str, attribute: str, replacement: str
) -> None:
    found = [c for c in cues_of(text, attribute) if c.quote == quote]
    assert found, detect_cues(text)
    assert found[0].replacement == replacement


@pytest.mark.parametrize(
    "text",
    [
        "Paris Hilton was on TV again.",
        "Reading is my favourite hobby.",
        "You may want to try it.",
        "Nice weather today.",
        "Jordan Peterson wrote a book.",
        "She said it was a mobile phone.",
    ],
)
def test_when_a_place_name_is_a_word_or_a_person_then_no_place_is_found(
    text: str,
) -> None:
    places = [
        c for c in detect_cues(text) if c.kind in ("city", "country", "state", "region")
    ]
    assert places == []


@pytest.mark.parametrize(
    ("text", "quote", "value", "replacement"),
    [
        ("I'm 27 and tired of it.", "27", "27", "in my twenties"),
        ("I am 34 years old.", "34 years old", "34", "in my thirties"),
        ("As a 45-year-old, I know.", "45-year-old", "45", "forty-something"),
        ("I just turned 40!", "just turned 40", "40", "just had a birthday"),
        ("Turned forty-one last week.", "Turned forty-one", "41", "had a birthday"),
        ("I'm thirty-two and tired.", "thirty-two", "32", "in my thirties"),
        ("My 40th birthday is soon.", "My 40th birthday", "40", "My birthday"),
        (
            "I spent my fiftieth birthday alone.",
            "my fiftieth birthday",
            "50",
            "my birthday",
        ),
        ("Celebrated my 65th summer here.", "my 65th summer", "65", "another summer"),
        ("I'm a widower, 71, and alone.", "71", "71", "in my seventies"),
        ("Retired nurse, 63, still up at six.", "63", "63", "in my sixties"),
        ("52 and starting over.", "52", "52", "In my fifties"),
        ("Now 31 and debt free.", "31", "31", "in my thirties"),
        ("We are both 29 and broke.", "both 29", "29", "both in our twenties"),
        ("Sixteen years old and working.", "Sixteen years old", "16", "in my teens"),
        (
            "Thirty-two year old guy, single.",
            "Thirty-two year old",
            "32",
            "thirty-something",
        ),
        ("At fifty-five I quit.", "At fifty-five", "55", "in my fifties"),
        (
            "Married my sweetheart at 22 and never looked back.",
            "at 22",
            "22",
            "in my twenties",
        ),
        (
            "Honestly I'm in my late thirties.",
            "in my late thirties",
            "37-39",
            "in my thirties",
        ),
    ],
)
def test_when_the_author_states_an_age_then_it_becomes_a_range(
    text: str, quote: str, value: str, replacement: str
) -> None:
    found = [c for c in cues_of(text, "age") if c.quote == quote]
    assert found, detect_cues(text)
    assert (found[0].value, found[0].replacement) == (value, replacement)


def test_when_the_author_tags_age_and_sex_then_both_are_cues_and_the_tag_goes() -> None:
    text = "I (27F) and my boyfriend (29M) argue."
    assert [c.value for c in cues_of(text, "age")] == ["27"]
    assert [c.value for c in cues_of(text, "sex")][0] == "female"
    assert generalize_text(text, detect_cues(text)) == ("I and my partner (29M) argue.")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Class of 2009 reunion was fun.", "My class reunion was fun."),
        (
            "The only girl in my graduating class of 2004 here.",
            "The only girl in my graduating class here.",
        ),
        (
            "Graduated from college in 2015 with debt.",
            "Graduated from college with debt.",
        ),
        ("Born in 1987 in a small town.", "Born in the 1980s in a small town."),
    ],
)
def test_when_a_year_pins_the_authors_age_then_it_goes(
    text: str, expected: str
) -> None:
    age = cues_of(text, "age")
    assert age, detect_cues(text)
    assert generalize_text(text, age) == expected


def test_when_the_author_was_born_in_a_year_then_the_decade_replaces_it() -> None:
    text = "I was born in 1994 in a small town."
    (cue,) = cues_of(text, "age")
    assert cue.quote == "1994"
    assert generalize_text(text, [cue]) == "I was born in the 1990s in a small town."


@pytest.mark.parametrize(
    "text",
    [
        "I'm 27 minutes late again.",
        "My dad was born in 1960.",
        "In 1994 the World Cup came to the US.",
        "My son (12M) loves it.",
        "The 1990s were great.",
        "Grandma turned 100 this week!",
        "Teaching fourteen year olds is hard.",
        "Twenty years in the job and still learning.",
        "My mum did it at 40.",
        "Meet me at 10 tomorrow.",
    ],
)
def test_when_a_number_is_not_the_authors_age_then_no_age_is_found(text: str) -> None:
    assert cues_of(text, "age") == []


@pytest.mark.parametrize(
    ("text", "quote", "attribute", "value", "replacement"),
    [
        (
            "My husband cooked.",
            "My husband",
            "relationship_status",
            "married",
            "my partner",
        ),
        (
            "Dinner with my wife.",
            "my wife",
            "relationship_status",
            "married",
            "my partner",
        ),
        (
            "My ex-wife kept the dog.",
            "My ex-wife",
            "relationship_status",
            "divorced",
            "my ex",
        ),
        ("As a woman in tech, I know.", "woman", "sex", "female", "person"),
        ("Speaking as a dad here.", "dad", "sex", "male", "parent"),
        ("As a gay man in a small town, I know.", "man", "sex", "male", "person"),
        ("I'm her only granddaughter.", "granddaughter", "sex", "female", "grandchild"),
        ("Thirty-something guy, never married.", "guy", "sex", "male", "person"),
        (
            "I'm a nurse at night.",
            "nurse",
            "occupation",
            "nurse",
            "healthcare worker",
        ),
        (
            "I work as a software engineer.",
            "software engineer",
            "occupation",
            "software engineer",
            "tech worker",
        ),
        ("Got my PhD last year.", "PhD", "education", "phd", "degree"),
        (
            "Trainee solicitor at a firm here.",
            "solicitor",
            "occupation",
            "lawyer",
            "legal professional",
        ),
        (
            "Nursing student at a big school.",
            "Nursing student",
            "occupation",
            "nursing student",
            "student",
        ),
        (
            "Apprentice electrician, second year.",
            "electrician",
            "occupation",
            "electrician",
            "tradesperson",
        ),
        (
            "I was a branch manager for years.",
            "branch manager",
            "occupation",
            "bank manager",
            "office worker",
        ),
        (
            "I teach Spanish at a college.",
            "teach Spanish",
            "occupation",
            "teacher",
            "work with Spanish",
        ),
        ("I'm a woman who welds for a living.", "welds", "occupation", "weld", "works"),
        (
            "The coffee at Mercy General Hospital is bad.",
            "Mercy General Hospital",
            "occupation",
            "hospital",
            "the hospital",
        ),
        (
            "I studied at the University of Toronto.",
            "the University of Toronto",
            "education",
            "university",
            "a university",
        ),
        ("I make $85k a year.", "$85k a year", "income_level", "high", "good money"),
        (
            "I make about 40,000 euros a year.",
            "about 40,000 euros a year",
            "income_level",
            "middle",
            "a decent salary",
        ),
        (
            "We live on CHF 300k.",
            "CHF 300k",
            "income_level",
            "very high",
            "a very high income",
        ),
        ("I earn £9 an hour.", "£9", "income_level", "low", "[INCOME]"),
        (
            "Rent is $1,200 a month.",
            "$1,200",
            "income_level",
            "a few thousand",
            "four figures",
        ),
    ],
)
def test_when_a_word_list_cue_is_present_then_it_is_found_with_its_generalization(
    text: str, quote: str, attribute: str, value: str, replacement: str
) -> None:
    found = [c for c in cues_of(text, attribute) if c.quote == quote]
    assert found, detect_cues(text)
    assert (found[0].value, found[0].replacement) == (value, replacement)


@pytest.mark.parametrize(
    "text",
    [
        "The nurse was kind to my mother.",
        "Her husband is a lawyer.",
        "I ran a 10k race.",
        "We may go there.",
        "The man at the desk was rude.",
    ],
)
def test_when_words_are_about_someone_else_then_no_self_cue_is_found(
    text: str,
) -> None:
    found = [
        c
        for c in detect_cues(text)
        if c.attribute in ("occupation", "sex", "relationship_status", "income_level")
    ]
    assert found == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "My girlfriend and I moved to Austin. I'm 27 and I make $85k a year.",
            "My partner and I moved to [PLACE]. I'm in my twenties and I make "
            "good money.",
        ),
        # Two places that generalize to one stay two: the author still moved.
        (
            "Moved to Calgary three winters ago. Back home in Winnipeg it was mild.",
            "Moved to Canada three winters ago. Back home in another part of "
            "Canada it was mild.",
        ),
        ("Calgary is cold. I love Calgary.", "[PLACE] is cold. I love [PLACE]."),
        # The parse and the words around a name decide its form.
        (
            "I grew up in a village outside Cork.",
            "I grew up in a village outside a city.",
        ),
        (
            # "Local" would guess where the author is: the name goes, the noun stays.
            "Hobart traffic is a joke compared to the mainland.",
            "Traffic is a joke compared to the mainland.",
        ),
        ("I live on Vancouver Island and commute.", "I live on an island and commute."),
        ("We moved to Bavaria for work.", "We moved to Germany for work."),
        (
            "I grew up in Ontario and retired to Sicily.",
            "I grew up in Canada and moved to Italy.",
        ),
        ("Our flat overlooks the Eiffel Tower.", "Our flat overlooks a tower."),
        (
            "I did my MBA at INSEAD and loved it.",
            "I did my degree at [SCHOOL] and loved it.",
        ),
        (
            "I've worked at Amazon's warehouse for years.",
            "I've worked at the company's warehouse for years.",
        ),
        (
            "As a Korean-American kid in rural Iowa I stood out.",
            "As an Asian-American kid in rural parts of the US I stood out.",
        ),
        (
            "I'm Dutch and I speak German at work.",
            "I'm European and I speak German at work.",
        ),
        ("My husband's job pays the rent.", "My partner's job pays the rent."),
        (
            "At 16 I left school for a job.",
            "In my teens I left education for a job.",
        ),
    ],
)
def test_when_cues_are_generalized_then_the_sentence_reads_and_keeps_the_rest(
    text: str, expected: str
) -> None:
    assert generalize_text(text, detect_cues(text)) == expected


def test_when_places_were_generalized_once_then_the_next_round_stops() -> None:
    text = "Moved to Canada three winters ago. Back home in another part of Canada."
    assert [c for c in detect_cues(text) if c.exact] == []


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("I'm learning Italian before I retire.", "Italian"),
        ("My girlfriend speaks Danish so she's thrilled.", "Danish"),
        ("Even my German teacher says so.", "German"),
        ("I teach English in a small school.", "English"),
    ],
)
def test_when_a_nationality_word_names_a_language_then_it_stays(
    text: str, language: str
) -> None:
    assert language in generalize_text(text, [c for c in detect_cues(text) if c.exact])


def test_when_a_cue_is_replaced_by_its_generalization_then_that_is_coarser() -> None:
    old = cues_of("I live in Calgary.", "city_country")[0]
    country = cues_of("I live in Canada.", "city_country")[0]
    other = cues_of("I live in France.", "city_country")[0]
    assert is_generalization(country, old)
    assert not is_generalization(other, old)
    age = cues_of("I'm 27 now.", "age")[0]
    band = cues_of("I'm in my twenties now.", "age")[0]
    older = cues_of("I'm in my thirties now.", "age")[0]
    assert is_generalization(band, age)
    assert not is_generalization(older, age)


def test_when_a_named_business_is_restated_plainly_then_that_is_no_new_claim() -> None:
    named = "I run the Blue Heron glass studio on weekends."
    old = cues_of(named, "occupation")[0]
    plain = cues_of("I run a craft studio on weekends.", "occupation")[0]
    other = cues_of("I run a bakery on weekends.", "occupation")[0]
    assert old.quote == "the Blue Heron glass studio"  # a three-word name
    assert is_generalization(plain, old)
    assert not is_generalization(other, old)


def test_when_a_warm_up_and_a_record_want_the_gazetteer_at_once_then_one_builds_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import threading
    import time

    from anonygraph.attributes.gazetteer import City
    from anonygraph.cues import places

    loads: list[str] = []
    real = places.cities

    def slow_cities() -> tuple[City, ...]:
        loads.append("cities")
        time.sleep(0.05)  # keep the first build going while the second asks
        return real()

    monkeypatch.setattr(places, "cities", slow_cities)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # no kept table: build it
    places._gazetteer.cache_clear()
    try:
        threads = [threading.Thread(target=places.gazetteer) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert loads.count("cities") == 1
        assert places.gazetteer()["calgary"].value == "Calgary, Canada"
    finally:
        places._gazetteer.cache_clear()


def test_when_the_education_list_names_a_level_then_it_is_an_attacker_option() -> None:
    levels = {row[1] for row in table("education.tsv")}
    assert levels <= set(OPTIONS), levels - set(OPTIONS)


def test_when_a_school_name_holds_a_place_name_then_one_school_cue_is_found() -> None:
    found = cues_of("Back at Westfield High for my last semester.", "education")
    assert [c.quote for c in found] == ["Westfield High"]
