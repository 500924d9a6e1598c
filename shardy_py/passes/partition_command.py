"""``python -m shardy_py partition FILE [options]``: propagate FILE's shardings, then run jaxlib
0.12's staged partitioner (``shardy_py.partition``: the explicit reshards,
sdy-resolve-permutation-factors with halo exchanges unless ``--no-halo-exchange``, the collectives,
padding, sdy-convert-global-to-local) and print the program each device runs: local shapes,
stablehlo collectives with their replica groups.

Exit status: 0 done, 1 FILE does not parse or verify, or a step fails (errors on stderr as
``FILE:LINE:COL: error: ...``), 2 a usage error, an unreadable FILE or an unwritable ``-o``.
"""
from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``partition`` options to ``parser``."""
    from shardy_py.cli import positive_int

    parser.add_argument("file", metavar="FILE", help="MLIR file ('-' for standard input)")
    parser.add_argument("--replica-count", type=positive_int, default=1,
                        help="number of replicas (device ids are replica ids)")
    parser.add_argument("--partition-count", type=positive_int, default=1, help="number of partitions")
    add_partitioner_options(parser)
    parser.add_argument("--keep-shardings", action="store_true", help="keep the shardings and meshes")
    parser.add_argument("--generic", action="store_true", help="print in MLIR's generic form")
    parser.add_argument("-o", "--output", help="write here instead of standard output")


def add_partitioner_options(parser: argparse.ArgumentParser) -> None:
    """The options of the partitioner's steps (``partition`` and ``simulate`` take them)."""
    parser.add_argument("--no-propagation", action="store_true",
                        help="FILE is propagated already: start at the export pipeline")
    parser.add_argument("--no-halo-exchange", action="store_true",
                        help="replicate the dimensions a pad, slice, reverse or reshape needs other devices' data "
                             "along, instead of exchanging halos (sdy-resolve-permutation-factors)")
    parser.add_argument("--no-rng-bit-generator-unsafe", action="store_true",
                        help="generate a sharded stablehlo.rng_bit_generator's output whole on every device and keep "
                             "its piece (the unpartitioned numbers; by default, as jaxlib 0.12, each device "
                             "generates its piece from the state it is given)")
    parser.add_argument("--enable-rgv3", action="store_true",
                        help="replica groups as mesh axes (#stablehlo.replica_group_mesh_axes)")
    parser.add_argument("--per-dim-all-gather", action="store_true", help="one all-gather per gathered dimension")
    parser.add_argument("--combine-multi-dimension-reduce-scatter", action="store_true",
                        help="one reduce-scatter for several scattered dimensions")


def partitioner_options(args: argparse.Namespace) -> dict:
    """The keyword arguments of ``shardy_py.partition`` that ``add_partitioner_options`` read."""
    return {"propagate": not args.no_propagation, "enable_rgv3": args.enable_rgv3,
            "per_dim_all_gather": args.per_dim_all_gather,
            "combine_multi_dimension_reduce_scatter": args.combine_multi_dimension_reduce_scatter,
            "enable_halo_exchange": not args.no_halo_exchange,
            "rng_bit_generator_unsafe": not args.no_rng_bit_generator_unsafe}


def run(args: argparse.Namespace) -> int:
    """Partition FILE and print the per-device program; returns the exit status."""
    from shardy_py.cli import report, write_output
    from shardy_py.passes.manager import PassError
    from shardy_py.passes.partition import partition
    from shardy_py.syntax.printer import print_module

    parsed = read_and_verify(args.file, "partition")
    if isinstance(parsed, int):
        return parsed
    module, source, name = parsed
    try:
        result = partition(module, replica_count=args.replica_count, partition_count=args.partition_count,
                           keep_shardings=args.keep_shardings, **partitioner_options(args))
    except PassError as e:
        for d in e.diagnostics:
            report(name, source, d.line, d.column, d.message, d.severity)
        if not e.diagnostics:
            print(f"shardy-py partition: {e}", file=sys.stderr)
        return 1
    write_output(print_module(result, generic=args.generic), args.output)
    return 0


def read_and_verify(path: str, command: str):
    """``(module, text, display name)`` of ``path`` parsed and verified for subcommand ``command``,
    or the exit status after reporting: 2 for an unreadable file, 1 for errors (parse, verifier,
    operands naming no value), each as ``FILE:LINE:COL: error: ...``."""
    import shardy_py
    from shardy_py.cli import read_and_parse, report

    parsed = read_and_parse(path, command)
    if isinstance(parsed, int):
        return parsed
    module, source, name = parsed
    errors = [d for d in shardy_py.verify(module) if d.severity == "error"] or _undefined_values(module)
    for d in errors:
        report(name, source, d.line, d.column, d.message, d.severity)
    return 1 if errors else parsed


def _undefined_values(module) -> list:
    """An error per operand that names no value (the parser keeps such names for other commands)."""
    from shardy_py.verify.diagnostics import Diagnostic

    out = []
    for op in module.walk():
        for i, value in enumerate(op.operands):
            if value is None and op.loc is not None:
                names = op.operand_names_view
                written = names[i] if i < len(names) else "?"
                message = f"use of undeclared SSA value name '{written}'"
                out.append(Diagnostic(op.loc.line, op.loc.column, "error", message))
    return out
