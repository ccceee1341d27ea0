"""Tables derived from installed data, kept in the user's cache folder between runs.

The cue detectors derive their place tables (every name of the gazetteer
folded, the city names several countries share) from GeoNames' 34,000
cities at each process's start: about 0.3 s of CPU, more than a one-text
command's own work. `kept_table` keeps such a table as a JSON file in the
cache folder (`anonygraph.runs.files.cache_dir`, 0600), named for a digest
of everything that made it: the bytes of the modules whose code derives it
and of our data files, the size and time of the large installed tables
(GeoNames'), the Python version (its Unicode tables fold names) and the
table's layout. Editing a rule or upgrading a package names another file,
so a stale table is never read (and is removed when the new one is
written); a file that cannot be read or decoded is
built again and rewritten, and a cache folder that cannot be written costs
only the time.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar, overload

from anonygraph.runs.files import cache_dir, write_private

T = TypeVar("T")
V = TypeVar("V")

HASHED_UP_TO = 1 << 20
"""Files up to this size enter the digest by their bytes, larger by size and time."""


def _stamp(sources: Iterable[object]) -> str | None:
    digest = hashlib.sha256(sys.version.encode())
    for source in sources:
        if not isinstance(source, Path):
            return None  # a zipped install: nothing to stat, build each time
        size = source.stat().st_size
        digest.update(f"\0{source}\0{size}\0".encode())
        if size <= HASHED_UP_TO:
            digest.update(source.read_bytes())
        else:
            digest.update(str(source.stat().st_mtime_ns).encode())
    return digest.hexdigest()[:20]


def kept_path(name: str, layout: int, sources: Iterable[object]) -> Path | None:
    """Return table ``name``'s cache file for these sources (None: no cache)."""
    try:
        stamp = _stamp(sources)
        folder = cache_dir()
    except (OSError, RuntimeError):  # RuntimeError: no home folder to be found
        return None
    if stamp is None:
        return None
    return folder / f"{name}-{layout}-{stamp}.json"


def kept_table(
    name: str,
    layout: int,
    sources: Callable[[], Iterable[object]],
    *,
    encode: Callable[[T], Any],
    decode: Callable[[Any], T],
) -> Callable[[Callable[[], T]], Callable[[], T]]:
    """Keep what a table builder returns in the cache folder, for later runs.

    Args:
        name: The table's file name stem.
        layout: Raise it when ``encode``'s output changes shape.
        sources: The files the table comes from, the builders' modules among
            them (`module_file`); called at each first build.
        encode: Table -> JSON value.
        decode: JSON value -> table; raises ``ValueError``, ``TypeError``,
            ``KeyError`` or ``IndexError`` on a value of another shape.

    Returns:
        A decorator for the builder (put a ``lru_cache`` above it: this reads
        the file at every call).
    """

    def decorate(build: Callable[[], T]) -> Callable[[], T]:
        @wraps(build)
        def kept() -> T:
            path = kept_path(name, layout, sources())
            if path is not None:
                try:
                    return decode(json.loads(path.read_bytes()))
                except (OSError, ValueError, TypeError, KeyError, IndexError):
                    pass  # missing, damaged or of another shape: build it again
            table = build()
            if path is not None:
                try:
                    data = json.dumps(encode(table), separators=(",", ":"))
                    write_private(path, data.encode())
                    for older in path.parent.glob(f"{name}-*-*.json"):
                        if older != path:  # made by other code: not read again
                            older.unlink(missing_ok=True)
                except OSError:
                    pass
            return table

        return kept

    return decorate


def module_file(module: str) -> object:
    """Return the source file of an imported ``module`` (a path, if it is one)."""
    origin = getattr(sys.modules[module], "__file__", None)
    return Path(origin) if origin else None


class Converted(Mapping[str, V]):
    """A kept table whose values are made from their kept form when first read.

    A one-text command looks up a few dozen of a table's 30,000 names: making
    every value (a `Place`, a frozenset) when the file is read was most of
    the read's time. Each value is made once, on its first read.
    """

    def __init__(self, kept: dict[str, Any], make: Callable[[Any], V]) -> None:
        """Serve ``kept``'s keys, each value ``make(kept[key])``."""
        self._kept = kept
        self._make = make
        self._made: dict[str, V] = {}

    def __getitem__(self, key: str) -> V:
        """Return the value of ``key`` (``KeyError`` if the table has none)."""
        made = self._made.get(key)
        if made is None:
            # Two threads may both make it: equal values, either one kept.
            made = self._made[key] = self._make(self._kept[key])
        return made

    @overload
    def get(self, key: str, /) -> V | None: ...
    @overload
    def get(self, key: str, /, default: V | T) -> V | T: ...
    def get(self, key: str, /, default: object = None) -> object:
        """Return the value of ``key``, else ``default`` (a lookup's fast path)."""
        made = self._made.get(key)
        if made is not None:
            return made
        if key not in self._kept:
            return default
        return self[key]

    def __contains__(self, key: object) -> bool:
        """Tell whether the table holds ``key`` (nothing is made)."""
        return key in self._kept

    def __iter__(self) -> Iterator[str]:
        """Iterate over the keys."""
        return iter(self._kept)

    def __len__(self) -> int:
        """Return how many keys the table holds."""
        return len(self._kept)
