"""A ``Suggestion`` as text (the candidates ranked, then the best one's user shardings), as JSON
(``shardy_py.cost.suggest/1``: every candidate's totals and user shardings, and the best one's whole
report) and as HTML (the ranking, then the best report's pictures)."""
from __future__ import annotations

import html

from shardy_py.cost.render_text import DEFAULT_WIDTH, format_time
from shardy_py.explanation.render import wrapped
from shardy_py.show.dtypes import format_bytes

SUGGEST_VERSION = "shardy_py.cost.suggest/1"


def _shardings(candidate) -> list[tuple[str, str]]:
    from shardy_py.priorities import user_shardings

    return [(s.label, str(s.sharding)) for s in user_shardings(candidate.module)]


def suggestion_text(suggestion, *, width: int | None = None, top: int | None = 10) -> str:
    width = width or DEFAULT_WIDTH
    n = len(suggestion.candidates)
    lines = [f"suggest: {n} candidate{'s' if n != 1 else ''} costed (at most {suggestion.budget}), "
             f"{suggestion.propagations} propagation{'s' if suggestion.propagations != 1 else ''}, "
             f"{suggestion.costings} distinct result{'s' if suggestion.costings != 1 else ''}; "
             f"ranked by {suggestion.objective}"]
    shown = suggestion.candidates if top is None else suggestion.candidates[:top]
    for rank, c in enumerate(shown, 1):
        r = c.report
        lines.append(f"  {rank}. {c.label}: ~{format_time(r.time_s)}, {format_bytes(r.bytes_sent)} sent, peak "
                     f"{format_bytes(r.peak_bytes)}, {sum(x.executions for x in r.collectives)} collectives")
    if len(shown) < n:
        lines.append(f"  ... and {n - len(shown)} more")
    best = suggestion.best
    lines.append("")
    lines.append(f"best: {best.label}; its user shardings:")
    lines += [f"  {label}: {sharding}" for label, sharding in _shardings(best)]
    return wrapped("\n".join(lines), width) + "\n"


def suggestion_json(suggestion) -> dict:
    return {
        "schema": SUGGEST_VERSION, "objective": suggestion.objective, "max_candidates": suggestion.budget,
        "propagations": suggestion.propagations, "costings": suggestion.costings,
        "candidates": [{"rank": rank, "label": c.label, "changes": list(c.changes), "time_s": c.report.time_s,
                        "bytes_sent": c.report.bytes_sent, "peak_bytes": c.report.peak_bytes,
                        "collectives": sum(x.executions for x in c.report.collectives),
                        "user_shardings": [{"label": label, "sharding": s} for label, s in _shardings(c)]}
                       for rank, c in enumerate(suggestion.candidates, 1)],
        "best": suggestion.best.report.to_json(),
    }


def suggestion_html(suggestion) -> str:
    e = html.escape
    rows = "".join(f"<tr><td>{rank}</td><td>{e(c.label)}</td><td>{e(format_time(c.report.time_s))}</td>"
                   f"<td>{e(format_bytes(c.report.bytes_sent))}</td><td>{e(format_bytes(c.report.peak_bytes))}</td></tr>"
                   for rank, c in enumerate(suggestion.candidates, 1))
    return (f"<div class='shardy-cost'><table><tr><th>rank</th><th>candidate</th><th>time</th><th>sent</th>"
            f"<th>peak</th></tr>{rows}</table></div>{suggestion.best.report._repr_html_()}")
