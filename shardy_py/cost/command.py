"""``python -m shardy_py cost FILE [FILE2 ...] [options]``: what FILE's sharding costs per device:
argument and result bytes, the peak of live bytes, and every collective Shardy's partitioner inserts
with its bytes, estimated time on a topology and why it is there (``shardy_py.cost``).  Two files or
more are compared side by side; ``--variant SPEC`` compares variants of FILE's user shardings
(``%w=p0; %idx=p1``, ``%idx=first``, ``%x=[data, None]``); ``--suggest`` searches FILE's user
priorities for the cheapest result.

The topology is a preset (``--topology``: uniform, tpu-v5e, gpu-nvlink, gpu-pcie) or per-axis
figures: ``--axis-bandwidth x=BYTES_PER_S,...``, ``--axis-latency x=SECONDS,...``,
``--axis-kind x=ring|bidirectional-ring|switch,...`` (over the preset's, for the axes named).

Exit status: 0 done; 1 a FILE does not parse or verify, or a pass fails (FILE:LINE:COL: error: ...
on standard error); 2 usage errors (a bad topology figure or variant) or an unreadable file.
"""
from __future__ import annotations

import argparse
import json
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``cost`` options to ``parser``."""
    from shardy_py.cost.topologies import KINDS, PRESETS

    parser.add_argument("files", nargs="+", metavar="FILE", help="MLIR file ('-' for standard input); two or more "
                        "are compared")
    parser.add_argument("--topology", choices=sorted(PRESETS), default=None,
                        help="the machine the times are estimated on (default: uniform)")
    parser.add_argument("--axis-bandwidth", metavar="AXIS=BYTES_PER_S,...", default="",
                        help="bytes per second per direction of a mesh axis's links")
    parser.add_argument("--axis-latency", metavar="AXIS=SECONDS,...", default="", help="seconds per step on an axis")
    parser.add_argument("--axis-kind", metavar="AXIS=KIND,...", default="",
                        help=f"an axis's links: {', '.join(KINDS)}")
    parser.add_argument("--format", choices=("text", "json", "html"), default="text", help="output form")
    parser.add_argument("--variant", action="append", default=[], metavar="SPEC",
                        help="compare FILE with its user shardings changed: [LABEL:] %%name=p0|first|none|[axes, ...]; "
                             "...  (repeatable)")
    parser.add_argument("--suggest", action="store_true", help="search FILE's user priorities for the cheapest result")
    parser.add_argument("--max-candidates", type=int, default=16, metavar="N",
                        help="--suggest: cost at most N candidates (default 16)")
    parser.add_argument("--suggest-axes", action="store_true",
                        help="--suggest: also try mesh axes for the entry function's unannotated arguments")
    parser.add_argument("--objective", choices=("time", "bytes", "peak"), default="time",
                        help="--suggest, comparisons: what cheapest means first (default: time)")
    parser.add_argument("--no-propagation", action="store_true", help="FILE is propagated already: cost it as it is")
    parser.add_argument("--top", type=int, default=20, metavar="N", help="text: list the N largest collectives "
                        "(0: all; default 20)")
    parser.add_argument("--no-origins", action="store_true",
                        help="leave out where the shardings around each collective came from")
    parser.add_argument("--width", type=int, default=None, help="columns of the text (default: the terminal's)")
    parser.add_argument("-o", "--output", help="write here instead of standard output")


def _figures(text: str, flag: str, convert) -> dict:
    out = {}
    for item in (p.strip() for p in text.split(",")):
        if not item:
            continue
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"{flag}: '{item}' is not AXIS=VALUE")
        try:
            out[name.strip()] = convert(value.strip())
        except ValueError:
            raise ValueError(f"{flag}: '{value.strip()}' is not a valid value for axis {name.strip()}") from None
    return out


def _topology(args):
    from shardy_py.cost.topologies import topology

    bandwidth = _figures(args.axis_bandwidth, "--axis-bandwidth", float)
    latency = _figures(args.axis_latency, "--axis-latency", float)
    kind = _figures(args.axis_kind, "--axis-kind", str)
    return topology(args.topology, bandwidth=bandwidth, latency=latency, kind=kind)


def _usage(message: str) -> int:
    print(f"shardy-py cost: {message}", file=sys.stderr)
    return 2


def _pass_failed(e, name: str, source: str) -> int:
    from shardy_py.cli import report

    for d in e.diagnostics:
        report(name, source, d.line, d.column, d.message, d.severity)
    if not e.diagnostics:
        print(f"shardy-py cost: {e}", file=sys.stderr)
    return 1


def run(args: argparse.Namespace) -> int:
    """Cost, compare or suggest; returns the exit status."""
    from shardy_py.cli import write_output
    from shardy_py.cost.topologies import TopologyError
    from shardy_py.cost.variants import VariantError
    from shardy_py.passes.manager import PassError
    from shardy_py.show.command import drawing_width

    if args.width is not None and args.width < 20:
        return _usage("--width must be at least 20")
    if args.max_candidates < 1:
        return _usage("--max-candidates must be at least 1")
    if args.suggest and (len(args.files) > 1 or args.variant):
        return _usage("--suggest takes one FILE and no --variant")
    if args.variant and len(args.files) > 1:
        return _usage("--variant takes one FILE")
    try:
        topo = _topology(args)
    except (ValueError, TopologyError) as e:
        return _usage(str(e))
    from shardy_py.passes.partition_command import read_and_verify

    loaded = []
    for path in args.files:
        result = read_and_verify(path, "cost")
        if isinstance(result, int):
            return result
        loaded.append(result)
    width = drawing_width(args) if args.format == "text" else None
    top = None if args.top == 0 else args.top
    propagate = False if args.no_propagation else None
    module, source, name = loaded[0]
    try:
        if args.suggest:
            from shardy_py.cost.search import suggest

            result = suggest(module, topo, max_candidates=args.max_candidates, axes=args.suggest_axes,
                             objective=args.objective)
        elif args.variant or len(loaded) > 1:
            from shardy_py.cost.comparison import compare, compare_variants

            if args.variant:
                result = compare_variants(module, args.variant, topology=topo, propagate=propagate,
                                          objective=args.objective)
            else:
                result = compare(*(m for m, _, _ in loaded), topology=topo, labels=[n for _, _, n in loaded],
                                 propagate=propagate, objective=args.objective)
        else:
            from shardy_py.cost.report import cost

            result = cost(module, topo, propagate=propagate, name=name)
    except VariantError as e:
        return _usage(f"--variant: {e}")
    except PassError as e:
        return _pass_failed(e, name, source)
    write_output(_render(result, args.format, width, top, not args.no_origins), args.output)
    return 0


def _render(result, form: str, width, top, origins: bool) -> str:
    from shardy_py.cost.search import Suggestion

    if form == "json":
        data = result.to_json() if isinstance(result, Suggestion) else result.to_json(origins=origins)
        return json.dumps(data, indent=1) + "\n"
    if form == "html":
        from shardy_py.show.html import html_page

        return html_page(result._repr_html_(), title="shardy_py cost")
    if isinstance(result, Suggestion):
        return result.text(width, top=top)
    return result.text(width, top=top, origins=origins)
