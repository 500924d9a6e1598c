"""Command line: ``python -m shardy_py COMMAND ...`` (also installed as ``shardy-py``)."""
from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
import tempfile

from shardy_py.errors import ParseError, source_lines
from shardy_py.progress import phase, progress_display

SPLIT_MARKER = re.compile(r"^// -----.*$", re.M)

# Subcommands besides ``fmt``: (name, module, help). Each module defines
# ``add_arguments(parser)`` and ``run(args) -> int`` (the exit code).
SUBCOMMANDS: list[tuple[str, str, str]] = [
    ("verify", "shardy_py.verify.command", "check a module against every Shardy rule"),
    ("import", "shardy_py.interop.xla_import_command", "XLA round-trip format (xla.sdy strings) to plain sdy"),
    ("export", "shardy_py.interop.xla_export_command", "plain sdy to XLA's round-trip format"),
    ("show", "shardy_py.show.command", "draw how each sharded value is laid out over devices"),
    ("convert", "shardy_py.interop.shard_command", "convert between MLIR's shard (formerly mesh) dialect and sdy"),
    ("opt", "shardy_py.passes.opt_command", "run Shardy passes with sdy_opt's flags"),
    ("rules", "shardy_py.rules.command", "the sharding rule of each op, as text and per factor"),
    ("propagate", "shardy_py.passes.propagation.propagate_command",
     "run the propagation pipeline; print, draw (--show) or explain (--explain VALUE) the result"),
    ("interpret", "shardy_py.interpreter.command", "run a StableHLO module with the numpy interpreter"),
    ("partition", "shardy_py.passes.partition_command",
     "propagate, then partition: print the program each device runs (local shapes, collectives)"),
    ("cost", "shardy_py.cost.command",
     "what a sharding costs per device: memory, collectives and why; compare, suggest"),
    ("simulate", "shardy_py.simulation.command",
     "run the partitioned program on simulated devices and compare it with the unpartitioned run"),
]


def version_text() -> str:
    """What ``--version`` prints (the package's version)."""
    from shardy_py import __version__

    return f"shardy-py {__version__}"


#: The first bytes of MLIR bytecode (``mlir-opt --emit-bytecode``, ``Module.operation.write_bytecode``).
BYTECODE_MAGIC = b"ML\xefR"
BYTECODE_MESSAGE = ("this is MLIR bytecode, not MLIR text; write it as text with `mlir-opt --emit-bytecode=false "
                    "FILE` (or sdy_opt, stablehlo-opt), or in Python with jaxlib: "
                    "`ir.Module.parse(data, context=ctx).operation.get_asm()`")


class NotTextError(ValueError):
    """The input is not UTF-8 text (MLIR bytecode, a binary file): ``line``/``column`` of the first
    byte that is not text, and what to do."""

    def __init__(self, message: str, line: int, column: int):
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


def read_source(path: str) -> str:
    """Text of ``path`` (``-`` is standard input); raises OSError or ``NotTextError``."""
    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        # a text stream without bytes under it (io.StringIO, a notebook's stdin) is already decoded
        data = stream.read() if stream is not None else sys.stdin.read().encode("utf-8", "surrogateescape")
    else:
        data = open(path, "rb").read()  # noqa: SIM115
    if data.startswith(BYTECODE_MAGIC):
        raise NotTextError(BYTECODE_MESSAGE, 1, 1)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = len(data[data.rfind(b"\n", 0, e.start) + 1:e.start].decode("utf-8", "replace")) + 1
        raise NotTextError(f"the input is not UTF-8 text (byte 0x{data[e.start]:02x}); MLIR reads UTF-8 text",
                           line, column) from None


def read_input(path: str, command: str) -> tuple[str, str] | None:
    """``(text, display name)`` of ``path`` for subcommand ``command``; None after reporting an unreadable
    file (or one that is not text: MLIR bytecode, a binary file, reported at its place)."""
    phase(f"reading {path}")
    name = "<stdin>" if path == "-" else path
    try:
        source = read_source(path)
    except NotTextError as e:
        print(f"{name}:{e.line}:{e.column}: error: {e.message}", file=sys.stderr)
        return None
    except OSError as e:
        print(f"shardy-py {command}: cannot read {path}: {e}", file=sys.stderr)
        return None
    return source, name


