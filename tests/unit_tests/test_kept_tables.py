"""Tables kept in the cache folder: a hit, a stale or broken file, the place tables."""

from __future__ import annotations

import json
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from anonygraph.runs.kept_tables import Converted, kept_table


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "anonygraph"


def squares(source: Path, builds: list[int]) -> Callable[[], frozenset[int]]:
    @kept_table(
        "squares",
        1,
        lambda: [source],
        encode=sorted,
        decode=lambda kept: frozenset(int(n) for n in kept),
    )
    def build() -> frozenset[int]:
        builds.append(1)
        return frozenset(n * n for n in range(int(source.read_text())))

    return build


def test_when_a_table_was_kept_then_the_next_run_reads_it_without_building(
    cache: Path, tmp_path: Path
) -> None:
    source = tmp_path / "rule.txt"
    source.write_text("4")
    builds: list[int] = []
    build = squares(source, builds)

    first, second = build(), build()

    assert first == second == frozenset({0, 1, 4, 9})
    assert builds == [1]
    (kept,) = cache.glob("squares-*.json")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600


def test_when_a_source_changes_then_the_old_table_is_not_read_and_is_removed(
    cache: Path, tmp_path: Path
) -> None:
    source = tmp_path / "rule.txt"
    source.write_text("3")
    builds: list[int] = []
    build = squares(source, builds)
    build()
    (old,) = cache.glob("squares-*.json")

    source.write_text("5")  # the rule changed
    table = build()

    assert table == frozenset({0, 1, 4, 9, 16})
    assert builds == [1, 1]
    assert [p.name for p in cache.glob("squares-*.json")] != [old.name]
    assert not old.exists()


@pytest.mark.parametrize("damage", [b"{not json", b'{"a": 1}', b'["x"]'])
def test_when_the_kept_table_is_broken_then_it_is_built_and_written_again(
    damage: bytes, cache: Path, tmp_path: Path
) -> None:
    source = tmp_path / "rule.txt"
    source.write_text("3")
    builds: list[int] = []
    build = squares(source, builds)
    build()
    (kept,) = cache.glob("squares-*.json")
    kept.write_bytes(damage)

    assert build() == frozenset({0, 1, 4})
    assert build() == frozenset({0, 1, 4})
    assert builds == [1, 1]


def test_when_the_cache_folder_cannot_be_written_then_the_table_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))  # a file: no folder in it
    source = tmp_path / "rule.txt"
    source.write_text("2")
    builds: list[int] = []
    build = squares(source, builds)

    assert build() == build() == frozenset({0, 1})
    assert builds == [1, 1]


@pytest.fixture
def fresh_place_tables() -> Iterator[None]:
    from anonygraph.cues import namesakes, places

    tables = (
        places._gazetteer,
        places.contested_city_names,
        places._city_names,
        namesakes.holders,
        namesakes._namesakes,
    )
    for table in tables:
        table.cache_clear()
    yield
    for table in tables:
        table.cache_clear()


def test_when_the_place_tables_were_kept_then_a_new_process_needs_no_cities(
    cache: Path, monkeypatch: pytest.MonkeyPatch, fresh_place_tables: None
) -> None:
    from anonygraph.cues import namesakes, places

    def read() -> tuple[object, ...]:
        for table in (
            places._gazetteer,
            places.contested_city_names,
            places._city_names,
            namesakes.holders,
            namesakes._namesakes,
        ):
            table.cache_clear()
        return (
            places.gazetteer(),
            places.contested_city_names(),
            places._city_names(),
            namesakes.holders(),
            namesakes._namesakes(),
        )

    built = read()
    monkeypatch.setattr(places, "cities", lambda: pytest.fail("cities read"))
    monkeypatch.setattr(namesakes, "cities", lambda: pytest.fail("cities read"))
    kept = read()

    assert kept == built
    assert places.gazetteer()["calgary"].value == "Calgary, Canada"
    kept_names = {p.name.partition("-1-")[0] for p in cache.glob("*-1-*.json")}
    assert {"places", "contested-cities", "big-cities", "holders", "namesakes"} <= (
        kept_names
    )


def test_when_a_converted_table_is_read_then_a_value_is_made_on_its_first_read() -> (
    None
):
    made: list[str] = []

    def make(kept: list[str]) -> frozenset[str]:
        made.append(kept[0])
        return frozenset(kept)

    table = Converted({"perth": ["Australia", "United Kingdom"], "x": ["X"]}, make)

    assert "perth" in table and "nowhere" not in table and made == []
    assert table.get("perth") == table["perth"] == {"Australia", "United Kingdom"}
    assert table.get("nowhere") is None and table.get("nowhere", frozenset()) == set()
    assert made == ["Australia"]
    assert dict(table) == {"perth": table["perth"], "x": frozenset({"X"})}
    with pytest.raises(KeyError):
        table["nowhere"]


def test_when_the_kept_place_table_is_damaged_then_it_is_built_again(
    cache: Path, fresh_place_tables: None
) -> None:
    from anonygraph.cues import places

    built = dict(places.gazetteer())
    (kept,) = cache.glob("places-*.json")
    table = json.loads(kept.read_bytes())
    table["places"][0] = table["places"][0][:4]  # a row short of a field
    kept.write_text(json.dumps(table))
    places._gazetteer.cache_clear()

    assert dict(places.gazetteer()) == built
    assert len(json.loads(kept.read_bytes())["places"][0]) == 5
