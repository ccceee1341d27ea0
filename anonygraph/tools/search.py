"""Search backends for the web-search adversary: offline FTS, DuckDuckGo, Tavily."""

from __future__ import annotations

import functools
import json
import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Protocol, runtime_checkable

from anonygraph.runs.files import secure_file
from anonygraph.state.context import SearchBackendName as BackendName

WEB_BACKENDS: frozenset[str] = frozenset({"ddgs", "tavily"})
"""Backends that reach the internet and so need an explicit opt-in."""

CORPUS_SUFFIXES = (".txt", ".md", ".html", ".htm")
"""Files of a corpus folder that are indexed."""


@dataclass(frozen=True)
class SearchHit:
    """One search result."""

    title: str
    """Page title."""

    url: str
    """Where the page is (a web address, or the corpus path offline)."""

    snippet: str
    """Text around the match, as the backend returns it."""


@dataclass(frozen=True)
class SearchQuery:
    """An outgoing query, as handed to the logging hook before it is sent."""

    backend: str
    """Backend name: offline, ddgs or tavily."""

    query: str
    """The query text exactly as sent."""

    k: int
    """How many results were asked for."""

    at: float = field(default_factory=time.time)
    """Unix time the query was made."""


QueryLogger = Callable[[SearchQuery], None]
"""Hook that records every query, e.g. into the run store."""


class SearchError(RuntimeError):
    """A backend failed to answer; the message names the backend."""


class WebSearchDisabledError(RuntimeError):
    """A web backend was asked for without the explicit opt-in."""


@runtime_checkable
class SearchBackend(Protocol):
    """Anything that answers a query with ranked hits."""

    name: str

    def search(self, query: str, k: int = 5) -> list[SearchHit]:
        """Return up to ``k`` hits for ``query``, best first."""
        ...


# --------------------------------------------------------------------------
# Offline: a local corpus in SQLite FTS5
# --------------------------------------------------------------------------


