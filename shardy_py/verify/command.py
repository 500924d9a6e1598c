"""``python -m shardy_py verify FILE...``: check modules against every rule the C++ Shardy verifier
enforces, and report what fails as mlir-opt does.

Diagnostics go to standard error as FILE:LINE:COL: error: MESSAGE with the source line and a caret
(--format text, the default); the machine formats (--format json: one JSON object per line;
--format github: GitHub Actions annotations) go to standard output.

Exit status: 0 every file is clean; 1 some file has an error (or, with --verify-diagnostics, the
expectations were not met); 2 usage errors or an unreadable file.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable

from shardy_py.errors import source_lines
from shardy_py.progress import phase
from shardy_py.verify.diagnostics import Diagnostic
from shardy_py.verify.expected import check_expectations

_SPLIT = re.compile(r"^// -----", re.M)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``verify`` options to ``parser``."""
    parser.add_argument("files", nargs="+", metavar="FILE", help="MLIR files to verify ('-' for stdin)")
    parser.add_argument("--split-input-file", action="store_true",
                        help="verify each '// -----'-separated chunk as its own module")
    parser.add_argument("--format", choices=("text", "json", "github"), default="text", help="diagnostic format")
    parser.add_argument("--verify-diagnostics", action="store_true",
                        help="check the diagnostics against '// expected-error {{...}}' annotations instead")


def split_chunks(text: str, split: bool) -> list[tuple[int, str]]:
    """``(first line number - 1, text)`` per chunk; the whole text when ``split`` is false."""
    if not split:
        return [(0, text)]
    out = []
    start, offset = 0, 0
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if _SPLIT.match(line):
            out.append((offset, "".join(lines[start:i])))
            start, offset = i + 1, i + 1
    out.append((offset, "".join(lines[start:])))
    return out


def verify_text(text: str, filename: str | None = None) -> list[Diagnostic]:
    """Parse and verify one module text; parse errors and internal errors become diagnostics."""
    import shardy_py
    from shardy_py.verify.driver import verify

    try:
        module = shardy_py.parse(text, filename)
    except shardy_py.ParseError as e:
        return [Diagnostic(max(1, line), max(1, column), "error", message)
                for line, column, message in ((e.line, e.column, e.message), *e.more)]
    except RecursionError:
        return [Diagnostic(1, 1, "error", "input nests too deeply to parse")]
    except Exception as e:  # noqa: BLE001 - never a traceback for the user
        return [Diagnostic(1, 1, "error", f"internal error while parsing: {type(e).__name__}: {e}")]
    try:
        return verify(module)
    except Exception as e:  # noqa: BLE001
        return [Diagnostic(1, 1, "error", f"internal error while verifying: {type(e).__name__}: {e}")]


def _shift(d: Diagnostic, offset: int) -> Diagnostic:
    return Diagnostic(d.line + offset, d.column, d.severity, d.message,
                      tuple((ln + offset, col, msg) for ln, col, msg in d.notes))


def _format(fmt: str, name: str, d: Diagnostic, lines: list[str]) -> Iterable[str]:
    if fmt == "json":
        yield json.dumps({"file": name, "line": d.line, "column": d.column, "severity": d.severity,
                          "message": d.message})
        for ln, col, msg in d.notes:
            yield json.dumps({"file": name, "line": ln, "column": col, "severity": "note", "message": msg})
    elif fmt == "github":
        level = {"error": "error", "warning": "warning"}.get(d.severity, "notice")
        msg = d.message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        yield f"::{level} file={name},line={d.line},col={d.column}::{msg}"
    else:
        yield f"{name}:{d.line}:{d.column}: {d.severity}: {d.message}"
        if 1 <= d.line <= len(lines):
            src = lines[d.line - 1].rstrip("\n")
            yield src
            yield " " * (max(d.column, 1) - 1) + "^"
        for ln, col, msg in d.notes:
            yield f"{name}:{ln}:{col}: note: {msg}"


def run(args: argparse.Namespace) -> int:
    """Run ``verify`` with parsed ``args``; returns the exit status (0 clean, 1 errors, 2 usage/IO)."""
    from shardy_py.cli import read_input

    status = 0
    out = sys.stderr if args.format == "text" else sys.stdout
    for name in args.files:
        read = read_input(name, "verify")
        if read is None:
            status = 2
            continue
        text, shown = read
        lines = source_lines(text)
        file_diags: list[Diagnostic] = []
        chunks = split_chunks(text, args.split_input_file)
        for k, (offset, chunk) in enumerate(chunks):
            phase(f"verifying {shown}" + (f", chunk {k + 1} of {len(chunks)}" if len(chunks) > 1 else ""))
            diags = [_shift(d, offset) for d in verify_text(chunk, shown)]
            if args.verify_diagnostics:
                diags = check_expectations(chunk, [_shift(d, -offset) for d in diags], offset)
            file_diags.extend(diags)
        for d in file_diags:
            for line in _format(args.format, shown, d, lines):
                print(line, file=out)
            if d.severity == "error" and status == 0:
                status = 1
    return status


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry point (``python -m shardy_py.verify.command``)."""
    ap = argparse.ArgumentParser(prog="shardy-py verify", description="Verify Shardy (sdy) MLIR files.")
    add_arguments(ap)
    return run(ap.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
