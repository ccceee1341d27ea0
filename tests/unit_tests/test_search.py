"""Offline full-text search backend and the guards around web search."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from anonygraph.tools.search import (
    OfflineSearch,
    SearchBackend,
    SearchError,
    SearchQuery,
    TavilySearch,
    WebSearchDisabledError,
    as_tool,
    build_index,
    fts_query,
    get_backend,
    html_to_text,
)

PAGES = [
    {
        "title": "Jonas Keller - mechanical engineer in Zürich",
        "url": "https://example.org/jonas",
        "text": "Jonas, 31, designs turbines in Zürich and cuts his own hair "
        "since the pandemic. Member of the WaldGänger hiking club.",
    },
    {
        "title": "Sourdough diaries",
        "url": "https://example.org/bread",
        "text": "A baker in Lyon, France writes about wild yeast and rye.",
    },
    {
        "title": "Hiking clubs of Switzerland",
        "url": "https://example.org/clubs",
        "content": "A list of hiking clubs in Bern, Basel and Zurich.",
    },
]


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    path = tmp_path / "pages.jsonl"
    path.write_text("\n".join(json.dumps(p) for p in PAGES) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def queries() -> list[SearchQuery]:
    return []


@pytest.fixture
def backend(corpus: Path, tmp_path: Path, queries: list[SearchQuery]) -> OfflineSearch:
    return OfflineSearch.from_corpus(
        corpus, tmp_path / "index.db", log_query=queries.append
    )


def test_when_corpus_is_indexed_then_the_index_file_is_private(
    corpus: Path, tmp_path: Path
) -> None:
    index = tmp_path / "nested" / "index.db"
    assert build_index(corpus, index) == 3
    assert stat.S_IMODE(index.stat().st_mode) == 0o600


def test_when_clues_are_searched_then_the_matching_page_ranks_first(
    backend: OfflineSearch,
) -> None:
    hits = backend.search("engineer Zurich own haircut WaldGänger", k=3)
    assert hits[0].url == "https://example.org/jonas"
    assert "turbines" in hits[0].snippet
    assert len(hits) <= 3


def test_when_clues_are_generalized_then_the_page_is_no_longer_found(
    backend: OfflineSearch,
) -> None:
    assert backend.search("a person who works in a large city and likes nature") == []
    assert backend.search("in a at the of") == []  # stopwords are no clues


@pytest.mark.parametrize(
    "query",
    ['"own hair" AND (', "NEAR(zurich", "title:* -bread", "c'est \"lyon", "^^^"],
)
def test_when_query_has_fts_syntax_then_it_is_searched_as_plain_words(
    backend: OfflineSearch, query: str
) -> None:
    backend.search(query, k=5)  # must not raise an FTS5 syntax error


def test_when_query_quotes_a_phrase_then_the_phrase_is_kept() -> None:
    assert fts_query('Zurich "own hair" 31') == '"own hair" OR "zurich" OR "31"'
    assert fts_query("the engineer in Zurich") == '"engineer" OR "zurich"'
    assert fts_query("  ...  ") == ""


def test_when_any_query_is_made_then_the_hook_sees_it_first(
    backend: OfflineSearch, queries: list[SearchQuery]
) -> None:
    backend.search("lyon", k=2)
    backend.search("", k=2)
    assert [(q.backend, q.query, q.k) for q in queries] == [
        ("offline", "lyon", 2),
        ("offline", "", 2),
    ]


def test_when_a_folder_is_indexed_then_text_markdown_and_html_pages_count(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "site"
    (folder / "blog").mkdir(parents=True)
    (folder / "about.html").write_text(
        "<html><head><title>About Ana</title><script>var zurich = 1;</script></head>"
        "<body><h1>Ana</h1><p>Nurse in Porto.</p></body></html>",
        encoding="utf-8",
    )
    (folder / "blog" / "post.md").write_text("# Trip\nWe hiked near Bern.", "utf-8")
    (folder / "notes.txt").write_text("Shopping list\nrye flour", encoding="utf-8")
    (folder / "image.png").write_bytes(b"\x89PNG")
    search = get_backend(
        "offline", log_query=lambda q: None, index_path=tmp_path / "i.db", corpus=folder
    )
    assert [h.url for h in search.search("porto nurse")] == ["about.html"]
    assert search.search("porto")[0].title == "About Ana"
    assert search.search("zurich") == []  # script text is not page text
    assert search.search("bern")[0].url == "blog/post.md"
    assert search.search("rye")[0].title == "Shopping list"


def test_when_html_is_read_then_title_and_visible_text_are_kept() -> None:
    title, text = html_to_text(
        "<title>T</title><style>p{}</style><p>One</p><p>Two &amp; three</p>"
    )
    assert (title, text) == ("T", "One\nTwo & three")


def test_when_corpus_line_is_bad_then_the_error_names_file_and_line(
    tmp_path: Path,
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"title": "ok", "text": "fine"}\n{"title": "no text"}\n', "utf-8")
    with pytest.raises(ValueError, match=r"bad\.jsonl:2: page needs"):
        build_index(bad, tmp_path / "i.db")


def test_when_index_is_missing_then_opening_it_fails_clearly(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no search index"):
        OfflineSearch(tmp_path / "absent.db", log_query=lambda q: None)


@pytest.mark.parametrize("name", ["ddgs", "tavily"])
def test_when_a_web_backend_is_named_without_opt_in_then_it_is_refused(
    name: str,
) -> None:
    with pytest.raises(WebSearchDisabledError, match="internet"):
        get_backend(name, log_query=lambda q: None)  # type: ignore[arg-type]


def test_when_tavily_has_no_key_then_it_fails_before_any_query(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    with pytest.raises(SearchError, match="TAVILY_API_KEY"):
        TavilySearch(log_query=lambda q: None)


def test_when_backend_is_unknown_or_offline_lacks_an_index_then_it_says_so() -> None:
    with pytest.raises(ValueError, match="unknown search backend"):
        get_backend("bing", log_query=lambda q: None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="index_path"):
        get_backend("offline", log_query=lambda q: None)


def test_when_backend_is_wrapped_as_a_tool_then_it_returns_readable_hits(
    backend: OfflineSearch,
) -> None:
    assert isinstance(backend, SearchBackend)
    web_search = as_tool(backend, k=1)
    assert web_search.__name__ == "web_search"
    assert "Search the web" in (web_search.__doc__ or "")
    assert web_search("sourdough Lyon").startswith(
        "[1] Sourdough diaries\nhttps://example.org/bread"
    )
    assert web_search("nothing like this") == "No results."
