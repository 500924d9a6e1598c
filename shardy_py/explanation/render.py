"""An ``Explanation`` as text for a terminal and as HTML for notebooks."""
from __future__ import annotations

import html
import textwrap
from typing import TYPE_CHECKING

from shardy_py.explanation.origins import UserSharding, axis_text

if TYPE_CHECKING:  # (the model's classes print themselves through here)
    from shardy_py.explanation.model import AxisStory, Explanation, Hop, KeptAway


def _at(loc, source_name: str | None) -> str:
    if loc is None:
        return ""
    return f" at {source_name}:{loc}" if source_name else f" at line {loc.line}, column {loc.column}"


def _origin_text(origin: UserSharding | None, story_axis, source_name: str | None) -> str:
    if origin is None:
        return "an unknown origin (no sdy.sharding_origins entry)"
    dim, priority = origin.dim_and_priority(story_axis)
    parts = [origin.description]
    if dim is not None:
        parts.append(f"dimension {dim}")
    parts.append(f"priority p{priority}" if priority is not None else "no priority (p0)")
    return ", ".join(parts) + _at(origin.loc, source_name)


def _hop_place(hop: Hop, source_name: str | None) -> str:
    return f"{hop.op}{_at(hop.loc, source_name)}, {hop.source} -> {hop.target} (from {hop.came_from})"


def _hop_text(hop: Hop, source_name: str | None) -> str:
    step = f"step {hop.step}" if hop.step is not None else "no step (a call rebuilt after propagation)"
    return f"{step}: {_hop_place(hop, source_name)}"


NO_STEP = "through a call rebuilt after propagation (no steps recorded):"


def _story_lines(story: AxisStory, source_name: str | None) -> list[str]:
    """The origin line, then the hops, latest first; a run of hops through a rebuilt call (no step
    numbers) under one heading."""
    lines = [f"  dimension {story.dim}, axis {axis_text(story.axis)}: from "
             + _origin_text(story.origin, story.axis, source_name)]
    previous_step = 0
    for hop in story.hops:
        if hop.step is None:
            if previous_step is not None:
                lines.append(f"      {NO_STEP}")
            lines.append(f"        {_hop_place(hop, source_name)}")
        else:
            lines.append(f"      {_hop_text(hop, source_name)}")
        previous_step = hop.step
    return lines


def _kept_text(k: KeptAway, source_name: str | None) -> str:
    if k.origin is not None and k.tensor_label.endswith(k.origin.description):
        _dim, priority = k.origin.dim_and_priority(k.axis)
        whence = "its own sharding, " + (f"priority p{priority}" if priority is not None else "no priority (p0)")
    else:
        whence = "from " + _origin_text(k.origin, k.axis, source_name)
    of = f" of {k.via}" if k.via else ""
    return (f"  axis {axis_text(k.axis)} of {k.role} of {k.op}{_at(k.op_loc, source_name)} ({k.tensor_label}), "
            f"dimension {k.tensor_dim} ({whence}), could shard dimension {k.value_dim}{of}; kept away ({k.kind}): "
            f"{k.reason}")


def explanation_text(e: Explanation) -> str:
    """Plain text: the value and its sharding, one block per axis (origin, then the hops back to
    it), then the axes kept away."""
    lines = [f"{e.label}{_at(e.loc, e.source_name)}",
             f"  sharding: {e.sharding if e.sharding is not None else 'none'}"]
    lines += [f"  note: {n}" for n in e.notes]
    if e.sharding is not None:
        for d in range(len(e.sharding.dim_shardings)):
            stories = [s for s in e.stories if s.dim == d]
            if not stories:
                lines.append(f"  dimension {d}: not sharded")
            for story in stories:
                lines += _story_lines(story, e.source_name)
    if e.kept_away:
        lines.append("  kept away:")
        lines += ["  " + _kept_text(k, e.source_name) for k in e.kept_away]
    return "\n".join(lines) + "\n"


def wrapped(text: str, width: int | None) -> str:
    """``text`` with lines longer than ``width`` broken at spaces, continuations indented 4 more."""
    if width is None:
        return text
    out = []
    for line in text.split("\n"):
        indent = " " * (len(line) - len(line.lstrip(" ")))
        if len(line) <= width:
            out.append(line)
            continue
        out += textwrap.wrap(line, width=width, initial_indent="", subsequent_indent=indent + "    ",
                             break_long_words=False, break_on_hyphens=False) or [line]
    return "\n".join(out)


def _cell(text: str) -> str:
    return f"<td>{html.escape(text)}</td>"


def explanation_html(e: Explanation) -> str:
    """A table per value: one row per axis (dimension, axis, origin, path), then the kept-away axes."""
    src = e.source_name
    rows = []
    for story in e.stories:
        path = "<br>".join(html.escape(_hop_text(h, src)) for h in story.hops) or "&mdash;"
        rows.append(f"<tr>{_cell(str(story.dim))}{_cell(axis_text(story.axis))}"
                    f"{_cell(_origin_text(story.origin, story.axis, src))}<td>{path}</td></tr>")
    out = [f"<div class='shardy-explain'><p><b>{html.escape(e.label)}</b>{html.escape(_at(e.loc, src))}<br>"
           f"<code>{html.escape(str(e.sharding) if e.sharding is not None else 'no sharding')}</code></p>"]
    out += [f"<p><i>{html.escape(n)}</i></p>" for n in e.notes]
    if rows:
        out.append("<table><tr><th>dimension</th><th>axis</th><th>from</th><th>path (latest step first)</th></tr>"
                   + "".join(rows) + "</table>")
    if e.kept_away:
        items = "".join(f"<li>{html.escape(_kept_text(k, src).strip())}</li>" for k in e.kept_away)
        out.append(f"<p>Kept away:</p><ul>{items}</ul>")
    out.append("</div>")
    return "".join(out)
