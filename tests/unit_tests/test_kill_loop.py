"""Twenty SIGKILLs at random moments lose and duplicate nothing."""

from __future__ import annotations

from pathlib import Path

from kill_loop import kill_loop


def test_when_a_batch_is_killed_20_times_then_each_id_is_written_once_and_right(
    tmp_path: Path,
) -> None:
    # 60 records: with commits not waiting for a disk flush, 30 could all be
    # done before the twentieth kill.
    figures = kill_loop(tmp_path, kills=20, records=60, seed=12)

    assert figures["final_exit"] == 0, figures["final_summary"]
    assert sorted(figures["output_ids"]) == figures["ids"]
    assert figures["bad_texts"] == []
    assert figures["integrity"] == "ok" and figures["checkpoint_integrity"] == "ok"
    assert figures["kills"] >= 15
    # Calls cut off by the kills are counted, and shown in the summary.
    assert figures["calls_cut_off"] > 0
    assert figures["calls_started"] == (
        figures["calls_kept"] + figures["calls_cut_off"] + figures["calls_redone"]
    )
