"""``python -m shardy_py simulate FILE [--seed S] [--args=ATTRS]``: propagate FILE's shardings, partition
it, run every device's program on its piece of the inputs (random ones drawn from the seed, or the
--args tensors), put the results together and compare each with the unpartitioned run; print per
output the largest difference and per device the bytes it held and the collectives it ran.

Exit status: 0 every output equals the unpartitioned run; 1 FILE does not parse or verify, a step
fails (errors on standard error as ``FILE:LINE:COL: error: ...``) or an output differs; 2 usage errors
or an unreadable file.
"""
from __future__ import annotations

import argparse
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Add the ``simulate`` options to ``p``."""
    p.add_argument("file", metavar="FILE", help="MLIR file ('-' for standard input)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default: 0)")
    p.add_argument("--args", "-args", default="",
                   help="the global inputs instead of random ones: --args='[dense<1.0> : tensor<8x4xf32>, ...]'")
    p.add_argument("--function", default="main", help="the entry function (default: main)")
    p.add_argument("--each-device", action="store_true",
                   help="one row per device, with its position on the mesh (default: one per group of devices "
                        "that held and ran the same)")
    from shardy_py.passes.partition_command import add_partitioner_options

    add_partitioner_options(p)


def run(args: argparse.Namespace) -> int:
    """Simulate FILE and print the report; returns the exit status."""
    from shardy_py.cli import report
    from shardy_py.interpreter.command import parse_args_attr
    from shardy_py.passes.partition_command import partitioner_options, read_and_verify
    from shardy_py.simulation.simulate import SimulationError, simulate

    parsed = read_and_verify(args.file, "simulate")
    if isinstance(parsed, int):
        return parsed
    module, source, name = parsed
    try:
        inputs = parse_args_attr(args.args)
    except ValueError as e:
        print(f"shardy-py simulate: --args: {e}", file=sys.stderr)
        return 2
    try:
        result = simulate(module, *inputs, seed=args.seed, function=args.function, **partitioner_options(args))
    except SimulationError as e:
        for loc, message in e.diagnostics:
            line, column = (loc.line, loc.column) if loc is not None and loc.line else (1, 1)
            report(name, source, line, column, message, "error")
        return 1
    sys.stdout.write(result.report(name, each_device=args.each_device))
    return 0 if result.ok else 1