class _TextExtractor(HTMLParser):
    """Collect visible text and the title of an HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title = ""
        self._skip = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "noscript"):
            self._skip += 1
        elif tag == "title":
            self._in_title = True
        elif tag in ("p", "br", "div", "li", "h1", "h2", "h3", "tr", "section"):
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "noscript") and self._skip:
            self._skip -= 1
        elif tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._in_title:
            self.title += data
        else:
            self.parts.append(data)


def html_to_text(html: str) -> tuple[str, str]:
    """Return ``(title, text)`` of an HTML page without scripts and styles."""
    parser = _TextExtractor()
    parser.feed(html)
    parser.close()
    text = re.sub(r"[ \t]+", " ", "".join(parser.parts))
    text = re.sub(r"\s*\n\s*", "\n", text).strip()
    return parser.title.strip(), text


def _page_from_file(path: Path, root: Path) -> dict[str, str]:
    raw = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix.lower() in (".html", ".htm"):
        title, body = html_to_text(raw)
    else:
        body = raw.strip()
        first = next((line for line in body.splitlines() if line.strip()), "")
        title = first.lstrip("#").strip()
    return {
        "title": title or path.stem,
        "url": path.relative_to(root).as_posix(),
        "body": body,
    }


def iter_corpus(corpus: str | Path) -> Iterator[dict[str, str]]:
    """Yield pages ``{title, url, body}`` from a JSONL file or a folder.

    A JSONL line holds ``title``, ``url`` and the text in ``text``, ``body`` or
    ``content``. A folder contributes every .txt, .md and .html file below it.

    Args:
        corpus: The JSONL file or the folder.

    Raises:
        ValueError: naming file and line, for a JSONL line without text.
        FileNotFoundError: when the corpus does not exist.

    """
    source = Path(corpus)
    if source.is_dir():
        for path in sorted(source.rglob("*")):
            if path.is_file() and path.suffix.lower() in CORPUS_SUFFIXES:
                yield _page_from_file(path, source)
        return
    if not source.is_file():
        raise FileNotFoundError(f"no such corpus: {source}")
    with source.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as error:
                raise ValueError(
                    f"{source}:{number}: not valid JSON ({error.msg})"
                ) from None
            if not isinstance(obj, dict):
                raise ValueError(f"{source}:{number}: expected a JSON object")
            body = obj.get("text") or obj.get("body") or obj.get("content")
            if not isinstance(body, str) or not body.strip():
                raise ValueError(
                    f"{source}:{number}: page needs 'text', 'body' or 'content'"
                )
            yield {
                "title": str(obj.get("title") or ""),
                "url": str(obj.get("url") or f"{source.name}#{number}"),
                "body": body,
            }


def build_index(corpus: str | Path, index_path: str | Path) -> int:
    """Index a corpus into a new SQLite FTS5 file, replacing any old index.

    The file is created with mode 0600: a corpus built for an attack holds
    the very profiles anonymization protects.

    Args:
        corpus: JSONL file or folder of pages (see `iter_corpus`).
        index_path: Where to write the index.

    Returns:
        The number of pages indexed.

    """
    import sqlite_utils

    target = Path(index_path)
    pages = list(iter_corpus(corpus))
    for suffix in ("", "-journal", "-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    secure_file(target)
    db = sqlite_utils.Database(target)
    try:
        table = db.table("pages")
        table.insert_all(pages, columns={"title": str, "url": str, "body": str})
        if not pages:
            db.execute(
                "CREATE TABLE IF NOT EXISTS pages (title TEXT, url TEXT, body TEXT)"
            )
        table.enable_fts(
            ["title", "body"], tokenize="porter unicode61 remove_diacritics 2"
        )
    finally:
        db.close()
    return len(pages)


STOPWORDS = frozenset(
    "a an and are as at be but by for from has have he her his i in is it its me "
    "my of on or our she so that the their them they this to was we were with you "
    "your".split()
)
"""Words too common to be clues; left out so every page does not match."""


def fts_query(query: str) -> str:
    """Turn free text into an FTS5 query that cannot be a syntax error.

    Quoted phrases stay phrases; every other word, stopwords aside, becomes a
    quoted term. Terms are OR-ed so the page matching most clues ranks first
    (bm25) even when some clue is missing from it.

    Args:
        query: Text from a user or a model, with any punctuation.

    Returns:
        The FTS5 MATCH expression; empty when the query has no clue words.

    """
    phrases = re.findall(r'"([^"]+)"', query)
    rest = re.sub(r'"[^"]*"', " ", query)
    terms = [" ".join(re.findall(r"\w+", p)) for p in phrases]
    terms += [w for w in re.findall(r"\w+", rest) if w.lower() not in STOPWORDS]
    unique = list(dict.fromkeys(t.lower() for t in terms if t))
    return " OR ".join(f'"{t}"' for t in unique)


class OfflineSearch:
    """Search a local corpus indexed with SQLite FTS5; nothing leaves the machine."""

    name = "offline"

    def __init__(self, index_path: str | Path, *, log_query: QueryLogger) -> None:
        """Open an index made by `build_index`.

        Args:
            index_path: The SQLite index file.
            log_query: Hook called with every query before it runs.

        Raises:
            FileNotFoundError: when the index does not exist.

        """
        self.index_path = Path(index_path)
        if not self.index_path.is_file():
            raise FileNotFoundError(f"no search index at {self.index_path}")
        self._log_query = log_query

    @classmethod
    def from_corpus(
        cls, corpus: str | Path, index_path: str | Path, *, log_query: QueryLogger
    ) -> OfflineSearch:
        """Index a corpus (replacing an old index there) and open it.

        Args:
            corpus: JSONL file or folder of pages.
            index_path: Where to write the index (mode 0600).
            log_query: Hook called with every query before it runs.

        Returns:
            The backend, ready to search.

        """
        build_index(corpus, index_path)
        return cls(index_path, log_query=log_query)

    def search(self, query: str, k: int = 5) -> list[SearchHit]:
        """Return up to ``k`` pages best matching the query's words (bm25)."""
        self._log_query(SearchQuery(backend=self.name, query=query, k=k))
        expression = fts_query(query)
        if not expression or k <= 0:
            return []
        import sqlite3

        # Read-only: searching must never change the index.
        conn = sqlite3.connect(f"file:{self.index_path.resolve()}?mode=ro", uri=True)
        try:
            rows = conn.execute(
                "SELECT pages.title, pages.url, "
                "snippet(pages_fts, 1, '', '', ' … ', 32) "
                "FROM pages_fts JOIN pages ON pages.rowid = pages_fts.rowid "
                "WHERE pages_fts MATCH ? ORDER BY pages_fts.rank LIMIT ?",
                (expression, k),
            ).fetchall()
        finally:
            conn.close()
        return [
            SearchHit(title=t or "", url=u or "", snippet=s or "") for t, u, s in rows
        ]


