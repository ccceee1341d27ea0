"""report.html rendered in headless Debian chromium: records, diff marks, filters.

One browser for the whole module. Without chromium the tests skip on a
developer's machine (`make test` installs it) and fail under CI=true.
Set ANONYGRAPH_SCREENSHOT=PATH to also save the page's screenshot there
(docs/report.png in docs/evaluation.md is made this way).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import Chromium, chromium_or_skip
from report_run import HOSTILE_TEXT, ReviewStore


@pytest.fixture(scope="module")
def page(review_store: ReviewStore) -> Iterator[Chromium]:
    with chromium_or_skip() as browser:
        browser.open(review_store.report["html"])
        yield browser


def _set(page: Chromium, control: str, value: str) -> None:
    """Change a filter the way a person does: set it and fire its event."""
    event = "input" if control == "f-id" else "change"
    page.js(
        f"(() => {{ const c = document.getElementById({control!r});"
        f" c.value = {value!r}; c.dispatchEvent(new Event({event!r})); }})()"
    )


def _cards(page: Chromium) -> list[dict[str, str]]:
    value = page.js(
        "Array.from(document.querySelectorAll('#records section.record')).map(s => "
        "({id: s.dataset.id, head: s.querySelector('header').textContent,"
        " text: s.textContent}))"
    )
    return list(value)


def _reset(page: Chromium) -> None:
    for control in ("f-method", "f-status", "f-attribute", "f-id"):
        _set(page, control, "")


def test_when_the_page_opens_then_it_makes_no_request_and_runs_no_record_script(
    page: Chromium, review_store: ReviewStore
) -> None:
    requests = page.requests()

    own = review_store.report["html"].resolve().as_uri()
    assert requests[0] == own
    assert all(url == own or url.startswith("data:image/png") for url in requests)
    assert page.js("typeof window.__pwned") == "undefined"
    inside = "document.querySelectorAll('#records img, #records script').length"
    assert page.js(inside) == 0


def test_when_the_page_opens_then_records_show_their_diff_rounds_and_cost(
    page: Chromium, tmp_path: Path
) -> None:
    _reset(page)

    cards = _cards(page)
    assert len(cards) == 25  # the first page of 28 records
    assert page.js("document.getElementById('count').textContent") == (
        "28 of 28 record(s)"
    )
    assert page.js("document.getElementById('page').textContent") == "page 1 of 2"
    r02 = next(c for c in cards if c["id"] == "r02" and "rlaa" in c["head"])
    assert "max_iterations" in r02["head"] and "13 call(s)" in r02["head"]
    assert "round 1 (rewritten)" in r02["text"]
    assert "round 2 (rewrite rejected)" in r02["text"]
    assert page.js(
        "Array.from(document.querySelectorAll('#records del')).map(e => e.textContent)"
    )[:3] == ["children's ward", "husband", "Calgary"]
    assert "a cold city" in page.js(
        "Array.from(document.querySelectorAll('#records ins')).map(e => e.textContent)"
    )
    methods = "document.querySelector('table.summary').tBodies[0].rows.length"
    assert page.js(methods) == 3
    assert page.js("document.querySelectorAll('.plots img').length") == 2
    headings = page.js(
        "Array.from(document.querySelectorAll('h2')).map(h => h.textContent)"
    )
    assert any(h.startswith("Per round: rlaa (rlaa; attacker ") for h in headings)
    shot = page.screenshot(tmp_path / "report.png")
    assert shot.stat().st_size > 20_000


def test_when_a_filter_changes_then_only_matching_records_are_shown(
    page: Chromium,
) -> None:
    _reset(page)
    _set(page, "f-method", "fgaa")
    fgaa = _cards(page)
    _set(page, "f-status", "failed")
    failed = _cards(page)
    _reset(page)
    _set(page, "f-attribute", "birth_city_country")
    born = _cards(page)
    _reset(page)
    page.js("document.getElementById('next').click()")
    second_page = _cards(page)

    assert len(fgaa) == 14 and all("fgaa" in c["head"] for c in fgaa)
    assert [c["id"] for c in failed] == ["x-fails"]
    assert "error:" in failed[0]["text"] and "attack" in failed[0]["text"]
    assert sorted({c["id"] for c in born}) == ["r02", "r05", "r09"]
    assert len(second_page) == 3
    assert page.js("document.getElementById('page').textContent") == "page 2 of 2"


def test_when_a_text_holds_markup_then_the_page_shows_it_as_text(
    page: Chromium,
) -> None:
    _reset(page)
    _set(page, "f-id", "x-hostile")

    cards = _cards(page)
    assert len(cards) == 2
    original = page.js(
        "document.querySelector('#records .sides > div').textContent"
    ).removeprefix("original")
    assert original == HOSTILE_TEXT
    assert page.js("typeof window.__pwned") == "undefined"
    assert page.js("document.querySelectorAll('#records img').length") == 0


def test_when_asked_then_a_screenshot_of_the_review_is_saved(page: Chromium) -> None:
    target = os.environ.get("ANONYGRAPH_SCREENSHOT")
    if not target:
        return
    _reset(page)
    page.js("window.scrollTo(0, document.getElementById('filters').offsetTop - 8)")
    page.screenshot(Path(target))
    assert Path(target).stat().st_size > 20_000


def test_when_the_window_is_1280_wide_then_only_the_tables_own_box_scrolls(
    page: Chromium, review_store: ReviewStore, tmp_path: Path
) -> None:
    _reset(page)
    # The widest main table a report may get: long run ids and method names.
    page.js(
        "document.querySelectorAll('table.summary tbody td:nth-child(3)').forEach("
        "c => c.textContent = 'rlaa-' + 'a'.repeat(120))"
    )
    # Every record shown, as a person scrolling the whole page sees them.
    page.js("window.scrollTo(0, document.body.scrollHeight)")

    width = page.js("window.innerWidth")
    page_width = page.js("document.documentElement.scrollWidth")
    boxes = page.js(
        "Array.from(document.querySelectorAll('table.summary')).map(t => {"
        " const box = t.parentElement; const style = getComputedStyle(box);"
        " return {cls: box.className, overflow: style.overflowX,"
        " scrolls: box.scrollWidth > box.clientWidth,"
        " right: box.getBoundingClientRect().right}; })"
    )

    assert width == 1280
    assert page_width <= width, f"the page scrolls sideways: {page_width} px"
    main = boxes[0]
    assert main["cls"] == "table-box" and main["overflow"] == "auto"
    assert main["scrolls"] and main["right"] <= width
    assert all(b["cls"] == "table-box" and b["right"] <= width for b in boxes)
    if os.environ.get("ANONYGRAPH_SCREENSHOT"):
        page.screenshot(tmp_path / "wide.png")
