"""Report plots: the privacy-utility trade-off and PRIV, UTIL and MRS per round."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def write_plots(
    rows: list[dict[str, Any]], curves: dict[str, list[dict[str, Any]]], out: Path
) -> dict[str, Path]:
    """Draw the privacy-utility scatter, and the per-round curves when a run has rounds.

    Returns:
        Name -> path of each PNG written into ``out``.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    files: dict[str, Path] = {}
    fig, ax = plt.subplots(figsize=(6, 4.5))
    for row in rows:
        utility = row["UTIL"] if row["UTIL"] is not None else row["ROUGE"]
        if row["PRIV"] is None or utility is None:
            continue
        ax.scatter(row["PRIV"], utility, s=60)
        ax.annotate(row["method"], (row["PRIV"], utility), textcoords="offset points",
                    xytext=(5, 5))  # fmt: skip
    ax.set_xlabel("PRIV: attacker top-1 accuracy (lower is better)")
    ax.set_ylabel("UTIL (judge; ROUGE-L when not judged)")
    ax.set_title("Privacy-utility trade-off")
    ax.grid(alpha=0.3)
    files["scatter"] = out / "privacy_utility.png"
    fig.tight_layout()
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
    return files
