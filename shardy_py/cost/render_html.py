"""A ``CostReport`` as HTML for notebooks: the totals, live bytes along each function (an SVG line
per function, the peak marked; per device: on the most loaded one when some values live on one
device only), communication per op (an SVG bar per op the collectives were made for), and the
collectives with their reasons and origins.  All text is escaped; the page needs no script."""
from __future__ import annotations

import html

from shardy_py.cost.render_text import format_time
from shardy_py.show.dtypes import format_bytes

CHART_WIDTH = 640
CHART_HEIGHT = 160
BAR_HEIGHT = 18
MAX_BARS = 20
STYLE = ("<style>.shardy-cost{font-family:sans-serif;font-size:13px}.shardy-cost table{border-collapse:collapse}"
         ".shardy-cost td,.shardy-cost th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}"
         ".shardy-cost code{font-size:12px}</style>")


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def memory_svg(function, width: int = CHART_WIDTH, height: int = CHART_HEIGHT) -> str:
    """Live bytes along ``function`` (a ``FunctionMemory``) as an SVG polyline, the peak marked."""
    points = function.timeline
    if not points:
        return "<p><i>no ops</i></p>"
    top = max(p.live_bytes for p in points) or 1
    left, bottom = 70, 20
    plot_w, plot_h = width - left - 10, height - bottom - 10
    n = len(points)

    def xy(i: int, v: int) -> tuple[float, float]:
        x = left + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)
        return x, 10 + plot_h * (1 - v / top)

    coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in (xy(i, p.live_bytes) for i, p in enumerate(points)))
    peak_i = max(range(n), key=lambda i: points[i].live_bytes)
    px, py = xy(peak_i, points[peak_i].live_bytes)
    peak = points[peak_i]
    label = f"peak {format_bytes(peak.live_bytes)} at op {peak.index}: {peak.op}" + (
        f" (line {peak.line})" if peak.line is not None else "")
    return (f"<svg class='memory' width='{width}' height='{height}' role='img' aria-label='{_e(label)}'>"
            f"<line x1='{left}' y1='{10 + plot_h}' x2='{left + plot_w}' y2='{10 + plot_h}' stroke='#888'/>"
            f"<line x1='{left}' y1='10' x2='{left}' y2='{10 + plot_h}' stroke='#888'/>"
            f"<text x='{left - 4}' y='16' text-anchor='end' font-size='11'>{_e(format_bytes(top))}</text>"
            f"<text x='{left - 4}' y='{10 + plot_h}' text-anchor='end' font-size='11'>0 B</text>"
            f"<text x='{left}' y='{height - 4}' font-size='11'>op 0</text>"
            f"<text x='{left + plot_w}' y='{height - 4}' text-anchor='end' font-size='11'>op {n - 1}</text>"
            f"<polyline fill='none' stroke='#1f77b4' stroke-width='1.5' points='{coords}'/>"
            f"<circle cx='{px:.1f}' cy='{py:.1f}' r='4' fill='#d62728'><title>{_e(label)}</title></circle>"
            f"</svg><p>{_e(label)}</p>")


def communication_svg(groups, width: int = CHART_WIDTH) -> str:
    """Bytes sent per device for each op the collectives were made for, a bar each (most first)."""
    groups = groups[:MAX_BARS]
    if not groups:
        return "<p><i>no collectives</i></p>"
    top = max(g.bytes_sent for g in groups) or 1
    label_w = 260
    bar_w = width - label_w - 120
    rows = []
    for k, g in enumerate(groups):
        y = k * (BAR_HEIGHT + 4)
        name = g.op + (f" (line {g.line})" if g.line is not None else "")
        w = max(1.0, bar_w * g.bytes_sent / top) if g.bytes_sent else 0
        tip = f"{name}: {g.count} collective(s), {format_bytes(g.bytes_sent)}, ~{format_time(g.time_s)}"
        rows.append(f"<text x='{label_w - 6}' y='{y + 13}' text-anchor='end' font-size='11'>{_e(name)}</text>"
                    f"<rect x='{label_w}' y='{y}' width='{w:.1f}' height='{BAR_HEIGHT}' fill='#ff7f0e'>"
                    f"<title>{_e(tip)}</title></rect>"
                    f"<text x='{label_w + w + 4:.1f}' y='{y + 13}' font-size='11'>{_e(format_bytes(g.bytes_sent))}"
                    "</text>")
    height = len(groups) * (BAR_HEIGHT + 4)
    return f"<svg class='communication' width='{width}' height='{height}' role='img'>{''.join(rows)}</svg>"


def _collective_row(c, source_name: str | None) -> str:
    r = c.reason
    origins = ""
    if r is not None and r.origins:
        origins = "<ul>" + "".join(f"<li>{_e(o.text(source_name))}</li>" for o in r.origins) + "</ul>"
    runs = "" if c.executions == 1 and c.executions_known else (
        f" &times;{c.executions}" if c.executions_known else " (loop, counted once)")
    return (f"<tr><td>{_e(c.kind)}</td><td>{_e(', '.join(c.axes))}</td><td><code>{_e(c.tensor_type)}</code></td>"
            f"<td>{_e(format_bytes(c.bytes_sent))}{runs}</td><td>{_e(format_time(c.time_s))}</td>"
            f"<td>{_e(r.kind if r else '')}: {_e(r.text if r else '')}{origins}</td></tr>")


def report_html(report) -> str:
    """The whole HTML form (see the module docstring)."""
    source_name = report.stages.original.filename
    entry = report.entry_function
    out = [STYLE, "<div class='shardy-cost'>",
           f"<p><b>cost of {_e(report.name)}</b> on {_e(report.topology.name)} ({report.num_devices} devices)<br>"
           f"<small>{_e(report.topology.description)}</small></p>",
           "<table><tr><th>per device</th><th>bytes</th></tr>"
           f"<tr><td>arguments</td><td>{_e(format_bytes(report.arguments_bytes))}</td></tr>"
           f"<tr><td>results</td><td>{_e(format_bytes(report.results_bytes))}</td></tr>"
           f"<tr><td>peak live</td><td>{_e(format_bytes(report.peak_bytes))}</td></tr>"
           f"<tr><td>sent by collectives</td><td>{_e(format_bytes(report.bytes_sent))} "
           f"(~{_e(format_time(report.time_s))})</td></tr></table>"]
    out += [f"<p><i>{_e(n)}</i></p>" for n in report.notes]
    functions = ([entry] if entry is not None else []) + [f for f in report.functions if f is not entry]
    for k, f in enumerate(functions):
        chart = f"<p>Live bytes along <b>@{_e(f.name)}</b>, per device</p>{memory_svg(f)}"
        out.append(chart if k == 0 else f"<details><summary>@{_e(f.name)}</summary>{chart}</details>")
    out.append("<p>Communication per op (bytes sent per device)</p>")
    out.append(communication_svg(report.per_op()))
    if report.collectives:
        out.append("<table><tr><th>collective</th><th>axes</th><th>tensor</th><th>sent per device</th><th>time</th>"
                   "<th>why</th></tr>" + "".join(_collective_row(c, source_name) for c in report.collectives)
                   + "</table>")
    out.append("</div>")
    return "".join(out)
