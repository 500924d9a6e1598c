"""A ``CostReport`` as text for a terminal: the totals, the entry function's arguments and results,
live bytes along it (one bar per op, or per run of ops when there are more than ``MAX_ROWS``), and
the largest collectives with their reasons.  Every line fits ``width`` (long ones wrap)."""
from __future__ import annotations

from shardy_py.explanation.render import wrapped
from shardy_py.show.dtypes import format_bytes

#: Rows of the memory picture; longer functions are drawn per run of ops (each row the run's maximum).
MAX_ROWS = 32
DEFAULT_WIDTH = 100


def format_time(seconds: float) -> str:
    """``1.2 us``, ``3.4 ms``, ``5.6 s`` (two significant figures at least)."""
    if seconds == 0:
        return "0 s"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def _where(op: str, line: int | None) -> str:
    return op + (f" (line {line})" if line is not None else "")


def _bar(value: int, peak: int, width: int) -> str:
    if peak <= 0 or width <= 0:
        return ""
    eighths = round(value / peak * width * 8)
    full, rest = divmod(eighths, 8)
    return "█" * full + ("▏▎▍▌▋▊▉"[rest - 1] if rest else "")


def _rows(timeline, limit: int) -> list[tuple[str, int]]:
    """``(label, live bytes)`` rows: one per op, or one per run of ops (their maximum)."""
    if len(timeline) <= limit:
        return [(f"{p.index:>4} {_where(p.op, p.line)}", p.live_bytes) for p in timeline]
    step = -(-len(timeline) // limit)
    rows = []
    for start in range(0, len(timeline), step):
        run = timeline[start:start + step]
        top = max(run, key=lambda p: p.live_bytes)
        rows.append((f"{run[0].index:>4}-{run[-1].index:<4} max at {_where(top.op, top.line)}", top.live_bytes))
    return rows


def memory_lines(function, width: int) -> list[str]:
    """The memory picture of one ``FunctionMemory``."""
    rows = _rows(function.timeline, MAX_ROWS)
    if not rows:
        return []
    label_width = min(max(len(r[0]) for r in rows), max(12, width // 2))
    size_width = 11
    bar_width = max(4, width - label_width - size_width - 6)
    peak = max(v for _, v in rows)
    lines = [f"live bytes along @{function.name}, per device (op index, op, line):"]
    for label, value in rows:
        label = label if len(label) <= label_width else label[:label_width - 1] + "…"
        lines.append(f"  {label:<{label_width}} {format_bytes(value):>{size_width}} {_bar(value, peak, bar_width)}")
    return lines


def _tensor_lines(title: str, tensors) -> list[str]:
    if not tensors:
        return []
    lines = [title]
    for t in tensors:
        pad = ", padded" if t.padded else ""
        where = f" on device {t.device}" if t.device is not None else ""
        lines.append(f"  {t.name}: {t.type} {t.sharding or 'replicated'} -> {t.local_type}, "
                     f"{format_bytes(t.bytes)}{pad}{where}")
    return lines


def collective_lines(c, source_name: str | None, origins: bool) -> list[str]:
    """One collective: what it moves, then why."""
    axes = ", ".join(f'"{a}"' for a in c.axes) or "no mesh axis"
    loops = ""
    if c.executions != 1 or not c.executions_known:
        loops = f", {c.executions} times" if c.executions_known else ", in a loop of unknown trip count (counted once)"
    r = c.reason
    made_for = f", for {_where(r.op, r.loc.line if r.loc else None)}" if r is not None and r.kind != "program" else ""
    lines = [f"{c.kind} over {axes} ({c.group_size} devices) of {c.tensor_type}{made_for}",
             f"    sends {format_bytes(c.bytes_sent)} and receives {format_bytes(c.bytes_received)} per device, "
             f"~{format_time(c.time_s)}{loops}"]
    if r is not None:
        lines.append(f"    why ({r.kind}): {r.text}")
        if origins:
            lines += [f"      {o.text(source_name)}" for o in r.origins]
    return lines


def report_text(report, *, width: int | None = None, top: int | None = 20, origins: bool = True) -> str:
    """The whole text form (see the module docstring)."""
    width = width or DEFAULT_WIDTH
    entry = report.entry_function
    source_name = report.stages.original.filename
    lines = [f"cost of {report.name} on {report.topology.name} ({report.num_devices} devices"
             + (f", entry @{report.entry})" if report.entry else ")"),
             f"  topology: {report.topology.description}"]
    if entry is not None:
        lines.append(f"  per device: arguments {format_bytes(report.arguments_bytes)}, results "
                     f"{format_bytes(report.results_bytes)}, peak {format_bytes(report.peak_bytes)}"
                     + (f" at {_where(entry.peak_op, entry.peak_line)}" if entry.peak_op else ""))
    n = len(report.collectives)
    lines.append(f"  communication: {n} collective{'s' if n != 1 else ''}, {format_bytes(report.bytes_sent)} sent per "
                 f"device, ~{format_time(report.time_s)}")
    lines += [f"  note: {note}" for note in report.notes]
    if entry is not None:
        lines.append("")
        lines += _tensor_lines(f"arguments of @{entry.name}:", entry.arguments)
        lines += _tensor_lines(f"results of @{entry.name}:", entry.results)
        lines.append("")
        lines += memory_lines(entry, width)
    others = [f for f in report.functions if f.name != report.entry]
    if others:
        lines.append("")
        lines.append("other functions (per device): " + "; ".join(
            f"@{f.name} arguments {format_bytes(f.arguments_bytes)}, peak {format_bytes(f.peak_bytes)}"
            for f in others))
    if report.collectives:
        shown = report.collectives if top is None else report.collectives[:top]
        lines.append("")
        lines.append("collectives, most bytes first:" if len(shown) == n else
                     f"collectives, most bytes first ({len(shown)} of {n}):")
        for i, c in enumerate(shown, 1):
            block = collective_lines(c, source_name, origins)
            lines.append(f"  {i}. {block[0]}")
            lines += ["  " + b for b in block[1:]]
        groups = report.per_op()
        if len(groups) > 1:
            lines.append("")
            lines.append("communication per op, most bytes first:")
            for g in groups[:top] if top is not None else groups:
                lines.append(f"  {_where(g.op, g.line)}: {g.count} collective{'s' if g.count != 1 else ''}, "
                             f"{format_bytes(g.bytes_sent)}, ~{format_time(g.time_s)}")
    return wrapped("\n".join(lines), width) + "\n"
