"""Per-record review: word diff, judged guesses, `anonygraph show`, report.html text."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from report_run import HOSTILE_TEXT, ReviewStore

from anonygraph.cli import main
from anonygraph.reporting.html_page import json_for_script
from anonygraph.reporting.record_view import (
    judged_inferences,
    label_values,
    record_reviews,
)
from anonygraph.runs.store import RunStore
from anonygraph.tools.text_diff import changed_words, render_terminal, word_diff


def test_when_a_word_is_replaced_then_the_diff_marks_it_removed_and_inserted() -> None:
    pieces = word_diff("I moved to Calgary last year.", "I moved to a city last year.")

    assert pieces == [
        ("equal", "I moved to "),
        ("delete", "Calgary"),
        ("insert", "a city"),
        ("equal", " last year."),
    ]
    assert changed_words(pieces) == (1, 2)
    assert render_terminal(pieces) == "I moved to [-Calgary-]{+a city+} last year."


@given(st.text(max_size=80), st.text(max_size=80))
def test_when_any_two_texts_are_diffed_then_both_sides_join_back(
    a: str, b: str
) -> None:
    pieces = word_diff(a, b)

    assert "".join(t for op, t in pieces if op != "insert") == a
    assert "".join(t for op, t in pieces if op != "delete") == b


def _review(store: ReviewStore, run: str, record: str) -> dict:
    return record_reviews(RunStore(store.db), store.runs[run], record)[0]


def test_when_a_run_is_reviewed_then_each_round_judges_guesses_against_labels(
    review_store: ReviewStore,
) -> None:
    review = _review(review_store, "rlaa", "r02")

    assert review["status"] == "done" and review["outcome"] == "max_iterations"
    first, second = review["rounds"][:2]
    city = {i["attribute"]: i for i in first["inferences"]}["city_country"]
    assert city["guesses"] == [{"guess": "Calgary, Canada", "outcome": "correct"}]
    assert city["certainty"] == 4 and city["truth"] == "Calgary, Canada"
    assert [p["attribute"] for p in first["policy"]] == [
        "city_country",
        "birth_city_country",
    ]
    assert first["rewrite"] == "rewritten"
    later = {i["attribute"]: i for i in second["inferences"]}["city_country"]
    assert later["guesses"] == [{"guess": "Canada", "outcome": "less_precise"}]
    assert second["rewrite"] == "rewrite rejected"
    assert ("delete", "Calgary") in review["diff"]
    assert ("insert", "a cold city") in review["diff"]
    # 3 rounds of attack, arbitrate, anonymize; rounds 2 and 3 retry their
    # refused rewrite once; the final text is attacked and arbitrated again.
    assert review["cost"]["calls"] == 13 and review["cost"]["tokens_in"] > 0
    final = {m["attribute"]: m for m in review["evaluation"]["final"]}
    assert final["city_country"]["guesses"][0]["outcome"] == "less_precise"


def test_when_a_record_failed_then_its_review_keeps_the_error_and_the_text(
    review_store: ReviewStore,
) -> None:
    review = _review(review_store, "fgaa", "x-fails")

    assert review["status"] == "failed" and review["outcome"] == ""
    assert "attack" in review["error"]
    assert review["diff"] == [("equal", "FAILME: my husband and I moved to Leeds.")]


def test_when_show_names_a_record_then_the_terminal_shows_diff_rounds_and_cost(
    review_store: ReviewStore, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["show", "--db", review_store.db, "--run", "rlaa", "--id", "r02"])

    out = capsys.readouterr().out
    assert code == 0
    assert "done (max_iterations)" in out and "13 call(s)" in out
    assert "Moved to [-Calgary-]{+a cold city+} for the oil sands job" in out
    assert "-- round 1 (rewritten)" in out
    assert "guess city_country: Calgary, Canada (right)" in out
    assert "policy city_country: generalize" in out
    assert "-- round 2 (rewrite rejected)" in out
    assert "evaluator's attack on the final text" in out
    assert "\x1b[" not in out  # not a terminal: no colour codes


def test_when_show_names_a_missing_record_then_it_exits_2_naming_it(
    review_store: ReviewStore, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["show", "--db", review_store.db, "--run", "rlaa", "--id", "nope"])

    assert code == 2
    assert "run 'rlaa' has no record 'nope'" in capsys.readouterr().err


def test_when_show_has_no_id_then_every_record_is_shown_by_id(
    review_store: ReviewStore, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["show", "--db", review_store.db, "--run", "fgaa"]) == 0

    heads = re.findall(r"^== (\S+)", capsys.readouterr().out, re.M)
    assert heads == [f"r{i:02d}" for i in range(1, 13)] + ["x-fails", "x-hostile"]


def _page(review_store: ReviewStore) -> tuple[str, str]:
    page = review_store.report["html"].read_text()
    found = re.search(
        r'<script type="application/json" id="review-data">(.*?)</script>', page, re.S
    )
    assert found is not None
    return page[: found.start()] + page[found.end() :], found.group(1)


def test_when_the_report_is_written_then_the_page_names_no_external_url(
    review_store: ReviewStore,
) -> None:
    markup, data = _page(review_store)

    assert not re.search(r"https?://|@import|<link\b|<iframe\b", markup, re.I)
    sources = re.findall(r"""\b(?:src|href)\s*=\s*["']?([^"'\s>]*)""", markup, re.I)
    assert sources and all(s.startswith("data:image/png;base64,") for s in sources)
    assert all(u.startswith("data:") for u in re.findall(r"url\(([^)]*)\)", markup))
    assert "default-src 'none'" in markup  # the browser refuses any other request
    # The hostile record's URLs are text inside the data block, never markup.
    assert "<" not in data and ">" not in data


def test_when_a_text_holds_markup_then_the_data_block_carries_it_verbatim(
    review_store: ReviewStore,
) -> None:
    _, data = _page(review_store)

    records = json.loads(data)["records"]
    hostile = [r for r in records if r["id"] == "x-hostile"]
    assert len(hostile) == 2  # one per method
    original = "".join(t for op, t in hostile[0]["diff"] if op != "insert")
    assert original == HOSTILE_TEXT
    assert review_store.report["html"].stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize(
    "text", ["</script><script>alert(1)</script>", "<!--", "a\u2028b", "&lt;"]
)
def test_when_text_could_end_a_script_block_then_it_is_escaped(text: str) -> None:
    encoded = json_for_script({"t": text})

    assert not re.search(r"[<>&\u2028\u2029]", encoded)
    assert json.loads(encoded) == {"t": text}


def test_when_labels_use_data_set_names_then_guesses_are_still_judged() -> None:
    labels = label_values(
        {"pobp": {"value": "Osaka, Japan", "hardness": 3}, "income": "low"}
    )

    judged = judged_inferences(
        [
            {"attribute": "birth_city_country", "guesses": ["Osaka, Japan", "Kyoto"],
             "certainty": 4, "reasoning": "takoyaki"},
            {"attribute": "income_level", "guesses": ["high"], "certainty": 2},
            {"attribute": "age", "guesses": ["30"], "certainty": 3},
            {"attribute": "sex", "guesses": [], "certainty": 1},
        ],
        labels,
    )  # fmt: skip

    assert [j["attribute"] for j in judged] == [
        "birth_city_country",
        "income_level",
        "age",
    ]
    # Kyoto lies in the label's country: less precise, as people judge it.
    assert [g["outcome"] for g in judged[0]["guesses"]] == ["correct", "less_precise"]
    assert judged[1]["guesses"][0]["outcome"] == "wrong"
    assert judged[2]["truth"] is None and judged[2]["guesses"][0]["outcome"] is None


def test_when_colour_is_forced_then_removed_words_are_red_and_inserted_green(
    review_store: ReviewStore, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["show", "--db", review_store.db, "--run", "rlaa", "--id", "r02"]

    assert main([*argv, "--color", "always"]) == 0

    out = capsys.readouterr().out
    assert "\x1b[31m[-Calgary-]\x1b[0m\x1b[32m{+a cold city+}\x1b[0m" in out
