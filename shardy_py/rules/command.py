"""``python -m shardy_py rules FILE``: the sharding rule of every op the registry covers.

For each op (or only those starting on line ``--op LINE``) the rule is printed as the C++
``-sdy-populate-op-sharding-rules`` pass would attach it (``#sdy.op_sharding_rule<...>``; a rule
already on the op is kept, as the C++ keeps it), followed by a readable view: each operand and
result with the factors of its dimensions, and each factor's size, kind and dimensions.  An op the
registry does not know is a ``FILE:LINE:COL: warning:`` (once per message), as the C++ warns.

Exit status: 0 when the file was read and parsed (also when no op has a rule), 1 when it does
not parse, 2 for usage errors (an unreadable file, a LINE on which no op starts).
"""
from __future__ import annotations

import argparse
import sys

from shardy_py.errors import source_lines
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Operation


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``rules`` options to ``parser``."""
    parser.add_argument("file", metavar="FILE", help="MLIR file ('-' for standard input)")
    parser.add_argument("--op", type=int, metavar="LINE", default=None,
                        help="only the op(s) starting on source line LINE")
    parser.add_argument("--conservative", action="store_true",
                        help="the rules of conservative propagation (the pass's conservative-propagation=true)")


def _registry_warning(op: Operation, conservative: bool) -> str | None:
    """What the C++ registry warns about an op it has no rule for (None when it gives none on purpose)."""
    from shardy_py.rules.sharding_rule import create_op_sharding_rule

    return create_op_sharding_rule(op, conservative).warning


def _why_none(op: Operation, conservative: bool) -> str:
    return _registry_warning(op, conservative) or "the Shardy registry gives this op none"


def _ops(module: Module, line: int | None) -> list[Operation]:
    out = []
    for op in module.op.walk():
        if op is module.op and not op.properties.get("explicit"):
            continue  # a module the parser made up: no line of the text holds it
        if line is None or (op.loc is not None and op.loc.line == line):
            out.append(op)
    return out


def _write(text: str) -> None:
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")
    sys.stdout.write(text)


def run(args: argparse.Namespace) -> int:
    """Print the sharding rules of the file's ops; returns the exit status."""
    import shardy_py
    from shardy_py.cli import read_and_parse, report
    from shardy_py.show.rule_view import describe

    parsed = read_and_parse(args.file, "rules")
    if isinstance(parsed, int):
        return parsed
    module, source, name = parsed
    if args.op is not None and args.op < 1:
        print("shardy-py rules: --op takes a line number, 1 or more", file=sys.stderr)
        return 2
    ops = _ops(module, args.op)
    if args.op is not None and not ops:
        lines = source_lines(source)
        if args.op > len(lines):
            report(name, source, args.op, 1, f"no op starts on line {args.op}: the file has {len(lines)} lines")
            return 2
        text = lines[args.op - 1]
        report(name, source, args.op, len(text) - len(text.lstrip()) + 1, f"no op starts on line {args.op}")
        return 2
    from shardy_py.progress import is_on, phase

    blocks, warned = [], set()
    for k, op in enumerate(ops):
        if is_on() and k % 1000 == 0:
            phase(f"rules: op {k:,} of {len(ops):,}")
        rule = shardy_py.sharding_rule(op, conservative=args.conservative)
        if rule is not None:
            blocks.append(describe(rule, op))
        elif args.op is not None:
            blocks.append(f"{op.name} at line {args.op}: no sharding rule ({_why_none(op, args.conservative)})")
        else:
            warning = _registry_warning(op, args.conservative)
            if warning and warning not in warned:
                warned.add(warning)
                loc = op.loc
                report(name, source, loc.line if loc else 1, loc.column if loc else 1, warning, "warning")
    if not blocks:
        _write(f"{name}: no op has a sharding rule\n")
        return 0
    phase(f"rules: writing {len(blocks):,} rules")
    _write("\n\n".join(blocks) + "\n")
    return 0
