"""``python -m shardy_py opt FILE [-o OUT] [-split-input-file] [-verify-diagnostics]
[-mlir-print-op-generic] [-mlir-print-debuginfo] (-PASS[=OPTIONS]... | --pass-pipeline=PIPELINE)``:
run Shardy's passes the way ``sdy_opt`` (``mlir-opt`` with Shardy's passes) does.

Passes run in the order given on each chunk (-split-input-file), the IR is verified after every
pass, and the result is printed as MLIR prints it (chunks joined by '// -----').  Pass options use
sdy_opt's spelling, -sdy-import-func-calls='add-data-flow-edges-on-named-computations=false', or
MLIR's pipeline text: --pass-pipeline='builtin.module(sdy-import-pipeline,
func.func(sdy-basic-propagate{conservative-propagation=true}))'.  -verify-diagnostics checks the
errors, warnings and remarks of the passes and of the verifier against the '// expected-error
{{...}}' annotations.  Flags take one dash or two, as in mlir-opt.  Diagnostics go to standard
error, the module to standard output (or -o OUT).

Exit status: 0 done; 1 a pass or the verifier reported an error (or expectations were not met);
2 usage errors (an unknown pass or option, an unreadable file).
"""
from __future__ import annotations

import argparse
import sys

from shardy_py.cli import format_error, read_input
from shardy_py.errors import ParseError
from shardy_py.verify.diagnostics import Diagnostic

USAGE = ("[FILE] [-o OUT] [--split-input-file] [--verify-diagnostics] [--mlir-print-op-generic] "
         "[--mlir-print-debuginfo] [--quiet] (-PASS[=OPTIONS] ... | --pass-pipeline=PIPELINE)")
_TOOL_FLAGS = {"split-input-file", "verify-diagnostics", "allow-unregistered-dialect", "list-passes",
               "mlir-print-debuginfo", "mlir-print-op-generic", "help", "h", "version", "quiet", "q"}
# the spellings the other commands use, accepted here too
_ALIASES = {"generic": "mlir-print-op-generic", "debug-info": "mlir-print-debuginfo", "h": "help", "q": "quiet"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("args", nargs=argparse.REMAINDER,
                        help="FILE (or -) and sdy_opt's flags; 'shardy-py opt --help' lists them and the passes")


def _split(argv: list[str]) -> tuple[list[str], dict, list[str], str | None]:
    """(input files, tool flags, pass flags, -o file) of ``argv``; a ``--pass-pipeline`` is given as
    the tool flag ``pass-pipeline`` (its text)."""
    files, flags, passes, output = [], {}, [], None
    it = iter(argv)
    for a in it:
        if a in ("-o", "--o"):
            output = next(it, None)
            continue
        if a in ("-pass-pipeline", "--pass-pipeline"):
            flags["pass-pipeline"] = next(it, "")
            continue
        if a.startswith("-") and a != "-":
            name, eq, value = a.lstrip("-").partition("=")
            name = _ALIASES.get(name, name)
            if name == "pass-pipeline":
                flags[name] = value
            elif name in _TOOL_FLAGS:
                flags[name] = True
            else:
                passes.append(a)
        else:
            files.append(a)
    return files, flags, passes, output


def help_text() -> str:
    """``opt --help``: the usage, then every implemented pass with its options."""
    from shardy_py.passes.registry import load_all

    doc = (__doc__ or "").strip().replace("``", "")
    description = doc.split("\n\n", 1)[1] if "\n\n" in doc else ""
    lines = [f"usage: shardy-py opt {USAGE}", "", description, ""]
    lines += ["options:",
              "  -h, --help                 show this help and exit",
              "  --version                  print the version and exit",
              "  -o OUT                     write the result here instead of standard output",
              "  --split-input-file         run each '// -----'-separated chunk as its own module",
              "  --verify-diagnostics       check diagnostics against '// expected-error {{...}}' annotations",
              "  --mlir-print-op-generic    print MLIR's generic op form (alias: --generic)",
              "  --mlir-print-debuginfo     print locations (alias: --debug-info)",
              "  --allow-unregistered-dialect  accepted for mlir-opt compatibility (ops of any dialect are read)",
              "  --pass-pipeline=PIPELINE   the passes as MLIR's pipeline text: 'builtin.module(PASS{OPTIONS}, "
              "func.func(PASS))'",
              "  -q, --quiet                no progress display on standard error",
              "  --list-passes              only the list of passes below",
              "", "passes (-NAME or -NAME='OPTION=VALUE ...'):"]
    for name, cls in sorted(load_all().items()):
        anchor = " (on each func.func)" if cls.anchor == "func.func" else ""
        lines.append(f"  -{name}{anchor}")
        lines.append(f"      {cls.summary}")
        for o in cls.options:
            kind = "|".join(o.type) if isinstance(o.type, tuple) else getattr(o.type, "__name__", str(o.type))
            default = str(o.default).lower() if isinstance(o.default, bool) else repr(o.default)
            lines.append(f"      {o.name}=<{kind}>  default {default}" + (f": {o.help}" if o.help else ""))
    return "\n".join(lines) + "\n"


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
    from shardy_py.cli import version_text
    from shardy_py.passes.manager import PassContext, PassError, PassManager, UnknownPassError
    from shardy_py.passes.pipeline_text import PipelineSyntaxError, pipeline_flags

    files, flags, pass_flags, output = _split(args.args)
    if flags.get("help"):
        sys.stdout.write(help_text())
        return 0
    if flags.get("version"):
        print(version_text())
        return 0
    if flags.get("list-passes"):
        sys.stdout.write(list_passes())
        return 0
    if len(files) > 1 or (not files and sys.stdin.isatty()):
        print("shardy-py opt: give one input file (or - for standard input); --help lists the flags and passes",
              file=sys.stderr)
        return 2
    files = files or ["-"]  # mlir-opt reads standard input when no file is given
    if "pass-pipeline" in flags:
        if pass_flags:
            print("shardy-py opt: --pass-pipeline cannot be used with individual pass flags", file=sys.stderr)
            return 2
        try:
            pass_flags = pipeline_flags(flags["pass-pipeline"])
        except PipelineSyntaxError as e:
            print(f"shardy-py opt: --pass-pipeline: {e}", file=sys.stderr)
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
                                    flags.get("mlir-print-op-generic", False),
                                    flags.get("mlir-print-debuginfo", False))
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


def _run_chunk(text, name, first_line, pass_flags, PassContext, PassError, PassManager, generic: bool,
               debug_info: bool = False):
    """(diagnostics, printed module or None) of one chunk."""
    import shardy_py
    from shardy_py.progress import phase
    from shardy_py.syntax.parser import parse_module
    from shardy_py.syntax.printer import print_module

    phase(f"parsing {name}")
    try:
        module = parse_module(text, name, first_line)
    except ParseError as e:
        return [Diagnostic(e.line, e.column, "error", e.message)], None
    phase(f"verifying {name}")
    errors = [d for d in shardy_py.verify(module) if d.severity == "error"]
    if errors:
        return errors, None
    ctx = PassContext()
    try:
        PassManager.parse(pass_flags).run(module, ctx)
    except PassError as e:
        return e.diagnostics, None
    phase(f"printing {name}")
    return ctx.diagnostics, print_module(module, generic=generic, debug_info=debug_info)
