"""Run a StableHLO module with the numpy interpreter, as ``stablehlo-translate --interpret`` does:
the entry function (``main``, or the only function) runs on the --args tensors and each result is
printed; ``check`` dialect ops that fail, and ops the interpreter cannot run, are located errors.

Exit status: 0 done; 1 the input does not parse, a check failed or an op could not run (errors on
standard error); 2 usage errors or an unreadable file.
"""
from __future__ import annotations

import argparse
import re
import sys

from shardy_py.errors import ParseError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="MLIR file ('-' for standard input)")
    p.add_argument("--split-input-file", "-split-input-file", action="store_true",
                   help="run each '// -----' separated chunk as a module of its own")
    p.add_argument("--args", "-args", default="",
                   help="arguments of the entry function: --args='[dense<1> : tensor<2xi32>, ...]'")
    p.add_argument("--interpreter-print-dense", "-interpreter-print-dense", action="store_true",
                   help="print results as dense attributes")
    p.add_argument("--probe-output-dir", "-probe-output-dir", default="",
                   help="folder where interpreter.probe writes the tensors it sees")
    p.add_argument("--function", default="main", help="the entry function (default: main)")
    p.add_argument("--interpret", "-interpret", action="store_true", help=argparse.SUPPRESS)


def parse_args_attr(text: str):
    """The --args tensors; raises ValueError with stablehlo-translate's message."""
    from shardy_py.interpreter.values import from_dense
    from shardy_py.ir.dense_attrs import DenseElementsAttr
    from shardy_py.syntax.attr_reader import parse_attribute

    usage = ", i.e. --args=[dense<1> : tensor<2xi32>, ...]"
    if not text:
        return []
    try:
        attr = parse_attribute(text)
    except Exception:
        attr = None
    elements = getattr(attr, "elements", None)
    if elements is None or type(attr).__name__ != "ArrayAttr":
        raise ValueError("expectected array attribute string for args" + usage)
    out = []
    for e in elements:
        if not isinstance(e, DenseElementsAttr):
            raise ValueError("expected dense elements attribute for args elements" + usage)
        out.append(from_dense(e))
    return out


#: MLIR's split marker: a ``// -----`` line, also when commented out (``// // -----``).
_SPLIT_MARKER = re.compile(r"^(?://\s*)?// -----.*$", re.M)


def run(args: argparse.Namespace) -> int:
    from shardy_py.cli import format_error, read_input, split_chunks
    from shardy_py.interpreter.api import run_module
    from shardy_py.interpreter.evaluator import InterpretError
    from shardy_py.interpreter.printing import value_text
    from shardy_py.syntax.parser import parse_module

    read = read_input(args.file, "interpret")
    if read is None:
        return 2
    source, name = read
    try:
        inputs = parse_args_attr(args.args)
    except ValueError as e:
        print(f"<unknown>:0: error: {e}", file=sys.stderr)
        return 1
    chunks = split_chunks(source, _SPLIT_MARKER) if args.split_input_file else [(source, 1)]
    failed = False
    for i, (text, first_line) in enumerate(chunks):
        if i:
            sys.stdout.write("// -----\n")
        try:
            module = parse_module(text, name, first_line)
        except ParseError as e:
            print(format_error(name, source, e.line, e.column, e.message), file=sys.stderr)
            failed = True
            continue
        except RecursionError:
            print(format_error(name, source, first_line, 1, "input nests too deeply to parse"), file=sys.stderr)
            failed = True
            continue
        try:
            results, types = run_module(module, inputs, function=args.function,
                                        probe_dir=args.probe_output_dir or None, out=sys.stdout)
        except InterpretError as e:
            loc = e.loc
            line, col = (loc.line, loc.column) if loc is not None else (first_line, 1)
            print(format_error(name, source, line, col, e.message), file=sys.stderr)
            failed = True
            continue
        except RecursionError:
            print(format_error(name, source, first_line, 1, "calls nest too deeply"), file=sys.stderr)
            failed = True
            continue
        for value, t in zip(results, types, strict=False):
            sys.stdout.write(value_text(value, t, args.interpreter_print_dense) + "\n")
        sys.stdout.flush()
    return 1 if failed else 0
