"""``python -m shardy_py opt FILE [-split-input-file] [-verify-diagnostics] [-allow-unregistered-dialect]
-PASS[=OPTIONS]...``: run Shardy's passes the way ``sdy_opt`` does.

Passes run in the order given on each chunk (``-split-input-file``), the IR is verified after every
pass, and the result is printed as MLIR prints it (chunks joined by ``// -----``).  Pass options use
sdy_opt's spelling: ``-sdy-import-func-calls='add-data-flow-edges-on-named-computations=false'``.
``-verify-diagnostics`` checks the errors, warnings and remarks of the passes and of the verifier
against the ``// expected-error {{...}}`` annotations.  ``--list-passes`` lists what is implemented.
Exit status: 0 done, 1 a pass or the verifier reported an error (or expectations were not met),
2 usage errors (an unknown pass or option, an unreadable file).
"""
from __future__ import annotations

import argparse
import sys

from shardy_py.cli import format_error, read_input
from shardy_py.errors import ParseError
from shardy_py.verify.diagnostics import Diagnostic

_TOOL_FLAGS = {"split-input-file", "verify-diagnostics", "allow-unregistered-dialect", "list-passes",
               "mlir-print-debuginfo", "mlir-print-op-generic"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("args", nargs=argparse.REMAINDER,
                        help="FILE (or -) and sdy_opt flags: -split-input-file, -verify-diagnostics, "
                             "-allow-unregistered-dialect, -o OUT, --list-passes, and passes -sdy-NAME[=OPTIONS]")


def _split(argv: list[str]) -> tuple[list[str], dict, list[str], str | None]:
    files, flags, passes, output = [], {}, [], None
    it = iter(argv)
    for a in it:
        if a in ("-o", "--o"):
            output = next(it, None)
            continue
        if a.startswith("-") and a != "-":
            name = a.lstrip("-").split("=", 1)[0]
            if name in _TOOL_FLAGS:
                flags[name] = True
            else:
                passes.append(a)
        else:
            files.append(a)
    return files, flags, passes, output


def list_passes() -> str:
    """One line per implemented pass: its flag, options and summary."""
    from shardy_py.passes.registry import load_all

    lines = []
    for name, cls in sorted(load_all().items()):
        opts = ", ".join(f"{o.name}={o.default}" for o in cls.options)
        lines.append(f"  -{name}" + (f" [{opts}]" if opts else "") + f"  {cls.summary}")
    return "\n".join(lines) + "\n"


def _chunks(source: str, split: bool) -> list[tuple[str, int]]:
    from shardy_py.cli import split_chunks

    return split_chunks(source) if split else [(source, 1)]


def run(args: argparse.Namespace) -> int:
    """Run ``opt`` (see the module docstring); returns the exit status."""
    from shardy_py.passes.manager import PassContext, PassError, PassManager, UnknownPassError

    files, flags, pass_flags, output = _split(args.args)
    if flags.get("list-passes"):
        sys.stdout.write(list_passes())
        return 0
    if len(files) != 1:
        print("shardy-py opt: give exactly one input file (or -)", file=sys.stderr)
        return 2
    try:
        PassManager.parse(pass_flags)  # unknown passes and options are usage errors, before any work
    except (UnknownPassError, ValueError) as e:
        print(f"shardy-py opt: {e}", file=sys.stderr)
        return 2
    read = read_input(files[0], "opt")
    if read is None:
        return 2
    source, name = read
    expect = flags.get("verify-diagnostics", False)
    outputs, status = [], 0
    for text, first_line in _chunks(source, flags.get("split-input-file", False)):
        diags, printed = _run_chunk(text, name, first_line, pass_flags, PassContext, PassError, PassManager,
                                    flags.get("mlir-print-op-generic", False))
        if expect:
            from shardy_py.verify.expected import check_expectations

            offset = first_line - 1
            rel = [Diagnostic(d.line - offset, d.column, d.severity, d.message,
                              tuple((ln - offset, c, m) for ln, c, m in d.notes)) for d in diags]
            diags = check_expectations(text, rel, offset)
        for d in diags:
            if d.severity in ("error", "warning") or not expect:
                print(format_error(name, source, d.line, d.column, d.message, d.severity), file=sys.stderr)
            if d.severity == "error":
                status = 1
        if printed is not None:  # mlir-opt prints the result under -verify-diagnostics too
            outputs.append(printed)
    if outputs:
        text = "// -----\n".join(outputs)
        if output:
            with open(output, "w", encoding="utf-8") as f:
                f.write(text)
        else:
            sys.stdout.write(text)
    return status


def _run_chunk(text, name, first_line, pass_flags, PassContext, PassError, PassManager, generic: bool):
    """(diagnostics, printed module or None) of one chunk."""
    import shardy_py
    from shardy_py.syntax.parser import parse_module
    from shardy_py.syntax.printer import print_module

    try:
        module = parse_module(text, name, first_line)
    except ParseError as e:
        return [Diagnostic(e.line, e.column, "error", e.message)], None
    errors = [d for d in shardy_py.verify(module) if d.severity == "error"]
    if errors:
        return errors, None
    ctx = PassContext()
    try:
        PassManager.parse(pass_flags).run(module, ctx)
    except PassError as e:
        return e.diagnostics, None
    return ctx.diagnostics, print_module(module, generic=generic)
