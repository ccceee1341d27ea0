"""Explicit-cue detectors and generalizers on invented sentences."""

from __future__ import annotations

import pytest

from anonygraph.cues import Cue, detect_cues, generalize_text, is_generalization


def cues_of(text: str, attribute: str) -> list[Cue]:
    return [c for c in detect_cues(text) if c.attribute == attribute]


@pytest.mark.parametrize(
    ("text", "quote", "attribute", "replacement"),
    [
        ("Moved to Calgary for work.", "Calgary", "city_country", "Canada"),
        ("Back home in Halifax it rains.", "Halifax", "birth_city_country", "Canada"),
        ("I grew up in Zürich.", "Zürich", "birth_city_country", "Switzerland"),
        ("I moved to Reading last year.", "Reading", "city_country", "the UK"),
        ("Winters in Texas are mild.", "Texas", "city_country", "the US"),
        ("We live in France now.", "France", "city_country", "Europe"),
        (
            "Summers in the Bay Area are foggy.",
            "the Bay Area",
            "city_country",
            "the US",
        ),
        ("I love Paris in spring.", "Paris", "city_country", "France"),
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
        ("I'm 27 and tired of it.", "27", "27", "in my late twenties"),
        ("I am 34 years old.", "34 years old", "34", "in my mid thirties"),
        ("As a 45-year-old, I know.", "45-year-old", "45", "forty-something"),
        ("I just turned 40!", "40", "40", "forty-something now"),
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
        ("As a woman in tech, I know.", "a woman", "sex", "female", "a person"),
        ("Speaking as a dad here.", "a dad", "sex", "male", "a parent"),
        (
            "I'm a nurse at night.",
            "a nurse",
            "occupation",
            "nurse",
            "a healthcare worker",
        ),
        (
            "I work as a software engineer.",
            "a software engineer",
            "occupation",
            "software engineer",
            "a tech worker",
        ),
        ("Got my PhD last year.", "PhD", "education", "phd", "degree"),
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
        ("I make $85k a year.", "$85k", "income_level", "high", "tens of thousands"),
        (
            "Rent is $1,200 a month.",
            "$1,200",
            "income_level",
            "a few thousand",
            "a few thousand",
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
            "My partner and I moved to the US. I'm in my late twenties and I make "
            "tens of thousands a year.",
        ),
        # Two places that generalize to one stay two: the author still moved.
        (
            "Moved to Calgary three winters ago. Back home in Halifax it was mild.",
            "Moved to Canada three winters ago. Back home in another part of "
            "Canada it was mild.",
        ),
        # The next round: both mentions are one country, no second "another".
        (
            "Moved to Canada three winters ago. Back home in another part of "
            "Canada it was mild.",
            "Moved to North America three winters ago. Back home in another part "
            "of North America it was mild.",
        ),
        ("Calgary is cold. I love Calgary.", "Canada is cold. I love Canada."),
    ],
)
def test_when_cues_are_generalized_then_the_sentence_reads_and_keeps_the_rest(
    text: str, expected: str
) -> None:
    assert generalize_text(text, detect_cues(text)) == expected


def test_when_a_cue_is_replaced_by_its_generalization_then_that_is_coarser() -> None:
    old = cues_of("I live in Calgary.", "city_country")[0]
    country = cues_of("I live in Canada.", "city_country")[0]
    other = cues_of("I live in France.", "city_country")[0]
    assert is_generalization(country, old)
    assert not is_generalization(other, old)
    age = cues_of("I'm 27 now.", "age")[0]
    band = cues_of("I'm in my late twenties now.", "age")[0]
    older = cues_of("I'm in my late thirties now.", "age")[0]
    assert is_generalization(band, age)
    assert not is_generalization(older, age)


def test_when_a_warm_up_and_a_record_want_the_gazetteer_at_once_then_one_builds_it(
    monkeypatch: pytest.MonkeyPatch,
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
