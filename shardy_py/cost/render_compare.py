"""A ``Comparison`` as text (a table of the totals, one column per report, the verdict, then each
report's largest collectives with their reasons) and as HTML (the same table, and each report's
memory and communication pictures side by side)."""
from __future__ import annotations

import html

from shardy_py.cost.render_html import STYLE, communication_svg, memory_svg
from shardy_py.cost.render_text import DEFAULT_WIDTH, collective_lines, format_time
from shardy_py.explanation.render import wrapped
from shardy_py.show.dtypes import format_bytes

ROWS = (
    ("arguments", lambda r: format_bytes(r.arguments_bytes)),
    ("results", lambda r: format_bytes(r.results_bytes)),
    ("peak live", lambda r: format_bytes(r.peak_bytes)),
    ("bytes sent", lambda r: format_bytes(r.bytes_sent)),
    ("time", lambda r: format_time(r.time_s)),
    ("collectives", lambda r: str(sum(c.executions for c in r.collectives))),
)


def _table(comparison, width: int) -> list[str]:
    labels = comparison.labels
    cells = [[f(r) for r in comparison.reports] for _, f in ROWS]
    first = max(len(name) for name, _ in ROWS) + 2
    widths = [max(len(labels[i]), *(len(row[i]) for row in cells)) + 2 for i in range(len(labels))]
    if first + sum(widths) + 2 <= width:
        lines = ["  " + " " * first + "".join(f"{label:<{w}}" for label, w in zip(labels, widths, strict=True))]
        lines += ["  " + f"{name:<{first}}" + "".join(f"{c:<{w}}" for c, w in zip(row, widths, strict=True))
                  for (name, _), row in zip(ROWS, cells, strict=True)]
        return [line.rstrip() for line in lines]
    lines = []
    for i, label in enumerate(labels):
        lines.append(f"  {label}: " + ", ".join(f"{name} {row[i]}" for (name, _), row in zip(ROWS, cells, strict=True)))
    return lines


def comparison_text(comparison, *, width: int | None = None, top: int | None = 5, origins: bool = True) -> str:
    """The text form (see the module docstring)."""
    width = width or DEFAULT_WIDTH
    first = comparison.reports[0]
    lines = [f"compare on {first.topology.name} ({first.num_devices} devices), per device:"]
    lines += _table(comparison, width)
    lines.append(comparison.verdict())
    for label, report in zip(comparison.labels, comparison.reports, strict=True):
        n = len(report.collectives)
        lines.append("")
        lines.append(f"{label}: {n} collective{'s' if n != 1 else ''}, {format_bytes(report.bytes_sent)} sent")
        shown = report.collectives if top is None else report.collectives[:top]
        for i, c in enumerate(shown, 1):
            block = collective_lines(c, report.stages.original.filename, origins)
            lines.append(f"  {i}. {block[0]}")
            lines += ["  " + b for b in block[1:]]
        if len(shown) < n:
            lines.append(f"  ... and {n - len(shown)} more")
    return wrapped("\n".join(lines), width) + "\n"


def comparison_html(comparison) -> str:
    """The HTML form (see the module docstring)."""
    e = html.escape
    best = comparison.cheapest
    head = "".join(f"<th>{e(label)}{' (cheapest)' if i == best else ''}</th>"
                   for i, label in enumerate(comparison.labels))
    rows = "".join(f"<tr><td>{e(name)}</td>" + "".join(f"<td>{e(f(r))}</td>" for r in comparison.reports) + "</tr>"
                   for name, f in ROWS)
    pictures = "".join(
        f"<td>{memory_svg(r.entry_function, width=360, height=120) if r.entry_function else ''}"
        f"{communication_svg(r.per_op(), width=360)}</td>" for r in comparison.reports)
    return (f"{STYLE}<div class='shardy-cost'><table><tr><th>per device</th>{head}</tr>{rows}"
            f"<tr><td>memory, communication</td>{pictures}</tr></table><p>{e(comparison.verdict())}</p></div>")
