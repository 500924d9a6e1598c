"""The ``import`` and ``export`` commands: one module file in, the converted module out."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from shardy_py.errors import ParseError
from shardy_py.ir.module import Module


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options both commands take."""
    parser.add_argument("file", metavar="FILE", help="MLIR file ('-' for standard input)")
    parser.add_argument("-o", "--output", help="write here (atomically) instead of standard output")
    parser.add_argument("--debug-info", "--mlir-print-debuginfo", action="store_true",
                        help="also print loc(...) locations")


def run_conversion(args: argparse.Namespace, command: str, convert: Callable[[Module], Module]) -> int:
    """Read ``args.file``, convert it, print it; 0 on success, 1 on bad input, 2 on unreadable files."""
    from shardy_py.cli import _write_atomic, format_error, read_input
    from shardy_py.syntax.parser import parse_module
    from shardy_py.syntax.printer import print_module

    read = read_input(args.file, command)
    if read is None:
        return 2
    source, name = read
    if source.lstrip().startswith("HloModule"):
        print(f"{name}:1:1: error: this is HLO text; shardy-py reads MLIR. Get the MLIR form with jaxlib: "
              "jax._src.lib._jax.mlir.xla_computation_to_mlir_module(XlaComputation(hlo_module_from_text(text)"
              ".as_serialized_hlo_module_proto()))", file=sys.stderr)
        return 1
    try:
        result = convert(parse_module(source, name))
    except ParseError as e:
        print(format_error(name, source, e.line, e.column, e.message), file=sys.stderr)
        return 1
    except RecursionError:
        print(f"{name}:1:1: error: the input is nested too deeply", file=sys.stderr)
        return 1
    except Exception as e:  # noqa: BLE001 - never a traceback for the user
        print(f"{name}:1:1: error: internal error while converting: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    text = print_module(result, debug_info=args.debug_info)
    if args.output:
        _write_atomic(args.output, text)
    else:
        sys.stdout.write(text)
    return 0