# --------------------------------------------------------------------------
# Web backends: only built when asked for by name, with the opt-in
# --------------------------------------------------------------------------


class DuckDuckGoSearch:
    """Web search through the ddgs metasearch library (DuckDuckGo and others)."""

    name = "ddgs"

    def __init__(
        self, *, log_query: QueryLogger, region: str = "wt-wt", backend: str = "auto"
    ) -> None:
        """Prepare the backend; ddgs is imported on first search.

        Args:
            log_query: Hook called with every query before it is sent.
            region: ddgs region, ``wt-wt`` for none.
            backend: ddgs engine list, ``auto`` to let ddgs choose.

        """
        self._log_query = log_query
        self.region = region
        self.backend = backend

    def search(self, query: str, k: int = 5) -> list[SearchHit]:
        """Send the query to the web and return up to ``k`` hits."""
        try:
            from ddgs import DDGS
        except ImportError as error:
            raise SearchError(
                "ddgs is not installed: pip install 'anonygraph[search]'"
            ) from error
        self._log_query(SearchQuery(backend=self.name, query=query, k=k))
        try:
            results = DDGS().text(
                query, region=self.region, max_results=k, backend=self.backend
            )
        except Exception as error:  # ddgs raises its own exception family
            raise SearchError(f"ddgs search failed: {error}") from error
        return [
            SearchHit(
                title=str(r.get("title", "")),
                url=str(r.get("href") or r.get("url") or ""),
                snippet=str(r.get("body", "")),
            )
            for r in (results or [])[:k]
        ]


class TavilySearch:
    """Web search through Tavily (langchain-tavily); the key is TAVILY_API_KEY."""

    name = "tavily"

    def __init__(self, *, log_query: QueryLogger) -> None:
        """Check for the API key; langchain-tavily is imported on first search.

        Args:
            log_query: Hook called with every query before it is sent.

        Raises:
            SearchError: when TAVILY_API_KEY is not set.

        """
        if not os.environ.get("TAVILY_API_KEY"):
            raise SearchError(
                "Tavily search needs the TAVILY_API_KEY environment variable"
            )
        self._log_query = log_query

    def search(self, query: str, k: int = 5) -> list[SearchHit]:
        """Send the query to Tavily and return up to ``k`` hits."""
        try:
            from langchain_tavily import TavilySearch as TavilyTool
        except ImportError as error:
            raise SearchError(
                "langchain-tavily is not installed: pip install 'anonygraph[search]'"
            ) from error
        self._log_query(SearchQuery(backend=self.name, query=query, k=k))
        try:
            answer = TavilyTool(max_results=k).invoke({"query": query})
        except Exception as error:  # network and API errors alike
            raise SearchError(f"Tavily search failed: {error}") from error
        if isinstance(answer, str):
            answer = json.loads(answer)
        if not isinstance(answer, dict) or "error" in answer:
            raise SearchError(f"Tavily search failed: {answer}")
        return [
            SearchHit(
                title=str(r.get("title", "")),
                url=str(r.get("url", "")),
                snippet=str(r.get("content", "")),
            )
            for r in answer.get("results", [])[:k]
        ]


def get_backend(
    name: BackendName,
    *,
    log_query: QueryLogger,
    index_path: str | Path | None = None,
    corpus: str | Path | None = None,
    allow_web: bool = False,
) -> SearchBackend:
    """Build a search backend by name.

    Web backends send text off the machine, so they are built only when named
    and ``allow_web`` is set; there is no default backend.

    Args:
        name: ``offline``, ``ddgs`` or ``tavily``.
        log_query: Hook called with every query before it is sent.
        index_path: Offline: the index file (built from ``corpus`` if given).
        corpus: Offline: a JSONL file or folder to index first.
        allow_web: The run's explicit opt-in to web search.

    Returns:
        The backend.

    Raises:
        WebSearchDisabledError: for a web backend without ``allow_web``.
        ValueError: for an unknown name, or offline without an index path.

    """
    if name in WEB_BACKENDS and not allow_web:
        raise WebSearchDisabledError(
            f"{name!r} sends queries to the internet; enable web search for this run "
            "explicitly (allow_web=True) or use the offline backend"
        )
    if name == "offline":
        if index_path is None:
            raise ValueError(
                "the offline backend needs index_path (and corpus to build)"
            )
        if corpus is not None:
            return OfflineSearch.from_corpus(corpus, index_path, log_query=log_query)
        return OfflineSearch(index_path, log_query=log_query)
    if name == "ddgs":
        return DuckDuckGoSearch(log_query=log_query)
    if name == "tavily":
        return TavilySearch(log_query=log_query)
    raise ValueError(f"unknown search backend {name!r}; choose offline, ddgs or tavily")


