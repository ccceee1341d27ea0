"""Bad input and hostile output paths: one clear line each, the batch goes on."""

from __future__ import annotations

import asyncio
import json
import re
import stat
from pathlib import Path
from typing import Any

import pytest
from scripted import Script, attack_json, rewrite_json, verdicts_json

from anonygraph import cli
from anonygraph.cli.flags import context_fields
from anonygraph.runs.engines.batch import run_batch
from anonygraph.runs.options import RunOptions
from anonygraph.runs.store import RunStore
from anonygraph.runs.store.checkpointers import checkpoint_path


def script_city_leak(script: Script) -> None:
    script.set("attacker", attack_json(city_country=("Calgary, Canada", 5)))
    script.set("arbitrator", verdicts_json(city_country="high"))
    script.set("anonymizer", rewrite_json("I live in a city."))


def options(tmp_path: Path, source: Path, **extra: Any) -> RunOptions:
    values: dict[str, Any] = {
        "method": "rlaa",
        "input": str(source),
        "output": str(tmp_path / "out.jsonl"),
        "db": str(tmp_path / "runs.sqlite"),
        "context": {
            "attributes": ["city_country"],
            "max_iterations": 1,
            "default_model": "local",
        },
        "progress": False,
        **extra,
    }
    return RunOptions(**values)


def run_args(tmp_path: Path, source: Path | str, *extra: str) -> list[str]:
    return [
        "run", "--input", str(source), "--output", str(tmp_path / "out.jsonl"),
        "--db", str(tmp_path / "runs.sqlite"), "--attributes", "city_country",
        "--max-iterations", "1", "--no-progress", *extra,
    ]  # fmt: skip


def test_when_lines_are_hostile_then_each_is_named_and_valid_lines_still_run(
    tmp_path: Path, script: Script
) -> None:
    script_city_leak(script)
    source = tmp_path / "in.jsonl"
    lines = [
        '{"id": "sur", "text": "bad \\ud800 here"}',
        "[" * 100_000 + "]" * 100_000,
        '{"id": true, "text": "I live in Calgary."}',
        '{"id": [1], "text": "I live in Calgary."}',
        '{"id": {"x": 1}, "text": "I live in Calgary."}',
        '{"id": "zw", "text": "\\u200b\\u200b\\u2060 \\ufeff"}',
        '{"id": "nul", "text": "before\\u0000after the NUL"}',
        '{"id": "ok", "text": "I live in Calgary."}',
        '{"id": 7, "text": "I live in Calgary."}',
    ]
    source.write_text("\n".join(lines) + "\n")

    summary = asyncio.run(run_batch(options(tmp_path, source)))

    assert (summary.done, summary.failed) == (2, 0)
    reasons = "\n".join(summary.bad_lines)
    for expected in (
        "line 1 (record 'sur'): the text holds a lone surrogate (U+D800)",
        "line 2 (a record): JSON nested too deeply",
        "line 3 (a record): the id true is a bool",
        "line 4 (a record): the id [1] is a list",
        'line 5 (a record): the id {"x": 1} is a dict',
        "line 6 (record 'zw'): the text holds only invisible characters",
        "line 7 (record 'nul'): the text holds a NUL character at character 6",
    ):
        assert expected in reasons
    out = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert sorted(x["id"] for x in out) == ["7", "ok"]
    assert script.prompts("attacker") and not any(
        "\u200b" in p for p in script.prompts("attacker")
    )
    assert RunStore(tmp_path / "runs.sqlite").get_run(summary.run_id)["status"] == (
        "done"
    )


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"id": "a", "text": "x"}\n'.encode("utf-16"), "is UTF-16, not UTF-8"),
        (b'[\n  {"id": "a", "text": "x"}\n]\n', "jq -c '.[]'"),
    ],
)
def test_when_the_file_is_utf16_or_a_json_array_then_a_hint_says_how_to_convert(
    tmp_path: Path, script: Script, content: bytes, expected: str
) -> None:
    source = tmp_path / "in.jsonl"
    source.write_bytes(content)

    summary = asyncio.run(run_batch(options(tmp_path, source)))

    assert summary.done == 0 and expected in "\n".join(summary.bad_lines)


def test_when_a_text_starts_with_a_utf8_bom_then_it_is_read(
    tmp_path: Path, script: Script
) -> None:
    script_city_leak(script)
    source = tmp_path / "in.jsonl"
    source.write_bytes(b'\xef\xbb\xbf{"id": "a", "text": "I live in Calgary."}\n')

    summary = asyncio.run(run_batch(options(tmp_path, source)))

    assert summary.done == 1 and summary.bad_lines == []


@pytest.mark.parametrize("kind", ["missing", "folder"])
def test_when_input_is_not_a_file_then_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    source = tmp_path / ("nope.jsonl" if kind == "missing" else "")

    code = cli.main(run_args(tmp_path, source))

    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert f"--input {source}" in err
    assert not (tmp_path / "runs.sqlite").exists()


