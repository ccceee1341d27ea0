"""The identifier pre-pass: replaced before any model sees the text, checked after."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from scripted import (
    Script,
    attack_json,
    fenced,
    rewrite_json,
    rlaa_batch,
    verdicts_json,
)
from servers import FakeOpenAI

from anonygraph.graphs import rlaa
from anonygraph.identifiers import IdentifierBook
from anonygraph.identifiers.prepass import identifier_leaks, replace_identifiers
from anonygraph.state.context import Context

TICKET = (
    "Hi, I'm Sarah Connor, reach me at sarah.connor@gmail.com or +1 415 555 0199. "
    "My SSN is 123-45-6789."
)
SECRETS = ("Sarah", "Connor", "sarah.connor@gmail.com", "415 555 0199", "123-45-6789")


def test_when_a_ticket_is_prepassed_then_each_identifier_is_a_placeholder() -> None:
    update = replace_identifiers(TICKET, "placeholder")

    assert not any(secret in update["source"] for secret in SECRETS)
    assert "[EMAIL_1]" in update["source"] and "[PHONE_1]" in update["source"]
    assert update["current"] == update["source"]
    assert update["identifiers"] == {
        "EMAIL": 1, "NATIONAL_ID": 1, "PERSON": 1, "PHONE": 1,
    }  # fmt: skip
    assert "identifier_mapping" not in update  # only with keep_mapping


def test_when_comments_name_one_person_twice_then_the_placeholder_is_the_same() -> None:
    book = IdentifierBook("placeholder")
    first = book.replace("Thanks, Priya Raman. Mail priya.raman@example.org today.")
    second = book.replace("Priya said she would call. Ask Tomasz Nowak too.")

    assert "[PERSON_1]" in first and "[PERSON_1] said" in second
    assert "[PERSON_2]" in second  # another person, another number
    # Restore puts back the person's first-seen spelling, the full name.
    assert book.restore(second) == (
        "Priya Raman said she would call. Ask Tomasz Nowak too."
    )


def test_when_surrogates_use_one_seed_then_the_same_value_gets_the_same_fake() -> None:
    text = "Write to sarah.connor@gmail.com, SSN 123-45-6789."
    one = IdentifierBook("surrogate", seed=7).replace(text)
    again = IdentifierBook("surrogate", seed=7).replace(text)
    other = IdentifierBook("surrogate", seed=8).replace(text)

    assert one == again
    assert one != other
    assert "sarah.connor@gmail.com" not in one and "123-45-6789" not in one
    assert "@" in one  # a fake e-mail, not a placeholder


def test_when_keep_is_chosen_then_the_final_check_names_the_leaks() -> None:
    update = replace_identifiers(TICKET, "keep")

    assert update["source"] == TICKET
    assert update["identifiers"] == {}  # nothing was replaced
    left = identifier_leaks(update["source"], update["replacements"])
    assert "identifier:EMAIL" in left


def test_when_only_our_replacements_are_left_then_no_leak_is_named() -> None:
    update = replace_identifiers(TICKET, "surrogate", seed=3)

    assert identifier_leaks(update["source"], update["replacements"]) == []


def _remote_answer(body: dict[str, Any]) -> str:
    """Answer each RLAA role as a remote model would, from the request alone."""
    prompt = "\n".join(str(m.get("content") or "") for m in body["messages"])
    text = fenced(prompt) or ""
    if "seasoned investigator" in prompt:
        city = ("Springfield, US", 4) if "Springfield" in text else None
        return attack_json(city_country=city)
    if "You are an arbitrator" in prompt:
        return verdicts_json(city_country="high")
    return rewrite_json(text.replace("Springfield", "a town"))


def test_when_a_remote_model_runs_rlaa_then_no_request_holds_an_identifier(
    tmp_path: Path,
) -> None:
    source = tmp_path / "in.jsonl"
    record = {
        "id": "t1",
        "comments": [
            TICKET + " I live in Springfield.",
            "Sarah again: my card 4111 1111 1111 1111 was charged twice.",
        ],
    }
    source.write_text(json.dumps(record) + "\n")
    with FakeOpenAI(answer=_remote_answer) as fake:
        summary = rlaa_batch(
            tmp_path, source, default_model=f"openai:remote@{fake.url}",
            cache_mode="off",
        )  # fmt: skip

    sent = json.dumps(fake.requests, ensure_ascii=False)
    assert fake.requests, "the remote model was never asked"
    leaked = [s for s in (*SECRETS, "4111 1111 1111 1111") if s in sent]
    assert leaked == []
    line = json.loads((tmp_path / "out.jsonl").read_text())
    assert line["identifiers_replaced"]["CARD"] == 1
    assert "[PERSON_1]" in line["comments"][0] and "[PERSON_1]" in line["comments"][1]
    assert summary.failed == 0


@pytest.mark.parametrize(
    ("mode", "outcome"),
    [("placeholder", "anonymized"), ("keep", "unchanged")],
)
def test_when_the_attacker_finds_nothing_then_an_identifier_left_rules_out_anonymized(
    script: Script, mode: str, outcome: str
) -> None:
    script.set("attacker", attack_json(city_country=None))
    context = Context(
        default_model="local", attributes=["city_country"], identifiers=mode
    )

    record = {"text": "Write to sarah.connor@gmail.com."}
    result = asyncio.run(rlaa.graph.ainvoke(record, context=context))

    assert result["outcome"] == outcome
    if mode == "keep":
        assert result["leaks"] == ["identifier:EMAIL"]
        assert "sarah.connor@gmail.com" in result["anonymized"]
    else:
        assert result["anonymized"] == "Write to [EMAIL_1]."
        assert script.prompts("attacker") and all(
            "sarah.connor" not in p for p in script.prompts("attacker")
        )


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Divorced two years now and it's the best decision I've made.", []),
        ("Our startup in Berlin just closed its Series A.", []),
        ("Mum keeps sending care packages from Manchester though.", []),
        ("I'm meeting friends later.", []),
        ("Great talk.\nCheers Tom", ["Tom"]),
        ("hey its maria lol", ["maria"]),
        ("Best,\nAna Souza", ["Ana Souza"]),
    ],
)
def test_when_a_word_follows_a_name_cue_then_only_a_name_is_taken(
    text: str, names: list[str]
) -> None:
    from anonygraph.identifiers import find_identifiers

    found = [i.text for i in find_identifiers(text) if i.kind == "PERSON"]
    assert found == names


@pytest.mark.parametrize("keep", [True, False])
def test_when_the_mapping_is_kept_then_only_the_store_holds_it(
    tmp_path: Path, keep: bool
) -> None:
    from anonygraph.runs.io.output import export_mapping
    from anonygraph.runs.store import RunStore

    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "m1", "text": TICKET}) + "\n")
    summary = rlaa_batch(tmp_path, source, default_model="rules", keep_mapping=keep)

    output = (tmp_path / "out.jsonl").read_text()
    assert "sarah.connor@gmail.com" not in output and "[EMAIL_1]" in output
    mapping = tmp_path / "mapping.jsonl"
    db = RunStore(str(tmp_path / "runs.sqlite"))
    try:
        written = export_mapping(db, summary.run_id, str(mapping))
        (row,) = db.records(summary.run_id)
    finally:
        db.close()
    assert bool(json.loads(row["result"]).get("identifier_mapping")) == keep
    assert mapping.stat().st_mode & 0o777 == 0o600
    if keep:
        (line,) = [json.loads(x) for x in mapping.read_text().splitlines()]
        assert written == 1 and line["id"] == "m1"
        assert {"kind": "EMAIL", "replacement": "[EMAIL_1]",
                "original": "sarah.connor@gmail.com"} in line["mapping"]  # fmt: skip
    else:
        assert written == 0 and mapping.read_text() == ""
