"""The privacy-utility plot compares across reports: fixed axes, reference, markers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from anonygraph.reporting.plots import privacy_utility_figure


def row(method: str, priv: float | None, util: float | None, **extra: Any) -> dict:
    return {"method": method, "PRIV": priv, "UTIL": util, "ROUGE": None, **extra}


ROWS = [
    row("original text", 0.9, 1.0),
    row("rlaa", 0.4, 0.93, profile="paper"),
    row("rlaa", 0.3, 0.95, profile="product"),
    row("rlaa", 0.35, 0.94, profile="product"),
    row("fgaa", 0.5, None, ROUGE=0.8),
    row("seal", None, 0.9),
]


def test_when_runs_are_plotted_then_axes_are_fixed_and_each_method_has_a_marker(
    tmp_path: Path,
) -> None:
    figure = privacy_utility_figure(ROWS)
    (ax,) = figure.axes

    assert ax.get_xlim() == (0.0, 1.0) and ax.get_ylim() == (0.0, 1.0)
    handles, labels = ax.get_legend_handles_labels()
    assert labels == ["original text", "rlaa (paper)", "rlaa (product)", "fgaa"]
    points = {label: h.get_offsets().tolist() for h, label in zip(handles, labels)}
    assert points["original text"] == [[0.9, 1.0]]
    assert points["rlaa (product)"] == [[0.3, 0.95], [0.35, 0.94]]
    assert points["fgaa"] == [[0.5, 0.8]]  # ROUGE-L when the judge did not score
    shapes = [h.get_paths()[0].vertices for h in handles]
    assert all(
        not np.array_equal(a, b) for i, a in enumerate(shapes) for b in shapes[i + 1 :]
    )
    # Dotted lines through the original text's point.
    crossing = sorted((line.get_xdata()[0], line.get_ydata()[0]) for line in ax.lines)
    assert crossing == [(0, 1.0), (0.9, 0)]
    figure.savefig(tmp_path / "plot.png")
    assert (tmp_path / "plot.png").stat().st_size > 1000


def test_when_similarities_are_plotted_then_each_run_has_its_histogram() -> None:
    from anonygraph.reporting.plots import similarity_figure

    samples = {"rlaa (r1)": [0.91, 0.92, 0.6], "seal (r2)": [0.2, 0.95], "none": []}
    (ax,) = similarity_figure(samples).axes

    _, labels = ax.get_legend_handles_labels()
    assert labels == ["rlaa (r1) (n=3)", "seal (r2) (n=2)"]
    # Shared bins up to 1: every value is counted once, in its run's step.
    assert ax.get_xlim() == (0.0, 1.0)
    heights = [patch.get_path().vertices[:, 1] for patch in ax.patches]
    assert [round(max(h)) for h in heights] == [2, 1]