def test_when_output_or_db_is_not_writable_then_one_line_and_no_run_left_running(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text('{"id": "a", "text": "I live in Calgary."}\n')
    # A path under a regular file cannot be created, even by root.
    blocker = tmp_path / "file"
    blocker.write_text("")
    for flag, value in (("--output", blocker / "out.jsonl"), ("--db", blocker / "r")):
        args = run_args(tmp_path, source)
        args[args.index(flag) + 1] = str(value)

        code = cli.main(args)

        err = capsys.readouterr().err
        assert code == 2 and len(err.strip().splitlines()) == 1, err
        assert str(blocker) in err
    if (tmp_path / "runs.sqlite").exists():
        runs = RunStore(tmp_path / "runs.sqlite").runs()
        assert all(r["status"] != "running" for r in runs)


def test_when_output_is_the_input_then_it_is_refused_also_through_a_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text('{"id": "a", "text": "I live in Calgary."}\n')
    link = tmp_path / "link.jsonl"
    link.symlink_to(source)
    folder = tmp_path / "folder"
    folder.mkdir(mode=0o755)
    args = run_args(tmp_path, source)
    args[args.index("--output") + 1] = str(folder)
    assert cli.main(args) == 2
    assert "not a file" in capsys.readouterr().err
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755
    for output in (source, link):
        args = run_args(tmp_path, source)
        args[args.index("--output") + 1] = str(output)

        assert cli.main(args) == 2
        assert "is the input file" in capsys.readouterr().err
    assert source.read_text().startswith('{"id": "a"')


def test_when_the_output_was_written_by_another_run_then_it_is_refused_or_forced(
    tmp_path: Path, script: Script
) -> None:
    script_city_leak(script)
    source = tmp_path / "in.jsonl"
    source.write_text('{"id": "a", "text": "I live in Calgary."}\n')
    first = asyncio.run(run_batch(options(tmp_path, source)))
    sidecar = json.loads((tmp_path / "out.jsonl.run.json").read_text())
    assert sidecar["run_id"] == first.run_id
    assert stat.S_IMODE((tmp_path / "out.jsonl.run.json").stat().st_mode) == 0o600
    other = {"attributes": ["city_country"], "max_iterations": 2}

    with pytest.raises(ValueError, match=f"run '{first.run_id}'.*--force"):
        asyncio.run(run_batch(options(tmp_path, source, context=other)))
    forced = asyncio.run(
        run_batch(options(tmp_path, source, context=other, force=True))
    )

    assert forced.done == 1 and forced.skipped == 0
    (line,) = (tmp_path / "out.jsonl").read_text().splitlines()
    assert json.loads(line)["run_id"] == forced.run_id


def test_when_two_runs_write_one_output_at_once_then_the_second_is_refused(
    tmp_path: Path, script: Script
) -> None:
    import fcntl

    script_city_leak(script)
    source = tmp_path / "in.jsonl"
    source.write_text('{"id": "a", "text": "I live in Calgary."}\n')
    (tmp_path / "out.jsonl").touch()
    with open(tmp_path / "out.jsonl", "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        with pytest.raises(ValueError, match="being written by another run"):
            asyncio.run(run_batch(options(tmp_path, source)))


def test_when_set_or_flags_give_bad_counts_then_they_are_checked_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(run_args(tmp_path, "x", "--set", "max_iterations=-5")) == 2
    assert "must be at least 1" in capsys.readouterr().err
    args = cli.build_parser().parse_args(run_args(tmp_path, "x", "--max-retries", "0"))
    assert context_fields(args)["max_retries"] == 0


def test_when_purge_gets_a_wildcard_run_then_no_other_run_is_touched(
    tmp_path: Path, script: Script, capsys: pytest.CaptureFixture[str]
) -> None:
    script_city_leak(script)
    source = tmp_path / "in.jsonl"
    source.write_text('{"id": "a", "text": "I live in Calgary."}\n')
    asyncio.run(run_batch(options(tmp_path, source)))
    import sqlite3

    def count() -> int:
        conn = sqlite3.connect(checkpoint_path(tmp_path / "runs.sqlite"))
        return int(conn.execute("select count(*) from checkpoints").fetchone()[0])

    before = count()

    assert cli.main(["purge", "--db", str(tmp_path / "runs.sqlite"), "--run", "%"]) == 2
    assert count() == before > 0


def test_when_report_db_is_missing_then_it_errors_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "nowhere" / "runs.sqlite"

    assert cli.main(["report", "--db", str(db), "--out", str(tmp_path / "r")]) == 2
    assert "no such run store" in capsys.readouterr().err
    assert not db.parent.exists()


def test_when_a_resumed_record_has_more_model_time_than_wall_time_then_share_is_sane(
    tmp_path: Path, script: Script, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A record resumed after a kill carries the killed session's calls: its
    # wall time is stored as at least their model time.
    script_city_leak(script)
    source = tmp_path / "in.jsonl"
    source.write_text('{"id": "a", "text": "I live in Calgary."}\n')
    from anonygraph.runs.engines import records

    original = records.invoke_thread

    async def with_earlier_calls(*args: Any, **kwargs: Any) -> Any:
        result, error = await original(*args, **kwargs)
        result["calls"] = [*result["calls"], {"id": "earlier", "seconds": 50.0}]
        return result, error

    monkeypatch.setattr(records, "invoke_thread", with_earlier_calls)
    summary = asyncio.run(run_batch(options(tmp_path, source)))

    assert summary.totals["wall_seconds"] >= summary.totals["model_seconds"] >= 50
    share = re.search(r"\((-?[\d.]+)% of it outside", summary.report())
    assert share is not None and 0 <= float(share.group(1)) <= 100
