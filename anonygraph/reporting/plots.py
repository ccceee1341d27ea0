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

    fig, ax = plt.subplots(figsize=(6.5, 5))
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
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
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

    fig, ax = plt.subplots(figsize=(6.5, 4))
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
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig


def write_plots(
    rows: list[dict[str, Any]],
    curves: dict[str, list[dict[str, Any]]],
    out: Path,
    similarities: dict[str, list[float]] | None = None,
) -> dict[str, Path]:
    """Draw the report's plots into ``out``.

    The privacy-utility scatter; the per-round curves when a run has rounds;
    the similarity histogram when an evaluation measured similarity.

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
    if iterative:
        fig, axes = plt.subplots(1, 3, figsize=(14, 4))
        for name, curve in iterative.items():
            rounds = [p["round"] for p in curve]
            axes[0].plot(rounds, [p["PRIV"] for p in curve], marker="o", label=name)
            axes[1].plot(rounds, [p["UTIL"] for p in curve], marker="o", label=name)
            # ROUGE-L beside the judge: a weak judge can flatten UTIL.
            axes[1].plot(rounds, [p["ROUGE"] for p in curve], linestyle="--",
                         marker="x", label=f"{name} ROUGE-L")  # fmt: skip
            axes[2].plot(rounds[1:], [p.get("MRS") for p in curve[1:]], marker="o",
                         label=name)  # fmt: skip
        titles = ("PRIV per round", "UTIL (solid), ROUGE-L (dashed)", "MRS per round")
        for ax, title in zip(axes, titles, strict=True):
            ax.set_title(title)
            ax.set_xlabel("round")
            ax.grid(alpha=0.3)
        axes[0].legend(fontsize=7)
        axes[1].legend(fontsize=6)
        files["iterations"] = out / "iterations.png"
        fig.tight_layout()
        fig.savefig(files["iterations"], dpi=120)
        plt.close(fig)
    if similarities and any(similarities.values()):
        fig = similarity_figure(similarities)
        files["similarity"] = out / "similarity.png"
        fig.savefig(files["similarity"], dpi=120)
        plt.close(fig)
    return files
