"""report.html: one self-contained page with the tables, plots and record review.

Everything is inline (CSS, JS, images as data: URIs), so the page makes no
request. Record texts are untrusted: the summary table is escaped here, and
the records travel as a JSON block that the page's script reads and shows
with ``textContent`` only.
"""

from __future__ import annotations

import base64
import html
import json
import re
import time
from importlib import resources
from pathlib import Path
from typing import Any

_SLOT = re.compile(r"\{\{([A-Z]+)\}\}")


def json_for_script(data: Any) -> str:
    """Serialize data for a ``<script type="application/json">`` block.

    ``<``, ``>`` and ``&`` become JSON escapes, so no text (``</script>``,
    ``<!--``) can end the block; JSON.parse reads them back unchanged.
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for char, escape in (
        ("&", "\\u0026"),
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(char, escape)
    return text


def _table(columns: tuple[str, ...], rows: list[dict[str, Any]], fmt: Any) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(fmt(r.get(c)))}</td>" for c in columns)
        + "</tr>"
        for r in rows
    )  # fmt: skip
    # In its own box, which scrolls sideways when the table is wider than
    # the window: the page itself never does.
    return (
        f'<div class="table-box"><table class="summary"><thead><tr>{head}</tr>'
        f"</thead><tbody>{body}</tbody></table></div>"
    )


def _protocol_html(protocol: tuple[str, list[str], list[dict[str, str]]] | None) -> str:
    if protocol is None:
        return ""
    name, notes, cells = protocol
    items = "".join(f"<li>{html.escape(note)}</li>" for note in notes)
    columns = tuple(cells[0]) if cells else ()
    return (
        f"<h2>Under the {html.escape(name)} paper's protocol</h2><ul>{items}</ul>"
        + _table(columns, cells, str)
    )


def _image(path: Path, alt: str) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def render_html(
    columns: tuple[str, ...],
    rows: list[dict[str, Any]],
    curves: dict[str, list[dict[str, Any]]],
    plots: dict[str, Path],
    reviews: list[dict[str, Any]],
    fmt: Any,
    protocol: tuple[str, list[str], list[dict[str, str]]] | None = None,
    plot_notes: list[str] | None = None,
) -> str:
    """Fill the page template.

    Args:
        columns: the comparison table's columns, in order.
        rows: one row per method (and the original text).
        curves: per-round points of iterative runs, by run name.
        plots: PNG files to inline, by name.
        reviews: per-record views (`anonygraph.reporting.record_view.record_reviews`).
        fmt: how a table value is written (the Markdown report's formatter).
        protocol: the paper table (`tables.protocol_cells`): the protocol's
            name, its notes and its rows written as text.
        plot_notes: why a plot or panel is not drawn (`plots.absent_panels`).
    """
    curve_keys = ("round", "PRIV", "UTIL", "ROUGE", "BLEU", "MRS")
    curve_html = "".join(
        f"<h2>Per round: {html.escape(name)}</h2>" + _table(curve_keys, curve, fmt)
        for name, curve in curves.items()
        if len(curve) > 1
    )
    slots = {
        "GENERATED": html.escape(
            f"{len(reviews)} record(s) from {len(rows) - 1} run(s); written "
            + time.strftime("%Y-%m-%d %H:%M")
        ),
        "TABLE": _table(columns, rows, fmt) + _protocol_html(protocol),
        "PLOTS": "".join(_image(path, name) for name, path in plots.items())
        + "".join(f'<p class="muted">{html.escape(n)}</p>' for n in plot_notes or []),
        "CURVES": curve_html,
        "DATA": json_for_script({"records": reviews}),
    }
    template = (
        resources.files("anonygraph.reporting")
        .joinpath("report_template.html")
        .read_text(encoding="utf-8")
    )
    # One pass over the template: text put into a slot is never scanned again.
    return _SLOT.sub(lambda m: slots[m.group(1)], template)
