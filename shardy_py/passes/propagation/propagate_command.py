"""``python -m shardy_py propagate FILE [options] [--show] [--explain VALUE]...``: run Shardy's
propagation pipeline (``shardy_py.propagate``) on FILE and print the propagated module, or with
``--show`` draw its sharded values over the devices (``--before-after``: next to their
shardings before propagation; ``--value NAME`` picks values), or with ``--explain VALUE`` say where each
axis of VALUE's sharding came from (``%name`` as written in FILE, ``result N``, ``@func:%name``;
repeatable; turns on origin and edge tracking).

Exit status: 0 done, 1 FILE does not parse or a pass fails (errors on stderr as
``FILE:LINE:COL: error: ...``), 2 usage errors (an unreadable file, a VALUE that names nothing).
"""
from __future__ import annotations

import argparse
import sys
import warnings

#: The ``propagate`` keyword arguments the command line sets, as ``--flag`` names.
PIPELINE_FLAGS = ("keep-sharding-rules", "conservative-propagation", "debug-sharding-origins",
                  "debug-propagation-edge-sharding", "dedup-functions-fully", "enable-explicit-gather-scatter-batching")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``propagate`` options to ``parser``."""
    parser.add_argument("file", metavar="FILE", help="MLIR file ('-' for standard input)")
    for flag in PIPELINE_FLAGS:
        parser.add_argument(f"--{flag}", action="store_true", help=f"the pipeline's {flag} option")
    parser.add_argument("--show", action="store_true",
                        help="draw the propagated shardings over the devices instead of printing the module")
    parser.add_argument("--before-after", action="store_true",
                        help="with --show: draw each value's sharding before propagation next to the one after")
    parser.add_argument("--value", action="append", default=[], metavar="NAME",
                        help="with --show: only this value (as 'show --value'); repeatable")
    parser.add_argument("--explain", action="append", default=[], metavar="VALUE",
                        help="explain VALUE's sharding (%%name as written, 'result N', '@func:%%name'); repeatable")
    parser.add_argument("--html", action="store_true", help="with --show/--explain: write an HTML page")
    parser.add_argument("-o", "--output", help="write here instead of standard output")
    from shardy_py.show.command import add_drawing_arguments

    add_drawing_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Propagate FILE and print, draw or explain the result; returns the exit status."""
    from shardy_py.cli import read_and_parse, report, write_output
    from shardy_py.explanation import ExplainError, explain
    from shardy_py.passes.manager import PassError
    from shardy_py.passes.propagation.propagation_pipeline import PipelineStepSkipped, propagate
    from shardy_py.show.command import drawing_usage_error

    if drawing_usage_error(args, "propagate"):
        return 2
    parsed = read_and_parse(args.file, "propagate")
    if isinstance(parsed, int):
        return parsed
    module, source, name = parsed
    options = {flag.replace("-", "_"): getattr(args, flag.replace("-", "_")) for flag in PIPELINE_FLAGS}
    if args.explain:
        options["debug_sharding_origins"] = options["debug_propagation_edge_sharding"] = True
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", PipelineStepSkipped)
        try:
            result = propagate(module, **options)
        except PassError as e:
            for d in e.diagnostics:
                report(name, source, d.line, d.column, d.message, d.severity)
            if not e.diagnostics:
                print(f"shardy-py propagate: {e}", file=sys.stderr)
            return 1
    for w in caught:
        print(f"shardy-py propagate: note: {w.message}", file=sys.stderr)
    from shardy_py.progress import phase

    phase("explaining")
    try:
        explanations = [explain(result, spec, source_name=name, names="written") for spec in args.explain]
    except ExplainError as e:
        print(f"shardy-py propagate: --explain: {e}", file=sys.stderr)
        return 2
    parts: list[str] = []
    if args.show or args.before_after:
        try:
            parts.append(_pictures(result, args, name, module))
        except KeyError as e:
            print(f"shardy-py propagate: --value: no sharded value named {e.args[0]!r}", file=sys.stderr)
            return 2
    if explanations:
        if args.html:
            parts.append("".join(e._repr_html_() for e in explanations))
        else:
            from shardy_py.show.command import drawing_width

            # wrapped for a terminal (or at --width); piped text keeps one line per fact
            width = drawing_width(args) if args.width or (sys.stdout.isatty() and not args.output) else None
            parts.append("\n".join(e.text(width) for e in explanations))
    if not parts:
        phase("printing")
        parts.append(str(result))
    text = "\n".join(parts)
    if args.html and (args.show or args.before_after or explanations):
        from shardy_py.show.html import html_page

        text = html_page(text, title=f"{name} - shardy_py propagate")
    write_output(text, args.output)
    return 0


def _pictures(module, args, name: str, before=None) -> str:
    """The ``show`` drawing of the propagated module's sharded values (with ``--before-after``,
    next to ``before``'s); raises ``KeyError`` for a ``--value`` that names nothing."""
    from shardy_py.show.command import drawing_width, use_colour
    from shardy_py.show.html import render_html
    from shardy_py.show.terminal import render_text
    from shardy_py.show.view import module_pictures

    width = drawing_width(args)
    colour = use_colour(args.color, sys.stdout) and not args.output
    if args.before_after:
        from shardy_py.show.side_by_side import pairs, render_pairs_html, render_pairs_text

        items = pairs(before, module, args.value)
        if not items and not args.html:
            return f"{name}: no sharded values\n"
        return render_pairs_html(items) if args.html else render_pairs_text(items, width=width, colour=colour)
    pictures = module_pictures(module, args.value)
    if not pictures:
        return f"{name}: no sharded values\n"
    limits = dict(max_grids=args.max_grids, max_rows=args.max_rows)
    if args.html:
        return render_html(pictures, **limits)
    return render_text(pictures, width=width, colour=colour, **limits)
