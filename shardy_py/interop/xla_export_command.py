"""``python -m shardy_py export FILE``: plain sdy to XLA's round-trip format, the Shardy IR written
as ``mhlo.frontend_attributes`` strings and custom calls, with ``mhlo.sharding`` strings beside.

Exit status: 0 done; 1 the input does not parse or holds what the format cannot carry (reported as
FILE:LINE:COL: error: ... on standard error); 2 usage errors or an unreadable file.
"""
from __future__ import annotations

import argparse

from shardy_py.interop.xla_command import add_arguments as _common_arguments
from shardy_py.interop.xla_command import run_conversion


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``export`` options to ``parser``."""
    _common_arguments(parser)
    parser.add_argument("--no-hlo-sharding", action="store_true",
                        help="leave out the mhlo.sharding strings (only the xla.sdy.* strings)")


def run(args: argparse.Namespace) -> int:
    """Convert and print; the exit code."""
    from shardy_py.interop.xla_format import export_module

    return run_conversion(args, "export", lambda m: export_module(m, hlo_shardings=not args.no_hlo_sharding))
