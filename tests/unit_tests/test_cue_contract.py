"""The contract of a rules replacement (`anonygraph.cues.contract`).

A concrete coarser value (a country, a decade, "a university") is written only
where a source settles it; otherwise the span becomes its typed placeholder,
or stays as written where it is someone else's or no cue at all. Each class
has its counter-case, so a rule that stops replacing everything cannot pass.
The texts are our own, written for the classes.
"""

from __future__ import annotations

import pytest

from anonygraph.cues import detect_cues
from anonygraph.cues.engine import default_engine
from unit_tests.rules_rewrite import rewritten


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A name the sentence uses as a person is no place, and confirms no
        # country for the author's own place.
        ("Houston from legal will join the call. I work from home in Reading.",
         "Houston from legal will join the call. I work from home in [PLACE]."),
        ("idk who Florida is lol. I'm heading out.",
         "idk who Florida is lol. I'm heading out."),
        # A name after a kin word is a relative, and the place of a clause
        # whose subject is the identifier pass's person is theirs.
        ("Cousin Denver drives a cab in Leeds. I'm back in Hull now.",
         "Cousin Denver drives a cab in Leeds. I'm back in [PLACE] now."),
        ("Aunt [PERSON_1] runs a bakery in Leeds. I'm back in Hull now.",
         "Aunt [PERSON_1] runs a bakery in Leeds. I'm back in [PLACE] now."),
        # A given name owning a thing, not tagged a place, is a person.
        ("Heading to Chelsea's flat tonight, I'll bring snacks.",
         "Heading to Chelsea's flat tonight, I'll bring snacks."),
        # Tagged a place, it still owns no country's flat: the placeholder.
        ("Heading to Brooklyn's flat tonight, I'll bring snacks.",
         "Heading to [PLACE]'s flat tonight, I'll bring snacks."),
        # Counter-case: the same name where the author moves is a place.
        ("I moved from Austin to Denver last year.",
         "I moved from the US to another part of the US last year."),
    ],
)  # fmt: skip
def test_when_a_name_is_used_as_a_person_then_it_is_no_place(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A number apposed to a named or determined subject is that person's.
        ("Mayor Tom Baxter, 61, opened the new library on Monday. I went along.",
         "Mayor Tom Baxter, 61, opened the new library on Monday. I went along."),
        ("The landlord, 72, finally fixed the boiler. I can shower again.",
         "The landlord, 72, finally fixed the boiler. I can shower again."),
        # Counter-case: a bare noun with its subject left out is the author.
        ("Retired nurse, 58, still up at dawn every day.",
         "Former healthcare worker, in my fifties, still up at dawn every day."),
    ],
)  # fmt: skip
def test_when_an_age_is_apposed_to_someone_else_then_it_stays_theirs(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Several sentences, none of them the author's: a notice about no one.
        ("Morning ferry from Split to Hvar: departs Split 07:30. Return fare "
         "40 euros. Bikes go free.",
         "Morning ferry from Split to Hvar: departs Split 07:30. Return fare "
         "40 euros. Bikes go free."),
        ("Coastal Oregon outlook: Astoria cloudy with a high of 12 degrees. "
         "Winds ease by the evening.",
         "Coastal Oregon outlook: Astoria cloudy with a high of 12 degrees. "
         "Winds ease by the evening."),
        # One sentence said of someone or something named is theirs.
        ("The Bank of Ghana raised its policy rate in Accra on Monday.",
         "The Bank of Ghana raised its policy rate in Accra on Monday."),
        ("Naomi Osaka won her first major in New York at 20.",
         "Naomi Osaka won her first major in New York at 20."),
        # Counter-cases: a verb with its subject left out is the author's,
        # and so is a one-sentence comment.
        ("Moved from Split to Zagreb last spring. The coffee is better here.",
         "Moved from Croatia to another part of Croatia last spring. The coffee "
         "is better here."),
        ("Zagreb traffic is a nightmare.", "Traffic is a nightmare."),
        # A trait said of a name does not make a news item the author's, and
        # a saving is no income.
        ("Island shopkeeper Moira Doherty, 63, said deliveries would be late. "
         "A spokesperson for the council said the change saves £140,000 a year.",
         "Island shopkeeper Moira Doherty, 63, said deliveries would be late. "
         "A spokesperson for the council said the change saves £140,000 a year."),
        # A public figure's life in the third person keeps every word.
        ("Grace Okafor was born in 1950 in Enugu. She earned a doctorate in "
         "chemistry at Ibadan and taught in Lagos.",
         "Grace Okafor was born in 1950 in Enugu. She earned a doctorate in "
         "chemistry at Ibadan and taught in Lagos."),
        # Counter-case: the same degree said of the author goes.
        ("I hold a doctorate in chemistry. I live in Lagos.",
         "I hold a degree in chemistry. I live in [PLACE]."),
    ],
)  # fmt: skip
def test_when_a_text_speaks_of_no_one_then_its_places_stay(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The name's own word is the kind; a college is never a university.
        ("I got my diploma from Westfield Technical College in 2015.",
         "I finished my studies at a college in 2015."),
        # No word of the name or the sentence settles the kind.
        ("Took a plumbing course at Brackmoor and loved it.",
         "Took a plumbing course at [SCHOOL] and loved it."),
        # A degree says what was studied, not what the name is: no kind.
        ("Finished my PhD at Vantor last year.",
         "Finished my degree at [SCHOOL] last year."),
        # A name with a study word elsewhere in its sentence is some body.
        ("I'm an EMT with FDNY, just finished my associate's at Hostos.",
         "I'm a healthcare worker with FDNY, just finished my degree at [SCHOOL]."),
        # A kind noun written after the name goes with it ("a company school"
        # would not read).
        ("I work as a teaching assistant at Pilling school.",
         "I work as an educator at a school."),
        # Counter-case: the name's own word is its kind.
        ("Finished my PhD at Vantor University last year.",
         "Finished my degree at a university last year."),
        # A study word in a sentence that is not the author's names no school.
        ("Reminder: the class picnic is at Riverside Grounds on Saturday. "
         "Bring a hat. Thanks, Tom's dad",
         "Reminder: the class picnic is at Riverside Grounds on Saturday. "
         "Bring a hat. Thanks, Tom's dad"),
    ],
)  # fmt: skip
def test_when_a_school_is_named_then_its_kind_is_what_a_source_says(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A state and a city of one country: the city may lie in the state.
        ("Grew up in Texas and now I rent in Austin.",
         "Grew up in the US and now I rent in [PLACE]."),
        # Counter-case: two sure cities of different names are two places.
        ("I moved to Calgary for work and now I'm back home in Winnipeg.",
         "I moved to Canada for work and now I'm back home in another part of "
         "Canada."),
        # A city a country shares with another (Halifax, England) is settled
        # by no other city: only a country the text names would settle it.
        ("I moved to Calgary for work and now I'm back home in Halifax.",
         "I moved to [PLACE] for work and now I'm back home in [PLACE]."),
    ],
)  # fmt: skip
def test_when_two_places_share_a_country_then_another_part_is_said_of_two_cities(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "unwanted"),
    [
        # Letters glued before a currency sign are the currency's.
        ("I'm paid about WS$700 a fortnight. I'm 30.", "WS["),
        # A dotted abbreviation's last dot is its own, not a full stop.
        ("I hold an M.Sc. Physics from a small school.", "degree. Physics"),
        # A name that runs on into a capitalised noun goes whole.
        ("Dinner at Little Lisbon Grill was great, we loved it.", "Grill"),
        # A capitalised word before a place, in the same name, goes with it.
        ("Our coach with the Go North East lot was late. I live in Leeds.",
         "the Go lot"),
        # A postal code with dots qualifies the city, and its dot ends no
        # sentence ("Canada, B.C. And").
        ("Born in Kamloops, B.C., and raised there.", "B.C. And"),
        # A removed word after a bracket leaves no space inside it.
        ("I'm a crane operator, came here after UAF (BS marine tech).", "( "),
        # Two spans that overlap keep their own words ("24 y.o." the age's).
        ("I'm a 24 y.o. crane operator in town.", "a 24 operator"),
        # A sex word before a noun goes; "person" before a noun would not read.
        ("I'm a 41 y.o. male line cook in a busy kitchen.", "person"),
        # A status word keeps its "to": "spoken for ... to" would not read.
        ("Engaged since May to my childhood friend, I'm 27.", "Spoken for"),
        # Two spans side by side that would say one word twice keep it once.
        ("Married to my wife of ten years, I live by the sea.", "my my"),
    ],
)  # fmt: skip
def test_when_a_span_is_replaced_then_the_line_stays_grammatical(
    text: str, unwanted: str
) -> None:
    assert unwanted not in rewritten(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm a 41 y.o. male line cook in a busy kitchen.",
         "I'm a forty-something hospitality worker in a busy kitchen."),
        ("Engaged since May to my childhood friend, I'm 27.",
         "[RELATIONSHIP] since May to my childhood friend, I'm in my twenties."),
        ("I hold an M.Sc. Physics from a small school.",
         "I hold a degree Physics from a small school."),
        # One span keeps its own "my"; two side by side say it once.
        ("My wife and I live by the sea.", "My partner and I live by the sea."),
        ("Married to my wife of ten years, I live by the sea.",
         "With my partner of ten years, I live by the sea."),
        # A tag removed after a label's colon leaves no ":,".
        ("About me: 29F, born in Leeds.", "About me: born in [PLACE]."),
        # A body the tagger names, after "at", with nothing saying school or
        # work, is an organization; a name it does not call one stays a place.
        ("After six years at Northgate Freight Solutions, I'm moving on to a "
         "new role.",
         "After six years at [ORG], I'm moving on to a new role."),
        ("Stationed at Lossiemouth for two years, I'm back home now.",
         "Stationed at [PLACE] for two years, I'm back home now."),
    ],
)  # fmt: skip
def test_when_a_modifier_or_status_is_replaced_then_the_rest_reads(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize("text", ["", " ", "\n\n"])
def test_when_a_text_is_empty_then_it_has_no_cue(text: str) -> None:
    assert detect_cues(text, engine=default_engine()) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A name a person may carry, as a verb's subject or object, is
        # someone the sentence speaks of: no country stands for them.
        ("Orlando scored twice in the second half, not bad for a rookie. "
         "I coach the under-18s in Leeds.",
         "Orlando scored twice in the second half, not bad for a rookie. "
         "I coach the under-18s in [PLACE]."),
        # Apposed to a common noun, a name is what that noun says it is.
        ("We hope to adopt Memphis, the old beagle at the shelter. I'm in Glasgow.",
         "We hope to adopt Memphis, the old beagle at the shelter. I'm in [PLACE]."),
        # Counter-cases: the same names where a sentence puts a place.
        ("Orlando born, Orlando raised, I live in Leeds now.",
         "[PLACE] born, [PLACE] raised, I live in [PLACE] now."),
        ("I grew up in Memphis and moved to Leeds last year.",
         "I grew up in [PLACE] and moved to [PLACE] last year."),
        # A name no person carries keeps its place reading out of that role
        # too: a preposition left out in speech.
        ("Calgary is freezing today, I can't feel my toes.",
         "[PLACE] is freezing today, I can't feel my toes."),
    ],
)  # fmt: skip
def test_when_a_name_stands_where_a_person_does_then_it_is_no_place(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "borrowed"),
    [
        # A clause said of a named person keeps its words: "finishing my
        # studies" would make the author say it of themself.
        ("Two country legends: Johnny Cash grew up in Dyess and moved to "
         "Detroit the week after finishing high school.", False),
        # Counter-cases: the author as subject, or the subject left out.
        ("I moved to Detroit the week after finishing high school.", True),
        ("Grew up in Dyess and moved to Detroit the week after finishing "
         "high school.", True),
    ],
)  # fmt: skip
def test_when_a_clause_is_said_of_someone_else_then_no_first_person_is_added(
    text: str, borrowed: bool
) -> None:
    cues = detect_cues(text, engine=default_engine())
    added = [c for c in cues if "my " in c.replacement and "my " not in c.quote]
    assert bool(added) is borrowed


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A sum a thing has, or one another clause's pay word stands near,
        # is no income.
        ("I think the new timetable saves £140,000 a year.",
         "I think the new timetable saves £140,000 a year."),
        ("At £34.99 it costs more than the steel one, but the free return made "
         "it a low-risk try. I like it.",
         "At £34.99 it costs more than the steel one, but the free return made "
         "it a low-risk try. I like it."),
        # A week's or an hour's pay says no year's band.
        ("Take home is about €520 a week, which isn't much.",
         "Take home is about [INCOME] a week, which isn't much."),
        ("I make like $19/hr so I'm broke.", "I make like [INCOME] so I'm broke."),
        # A pay noun right before the figure would be said twice.
        ("Offshore one, salary around RM7k per month can la.",
         "Offshore one, salary [INCOME] can la."),
        # Counter-cases: a year's or a month's pay of the author's keeps its band.
        ("I get about £21,000 a year before tax.", "I get a decent salary."),
        ("I earn 3,000 euros a month.", "I earn a decent salary."),
    ],
)  # fmt: skip
def test_when_an_amount_is_no_pay_of_the_author_or_its_band_a_guess_then_no_band(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A title word the parse reads as a verb names no job.
        ("Add the milk and cook until the potatoes break.",
         "Add the milk and cook until the potatoes break."),
        ("Guard the door and clean the floor, then judge the cakes.",
         "Guard the door and clean the floor, then judge the cakes."),
        # Counter-case: the same word as a noun of the author's is a job.
        ("I'm a cook at a diner in Leeds.",
         "I'm a hospitality worker at a diner in [PLACE]."),
    ],
)  # fmt: skip
def test_when_a_title_word_is_a_verb_then_it_names_no_job(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A council named with places is one body, of a kind its name says.
        ("I work for Causeway Coast and Glens Borough Council in Coleraine.",
         "I work for [ORG] in [PLACE]."),
        # A place inside an institution's name is the name's.
        ("I'm a nurse, I graduated from Ateneo de Davao.",
         "I'm a healthcare worker, I graduated from [SCHOOL]."),
        # A place before a noun takes its placeholder, never "another part of".
        ("I live in Hialeah but pay Miami rent.",
         "I live in the US but pay [PLACE] rent."),
        # A name before its kind noun, apposed to a place, is one place.
        ("I was born on Taveuni, Somosomo village.",
         "I was born on [PLACE], [PLACE]."),
        # A plural's possessive after its placeholder reads.
        ("I studied on the Islands' scholarship.",
         "I studied on [PLACE]'s scholarship."),
        # A city's name one is "on" is an island's or a street's.
        (
            "Chef, 38, seeking a kitchen job on Provo.",
            "Hospitality worker, in my thirties, seeking a kitchen job on [PLACE].",
        ),
        # A name right after "married to" is the partner, however parsed.
        ("Married to Anna Mae twenty-six years, seven children.",
         "Married to [PERSON] twenty-six years, seven children."),
        # Counter-cases: the same places standing alone keep their forms.
        ("I'm a nurse in Davao.", "I'm a healthcare worker in [PLACE]."),
        ("I live in Hialeah but I was born in Miami.",
         "I live in the US but I was born in another part of the US."),
        ("I live in Labasa town.", "I live in [PLACE] town."),
        ("We got married and moved to Leeds.", "We settled down and moved to [PLACE]."),
        ("Engaged since June to Shannon, who is from Limerick herself.",
         "[RELATIONSHIP] since June to [PERSON], who is from Limerick herself."),
        (
            "Chef, 38, seeking a kitchen job in Provo.",
            "Hospitality worker, in my thirties, seeking a kitchen job in [PLACE].",
        ),
    ],
)  # fmt: skip
def test_when_a_name_is_part_of_a_longer_name_or_phrase_then_it_goes_with_it(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A report about a noun-named person: "the driver" and "a 47-year-old
        # ferry hand ... was taken" are theirs, and the text is about no one.
        ("KIRKWALL: A 47-year-old ferry hand from Stromness was taken to "
         "hospital on Monday. The man, who has crewed the route for a decade, "
         "is said to be comfortable.",
         "KIRKWALL: A 47-year-old ferry hand from Stromness was taken to "
         "hospital on Monday. The man, who has crewed the route for a decade, "
         "is said to be comfortable."),
        # Counter-case: an active "a baker ... earning" is the author's
        # fragment, whatever subject the parse gives it.
        ("Born in Cork in '88, now a baker in Leeds earning $21 an hour.",
         "Born in [PLACE] in the 1980s, now a food worker in [PLACE] earning "
         "[INCOME] an hour."),
    ],
)  # fmt: skip
def test_when_a_noun_named_person_is_the_subject_then_the_trait_is_theirs(
    text: str, expected: str
) -> None:
    assert rewritten(text) == expected
