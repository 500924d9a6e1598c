"""``python -m shardy_py convert``: MLIR's shard (formerly mesh) dialect to sdy and back.

Exit status: 0 done; 1 the input does not parse or holds something with no counterpart (every such
place is reported as FILE:LINE:COL: error: ... on standard error); 2 usage errors or an unreadable file.
"""
from __future__ import annotations

import argparse
import sys

from shardy_py.interop.shard_common import DIALECT_NAMES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``convert`` options to ``parser``."""
    parser.add_argument("file", metavar="FILE", help="MLIR file ('-' for standard input)")
    parser.add_argument("--to", required=True, choices=("sdy", "shard"),
                        help="sdy: shard/mesh grids, shardings and shard ops become sdy; shard: the reverse")
    parser.add_argument("--dialect-name", choices=DIALECT_NAMES, default="shard",
                        help="with --to shard: write the 'shard' dialect (LLVM 21 on) or its older name 'mesh' "
                             "(mesh.mesh, mesh.sharding with partial = ..., mesh.shard); default: shard")
    parser.add_argument("--split-input-file", action="store_true",
                        help="convert each '// -----'-separated chunk on its own")
    parser.add_argument("-o", "--output", help="write here (atomically) instead of standard output")


def run(args: argparse.Namespace) -> int:
    """Convert ``args.file``; the exit code."""
    from shardy_py.cli import _write_atomic, format_error, read_input, split_chunks
    from shardy_py.errors import ParseError
    from shardy_py.interop.shard_dialect import ConversionError, convert
    from shardy_py.syntax.parser import parse_module
    from shardy_py.syntax.printer import print_module

    read = read_input(args.file, "convert")
    if read is None:
        return 2
    source, name = read
    chunks = split_chunks(source) if args.split_input_file else [(source, 1)]
    outputs: list[str] = []
    failed = False
    for text, first_line in chunks:
        try:
            module = parse_module(text, name)  # lines relative to the chunk: shifted when reported
            outputs.append(print_module(convert(module, args.to, args.dialect_name)))
        except ParseError as e:
            failed = True
            print(format_error(name, source, e.line + first_line - 1, e.column, e.message), file=sys.stderr)
        except ConversionError as e:
            failed = True
            for p in e.problems:
                print(format_error(name, source, p.line + first_line - 1, p.column, p.message), file=sys.stderr)
        except RecursionError:
            failed = True
            print(f"{name}:{first_line}:1: error: the input is nested too deeply to convert", file=sys.stderr)
    if failed:
        return 1
    text = "// -----\n".join(outputs)
    try:
        if args.output:
            _write_atomic(args.output, text)
        else:
            sys.stdout.write(text)
    except OSError as e:
        print(f"shardy-py convert: cannot write {args.output}: {e}", file=sys.stderr)
        return 2
    return 0
