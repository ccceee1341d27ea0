"""Report plots: the privacy-utility trade-off and PRIV, UTIL and MRS per round."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

MARKERS = ("o", "s", "D", "^", "v", "P", "X", "p", "h", "<", ">", "d")
"""One marker per method and profile (the star is the original text's)."""


def privacy_utility_figure(rows: list[dict[str, Any]]) -> Any:
    """Plot PRIV against UTIL on fixed [0, 1] axes, so two reports compare by eye.

    The original text (the first row) is the reference point: a black star with
    dotted lines through it. Each method and profile has its own marker; its
    runs share it.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 5), layout="constrained")
    groups: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for row in rows:
        utility = row["UTIL"] if row["UTIL"] is not None else row["ROUGE"]
        if row["PRIV"] is not None and utility is not None:
            groups[_plot_label(row)].append((row["PRIV"], utility))
    reference = groups.pop("original text", [])
    for x, y in reference:
        ax.axvline(x, color="grey", linestyle=":", linewidth=1)
        ax.axhline(y, color="grey", linestyle=":", linewidth=1)
    if reference:
        ax.scatter([x for x, _ in reference], [y for _, y in reference], marker="*",
                   s=220, color="black", label="original text", zorder=3,
                   clip_on=False)  # fmt: skip
    for index, (label, points) in enumerate(groups.items()):
        ax.scatter([x for x, _ in points], [y for _, y in points], s=70, label=label,
                   marker=MARKERS[index % len(MARKERS)], zorder=3,
                   clip_on=False)  # fmt: skip
    # Points on an edge (the original text's UTIL is 1) are drawn whole.
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("PRIV: attacker top-1 accuracy (lower is better)")
    ax.set_ylabel("UTIL (judge; ROUGE-L when not judged)")
    ax.set_title("Privacy-utility trade-off")
    ax.grid(alpha=0.3)
    # Beside the axes, not on them: no legend hides a point.
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0),
              borderaxespad=0)  # fmt: skip
    return fig


def _plot_label(row: dict[str, Any]) -> str:
    """Name a row's point: its method, with its profile when the run has one."""
    profile = row.get("profile")
    return f"{row['method']} ({profile})" if profile else str(row["method"])


def similarity_figure(samples: dict[str, list[float]]) -> Any:
    """Histogram each run's original-rewrite similarities (IntentAnony 5.4).

    Shared bins from the lowest value (or 0) to 1, so runs compare by eye;
    steps rather than bars, so overlapping runs stay readable.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4), layout="constrained")
    values = [v for run in samples.values() for v in run]
    low = min(0.0, *values) if values else 0.0
    bins = [low + (1 - low) * i / 20 for i in range(21)]
    for label, run in samples.items():
        if run:
            ax.hist(run, bins=bins, histtype="step", linewidth=1.5,
                    label=f"{label} (n={len(run)})")  # fmt: skip
    ax.set_xlim(low, 1)
    ax.set_xlabel("semantic similarity, original vs rewrite")
    ax.set_ylabel("texts")
    ax.set_title("Similarity distribution")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0),
              borderaxespad=0)  # fmt: skip
    return fig


PANELS: tuple[tuple[str, str], ...] = (
    ("PRIV", "PRIV per round (lower is better)"),
    ("UTIL", "UTIL (solid), ROUGE-L (dashed) per round"),
    ("MRS", "MRS per round (utility lost / privacy gained)"),
)
"""The per-round panels: the curve key each needs and its title."""


def _has(curves: dict[str, list[dict[str, Any]]], *keys: str) -> bool:
    return any(p.get(k) is not None for c in curves.values() for p in c for k in keys)


def iteration_panels(curves: dict[str, list[dict[str, Any]]]) -> list[str]:
    """Return the keys of the per-round panels that have data to draw."""
    wanted = {"PRIV": ("PRIV",), "UTIL": ("UTIL", "ROUGE"), "MRS": ("MRS",)}
    return [key for key, _ in PANELS if _has(curves, *wanted[key])]


def absent_panels(curves: dict[str, list[dict[str, Any]]]) -> list[str]:
    """Say, for a person, which per-round panel is not drawn and why."""
    iterative = {name: c for name, c in curves.items() if len(c) > 1}
    if not iterative:
        return []
    drawn = iteration_panels(iterative)
    notes = []
    if "PRIV" not in drawn:
        notes.append("PRIV per round is not drawn: no round has an attacker score.")
    if "UTIL" not in drawn:
        notes.append(
            "UTIL per round is not drawn: no round has a judge score or ROUGE-L."
        )
    if "MRS" not in drawn:
        why = (
            "no round has a judge score (UTIL), which MRS divides"
            if not _has(iterative, "UTIL")
            else "PRIV did not change between rounds, and MRS (utility lost / "
            "privacy gained) is undefined without a change"
        )
        notes.append(f"MRS per round is not drawn: {why}.")
    return notes


def iterations_figure(curves: dict[str, list[dict[str, Any]]]) -> Any:
    """Plot each iterative run's PRIV, UTIL and MRS per round, one panel each.

    Only panels with data are drawn (`absent_panels` says why one is not).
    Rounds are whole numbers; one legend, below the panels, names each run
    by its colour, so no legend covers a line or an axis.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.ticker import MaxNLocator

    panels = iteration_panels(curves)
    fig, axes = plt.subplots(
        1, len(panels), figsize=(4.6 * len(panels), 4.8), layout="constrained",
        squeeze=False,
    )  # fmt: skip
    by_key = dict(zip(panels, axes[0], strict=True))
    handles = []
    for index, (name, curve) in enumerate(curves.items()):
        color = f"C{index % 10}"
        rounds = [p["round"] for p in curve]
        if "PRIV" in by_key:
            by_key["PRIV"].plot(rounds, [p.get("PRIV") for p in curve], marker="o",
                                color=color)  # fmt: skip
        if "UTIL" in by_key:
            by_key["UTIL"].plot(rounds, [p.get("UTIL") for p in curve], marker="o",
                                color=color)  # fmt: skip
            # ROUGE-L beside the judge: a weak judge can flatten UTIL.
            by_key["UTIL"].plot(rounds, [p.get("ROUGE") for p in curve],
                                linestyle="--", marker="x", color=color)  # fmt: skip
        if "MRS" in by_key:
            by_key["MRS"].plot(rounds[1:], [p.get("MRS") for p in curve[1:]],
                               marker="o", color=color)  # fmt: skip
        handles.append(Line2D([], [], color=color, marker="o", label=name))
    titles = dict(PANELS)
    for key, ax in by_key.items():
        ax.set_title(titles[key], fontsize=10)
        ax.set_xlabel("round")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(alpha=0.3)
    fig.legend(handles=handles, loc="outside lower center", fontsize=8,
               frameon=False)  # fmt: skip
    return fig


def write_plots(
    rows: list[dict[str, Any]],
    curves: dict[str, list[dict[str, Any]]],
    out: Path,
    similarities: dict[str, list[float]] | None = None,
) -> dict[str, Path]:
    """Draw the report's plots into ``out``.

    The privacy-utility scatter; the per-round curves when a run has rounds
    (the panels with data); the similarity histogram when an evaluation
    measured similarity.

    Returns:
        Name -> path of each PNG written into ``out``.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    files: dict[str, Path] = {}
    fig = privacy_utility_figure(rows)
    files["scatter"] = out / "privacy_utility.png"
    fig.savefig(files["scatter"], dpi=120)
    plt.close(fig)

    iterative = {name: c for name, c in curves.items() if len(c) > 1}
    if iterative and iteration_panels(iterative):
        fig = iterations_figure(iterative)
        files["iterations"] = out / "iterations.png"
        fig.savefig(files["iterations"], dpi=120)
        plt.close(fig)
    if similarities and any(similarities.values()):
        fig = similarity_figure(similarities)
        files["similarity"] = out / "similarity.png"
        fig.savefig(files["similarity"], dpi=120)
        plt.close(fig)
    return files
