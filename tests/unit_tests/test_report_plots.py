"""The privacy-utility plot compares across reports: fixed axes, reference, markers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from anonygraph.reporting.plots import (
    absent_panels,
    iterations_figure,
    privacy_utility_figure,
    write_plots,
)


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


def point(number: int, priv: float, util: float | None, mrs: float | None) -> dict:
    return {"round": number, "PRIV": priv, "UTIL": util, "ROUGE": 1 - number / 10,
            "MRS": mrs}  # fmt: skip


CURVES = {
    "rlaa (rlaa-0123456789; attacker local, judge local)": [
        point(0, 0.9, 1.0, None), point(1, 0.6, 0.95, 0.17),
        point(2, 0.5, 0.93, 0.2), point(3, 0.45, 0.92, 0.22),
    ],
    "fgaa (fgaa-0123456789; attacker local, judge local)": [
        point(0, 0.9, 1.0, None), point(1, 0.7, 0.9, 0.5),
    ],
}  # fmt: skip


def _boxes(figure: Any) -> tuple[list[Any], Any]:
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    (legend,) = figure.legends
    return [ax.get_tightbbox(renderer) for ax in figure.axes], legend.get_window_extent(
        renderer
    )


def test_when_rounds_are_plotted_then_the_legend_is_off_the_panels_and_rounds_whole(
    tmp_path: Path,
) -> None:
    figure = iterations_figure(CURVES)
    panels, legend = _boxes(figure)

    assert [ax.get_title() for ax in figure.axes] == [
        "PRIV per round (lower is better)",
        "UTIL (solid), ROUGE-L (dashed) per round",
        "MRS per round (utility lost / privacy gained)",
    ]
    assert all(ax.get_legend() is None for ax in figure.axes)
    assert not any(panel.overlaps(legend) for panel in panels)
    assert [t.get_text() for t in figure.legends[0].get_texts()] == list(CURVES)
    for ax in figure.axes:
        low, high = ax.get_xlim()
        ticks = [t for t in ax.get_xticks() if low <= t <= high]
        assert ticks and all(float(t).is_integer() for t in ticks), ticks
    figure.savefig(tmp_path / "iterations.png")


def test_when_no_round_has_an_mrs_then_its_panel_is_left_out_and_the_report_says_why(
    tmp_path: Path,
) -> None:
    unjudged = {
        name: [{**p, "UTIL": None, "MRS": None} for p in curve]
        for name, curve in CURVES.items()
    }

    files = write_plots(ROWS, unjudged, tmp_path)
    notes = absent_panels(unjudged)
    titles = [ax.get_title() for ax in iterations_figure(unjudged).axes]
    assert titles == [
        "PRIV per round (lower is better)",
        "UTIL (solid), ROUGE-L (dashed) per round",
    ]
    assert "iterations" in files
    assert notes == [
        "MRS per round is not drawn: no round has a judge score (UTIL), which MRS "
        "divides."
    ]
    assert absent_panels(CURVES) == []


def test_when_a_panel_is_absent_then_the_page_says_why_under_the_plots() -> None:
    from anonygraph.reporting.html_page import render_html

    page = render_html((), [{}], {}, {}, [], str, None, ["MRS <not> drawn."])

    plots = page.split('<div class="plots">', 1)[1].split("</div>", 1)[0]
    assert plots == '<p class="muted">MRS &lt;not&gt; drawn.</p>'
