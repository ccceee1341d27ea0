"""Published result tables of the papers, read from ``data/paper_figures.json``.

``anonygraph reproduce PAPER`` prints a run's figures beside these. Each
table keeps the paper's own numbers with the table and section they come
from; captions and metric descriptions are ours.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

FIGURES_FILE = "paper_figures.json"
"""The file in ``anonygraph/data`` that holds every paper's tables."""

Direction = Literal["higher", "lower", "none"]
"""Which way a metric is better; ``none`` for descriptive columns (counts, sigma)."""


class Column(BaseModel):
    """One metric column of a published table."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str = Field(description="Short name, as the paper heads the column.")
    metric: str = Field(description="What the column measures, in our words.")
    direction: Direction = Field(description="Which way is better.")
    scale: str = Field(description="Range or unit, e.g. '0-1', '1-10', 'count of 27'.")


class Row(BaseModel):
    """One row: a method (or baseline) on a model and a data set, with its figures."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    method: str = Field(description="Method or baseline as the paper names it.")
    model: str | None = Field(description="Backbone model; None where none applies.")
    dataset: str = Field(description="Data set (or evaluation setting) of the row.")
    group: str = Field(description="The paper's grouping of the row.")
    values: dict[str, float | int | None] = Field(
        description="Column key -> published figure; None where the paper prints '-'."
    )
    iteration: int | None = Field(
        default=None, description="Self-refinement step, for per-iteration rows."
    )
    variant: str | None = Field(default=None, description="Method variant.")
    judge: str | None = Field(default=None, description="Judge model, when varied.")
    setting: dict[str, Any] = Field(
        default_factory=dict, description="Run settings that tell rows apart."
    )


class PublishedTable(BaseModel):
    """One table (or figure table) of a paper."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(description="Stable id, e.g. 'rlaa-table-1'.")
    table: str = Field(description="The paper's label, e.g. 'Table 1'.")
    section: str = Field(description="Section the table belongs to.")
    caption: str = Field(description="What the table shows, in our words.")
    columns: list[Column] = Field(description="Metric columns, in the paper's order.")
    rows: list[Row] = Field(description="Rows, in the paper's order.")

    @model_validator(mode="after")
    def _rows_fill_columns(self) -> PublishedTable:
        keys = [c.key for c in self.columns]
        for row in self.rows:
            if sorted(row.values) != sorted(keys):
                raise ValueError(
                    f"{self.id}: row {row.method!r} ({row.model}, {row.dataset}) has "
                    f"values for {sorted(row.values)}, the columns are {sorted(keys)}"
                )
        return self

    def column(self, key: str) -> Column:
        """Return the column named ``key``.

        Raises:
            KeyError: naming the table and its columns.

        """
        for column in self.columns:
            if column.key == key:
                return column
        raise KeyError(f"{self.id} has no column {key!r}; it has {self.keys()}")

    def keys(self) -> list[str]:
        """Return the column keys in order."""
        return [c.key for c in self.columns]


class PaperFigures(BaseModel):
    """Every published table of one paper."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seed: str = Field(description="The paper's file in ../shared/seeds.")
    title: str = Field(description="The paper's title.")
    authors: str = Field(description="Its authors, as printed.")
    tables: list[PublishedTable] = Field(description="Its result tables.")

    def table(self, table_id: str) -> PublishedTable:
        """Return the table with id ``table_id``.

        Raises:
            KeyError: naming the ids there are.

        """
        for table in self.tables:
            if table.id == table_id:
                return table
        ids = ", ".join(t.id for t in self.tables)
        raise KeyError(f"no table {table_id!r}; this paper has {ids}")


@lru_cache(maxsize=1)
def _load_all() -> dict[str, PaperFigures]:
    raw = (resources.files("anonygraph") / "data" / FIGURES_FILE).read_text("utf-8")
    papers: dict[str, Any] = json.loads(raw)["papers"]
    return {name: PaperFigures.model_validate(data) for name, data in papers.items()}


def paper_names() -> list[str]:
    """Return the papers with published figures: rlaa, seal, intentanony, ..."""
    return list(_load_all())


def paper_figures(paper: str) -> PaperFigures:
    """Return one paper's published tables.

    Args:
        paper: rlaa, seal, intentanony, aura or dp-embed.

    Raises:
        KeyError: naming the papers there are.

    """
    papers = _load_all()
    if paper not in papers:
        raise KeyError(
            f"no published figures for {paper!r}; choose from {list(papers)}"
        )
    return papers[paper]