def positive_int(text: str) -> int:
    """An argparse ``type``: an integer of at least 1 (anything else is a usage error)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


class OutputError(Exception):
    """``-o PATH`` could not be written (reported by ``main`` with exit status 2)."""


def write_output(text: str, path: str | None) -> None:
    """``text`` to ``path`` (``-o``), or to standard output when there is none; ``OutputError``
    when ``path`` cannot be written."""
    if path:
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise OutputError(f"cannot write {path}: {e.strerror or e}") from e
    else:
        sys.stdout.write(text)


def report(path: str, source: str, line: int, column: int, message: str, severity: str = "error") -> None:
    """Print ``format_error`` of the message to standard error (line and column at least 1)."""
    print(format_error(path, source, max(line, 1), max(column, 1), message, severity), file=sys.stderr)


def read_and_parse(path: str, command: str):
    """``(module, text, display name)`` of ``path`` for subcommand ``command``, or the exit status
    after reporting: 2 for an unreadable file, 1 for text that does not parse."""
    import shardy_py

    read = read_input(path, command)
    if read is None:
        return 2
    source, name = read
    phase(f"parsing {name} ({len(source) / 1e6:.1f} MB)")
    try:
        module = shardy_py.parse(source, name)
        if module.ssa_failures:  # (a use MLIR's verifier rejects never reaches a command)
            line, column, message = module.ssa_failures[0][:3]
            report(name, source, line, column, message)
            return 1
        return module, source, name
    except ParseError as e:
        report(name, source, e.line, e.column, e.message)
    except RecursionError:
        report(name, source, 1, 1, "input nests too deeply to parse")
    return 1


def split_chunks(text: str, marker: re.Pattern = SPLIT_MARKER) -> list[tuple[str, int]]:
    """``--split-input-file``: (chunk text, 1-based line the chunk starts on)."""
    chunks = []
    pos = 0
    line = 1
    for m in marker.finditer(text):
        chunks.append((text[pos:m.start()], line))
        line += text.count("\n", pos, m.end()) + 1
        pos = m.end() + 1
    chunks.append((text[pos:], line))
    return chunks


def format_error(path: str, source: str, line: int, column: int, message: str, severity: str = "error") -> str:
    """``FILE:LINE:COL: error: MESSAGE``, the source line and a caret under the column."""
    lines = source_lines(source)
    out = f"{path}:{line}:{column}: {severity}: {message}"
    if 1 <= line <= len(lines):
        src = lines[line - 1]
        out += "\n" + src + "\n" + " " * (max(column, 1) - 1) + "^"
    return out


def _write_atomic(path: str, text: str) -> None:
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".shardy_py-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        if os.path.exists(path):
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def cmd_fmt(args: argparse.Namespace) -> int:
    """Print FILE in canonical form (the way the C++ Shardy prints it)."""
    from shardy_py.syntax.parser import parse_module
    from shardy_py.syntax.printer import print_module

    if args.in_place and (args.output or args.file == "-"):
        print("shardy-py fmt: --in-place needs a file and excludes -o", file=sys.stderr)
        return 2
    read = read_input(args.file, "fmt")
    if read is None:
        return 2
    source, name = read
    chunks = split_chunks(source) if args.split_input_file else [(source, 1)]
    outputs = []
    failed = False
    for text, first_line in chunks:
        try:
            phase(f"parsing {name}")
            m = parse_module(text, name, first_line)
            phase(f"printing {name}")
            outputs.append(print_module(m, debug_info=args.debug_info, generic=args.generic))
        except ParseError as e:
            failed = True
            print(format_error(name, source, e.line, e.column, e.message), file=sys.stderr)
    if failed:
        return 1
    text = "// -----\n".join(outputs)
    if args.in_place:
        _write_atomic(args.file, text)
    elif args.output:
        _write_atomic(args.output, text)
    else:
        sys.stdout.write(text)
    return 0


FMT_DOC = """``python -m shardy_py fmt FILE``: print a module the way the C++ Shardy (MLIR's printer) prints it.

Exit status: 0 done; 1 the input does not parse (FILE:LINE:COL: error: ... on standard error);
2 usage errors or an unreadable file.
"""


def help_description(doc: str) -> str:
    """A command's docstring as its ``--help`` shows it: reST's double backticks taken out."""
    return re.sub(r"``(.*?)``", r"\1", doc, flags=re.S).strip()


def add_quiet(parser: argparse.ArgumentParser) -> None:
    """``-q/--quiet``: no progress display (it shows only when standard error is a terminal)."""
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress display on standard error (shown only when it is a terminal)")


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="shardy-py", description="Read, check and print Shardy (sdy) MLIR.")
    ap.add_argument("--version", action="version", version=version_text())
    sub = ap.add_subparsers(dest="command", required=True)
    f = sub.add_parser("fmt", help="print a module in canonical form", description=help_description(FMT_DOC),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    f.add_argument("file", metavar="FILE", help="MLIR file ('-' for standard input)")
    f.add_argument("--split-input-file", action="store_true", help="treat '// -----' separated chunks separately")
    f.add_argument("--debug-info", "--mlir-print-debuginfo", action="store_true",
                   help="also print loc(...) locations")
    f.add_argument("--generic", "--mlir-print-op-generic", action="store_true",
                   help="print MLIR's generic op form (what get_asm(print_generic_op_form=True) prints)")
    g = f.add_mutually_exclusive_group()
    g.add_argument("-o", "--output", help="write here (atomically) instead of standard output")
    g.add_argument("--in-place", action="store_true", help="rewrite FILE (atomically)")
    f.add_argument("--version", action="version", version=version_text())
    add_quiet(f)
    f.set_defaults(func=cmd_fmt)
    for name, module_name, help_text in SUBCOMMANDS:
        module = importlib.import_module(module_name)
        p = sub.add_parser(name, help=help_text, description=help_description(module.__doc__ or ""),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        module.add_arguments(p)
        p.add_argument("--version", action="version", version=version_text())
        add_quiet(p)
        p.set_defaults(func=module.run)
    return ap


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``shardy-py`` and ``python -m shardy_py``."""
    argv = sys.argv[1:] if argv is None else argv
    ap = build_parser()
    if argv[:1] == ["opt"]:
        # sdy_opt's single-dash flags (-sdy-x, -split-input-file) are not argparse's: pass them through
        args = argparse.Namespace(func=importlib.import_module("shardy_py.passes.opt_command").run, args=argv[1:],
                                  quiet=any(a in ("-q", "--quiet", "-quiet") for a in argv[1:]))
    else:
        args = ap.parse_args(argv)
    try:
        with progress_display(enabled=not args.quiet):
            return args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except OutputError as e:
        print(f"shardy-py {argv[0]}: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # a bug of ours: one clear line instead of a traceback
        if os.environ.get("SHARDY_PY_TRACEBACK"):
            raise
        command = argv[0] if argv else "shardy-py"
        print(f"shardy-py {command}: internal error: {type(e).__name__}: {e}\n"
              "This is a bug in shardy_py; please report it with the input "
              "(SHARDY_PY_TRACEBACK=1 shows where it happened).", file=sys.stderr)
        return 70