def format_hits(hits: Iterable[SearchHit]) -> str:
    """Render hits as numbered plain text for a model to read."""
    lines = [f"[{i}] {h.title}\n{h.url}\n{h.snippet}" for i, h in enumerate(hits, 1)]
    return "\n\n".join(lines) if lines else "No results."


def as_tool(backend: SearchBackend, k: int = 5) -> Callable[[str], str]:
    """Wrap a backend as a plain typed function an agent can call as a tool.

    Args:
        backend: The backend to query.
        k: Results per query.

    Returns:
        ``web_search(query) -> str``, whose docstring is the tool description.

    """

    def web_search(query: str) -> str:
        """Search the web for pages matching the query; returns titles, URLs, snippets.

        Args:
            query: Keywords to look up, e.g. distinctive clues from the text.

        """
        return format_hits(backend.search(query, k))

    return web_search


def minimal_query(
    query: str, text: str, *, max_words: int, max_copy: int
) -> tuple[str, str]:
    """Reduce a model's query to a few keywords; refuse one that copies the text.

    A query that repeats more than ``max_copy`` consecutive words of ``text``
    is dropped (it would send a sentence of the text off the machine); any
    other keeps its distinctive words, at most ``max_words`` of them.

    Args:
        query: The query a search agent asked for.
        text: The text the agent investigates.
        max_words: Most keywords sent.
        max_copy: Longest run of consecutive text words a query may repeat.

    Returns:
        ``(query to send, note)``: the query is '' when dropped; the note says
        what was done, '' when the query passed as it was.

    """
    words = re.findall(r"\w+", query)
    run = _longest_shared_run(
        [w.casefold() for w in words], [w.casefold() for w in re.findall(r"\w+", text)]
    )
    if run > max_copy:
        return "", f"query dropped: it repeats {run} consecutive words of the text"
    unique: dict[str, str] = {}
    for word in words:
        if word.casefold() not in STOPWORDS and (len(word) > 1 or word.isdigit()):
            unique.setdefault(word.casefold(), word)
    keywords = list(unique.values())
    note = ""
    if len(keywords) > max_words:
        keywords = keywords[:max_words]
        note = f"query cut to its first {max_words} keywords"
    return " ".join(keywords), note


def _longest_shared_run(query: list[str], text: list[str]) -> int:
    # Longest common run of consecutive words (dynamic programming, one row).
    best = 0
    previous = [0] * (len(text) + 1)
    for word in query:
        current = [0] * (len(text) + 1)
        for j, other in enumerate(text, start=1):
            if word == other:
                current[j] = previous[j - 1] + 1
                best = max(best, current[j])
        previous = current
    return best


_BACKEND_LOCK = threading.Lock()


def search_backend(
    name: str, index: str, corpus: str, allow_web: bool
) -> SearchBackend:
    """Build (once per process) the backend a run names.

    Raises:
        ValueError: when no backend is configured.
        WebSearchDisabledError: for a web backend without the opt-in.
    """
    # Parallel tool calls ask at once: the corpus must be indexed only once.
    with _BACKEND_LOCK:
        return _search_backend(name, index, corpus, allow_web)


@functools.lru_cache(maxsize=8)
def _search_backend(
    name: str, index: str, corpus: str, allow_web: bool
) -> SearchBackend:
    if not name:
        raise ValueError(
            "web search is off for this run; set search_backend "
            "(offline with search_index, or ddgs/tavily with allow_web)"
        )
    return get_backend(
        name,  # type: ignore[arg-type]
        log_query=_no_log,
        index_path=index or None,
        corpus=corpus or None,
        allow_web=allow_web,
    )


def _no_log(query: SearchQuery) -> None:
    # Queries are kept in graph state (search_log) and stored with the run,
    # which survives resumes; the backend hook has nothing more to do.
    del query
