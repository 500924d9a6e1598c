"""``python -m shardy_py import FILE``: XLA's round-trip format (``xla.sdy.*`` strings, ``@Sharding``
custom calls, ``mhlo.sharding``) to plain sdy: ``sdy.mesh`` ops, ``sdy.sharding`` attributes,
``sdy.sharding_constraint`` and ``sdy.manual_computation`` ops.

For a module with only mhlo.sharding strings (torch_xla's xm.get_stablehlo) the mesh is inferred,
with axes axis_0, axis_1, ...; give yours instead: --mesh 'data=2,model=4' (torch_xla's
Mesh(device_ids, (2, 4), ("data", "model")); --device-ids when its devices are not 0..N-1 in
order), or name the inferred axes with --axis-names data,model; --mesh-name names the mesh.

Exit status: 0 done; 1 the input does not parse or holds a string that cannot be read (reported as
FILE:LINE:COL: error: ... on standard error); 2 usage errors or an unreadable file.
"""
from __future__ import annotations

import argparse

from shardy_py.interop.xla_command import add_arguments as _common_arguments
from shardy_py.interop.xla_command import run_conversion


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``import`` options to ``parser``."""
    _common_arguments(parser)
    parser.add_argument("--mesh", metavar="AXES",
                        help="the mesh to import mhlo.sharding strings onto: 'data=2,model=4' or "
                             "'#sdy.mesh<[\"data\"=2, \"model\"=4]>'")
    parser.add_argument("--device-ids", metavar="IDS", help="with --mesh: its devices in order, '0,2,1,3'")
    parser.add_argument("--axis-names", metavar="NAMES", help="names of the inferred mesh's axes, 'data,model'")
    parser.add_argument("--mesh-name", metavar="NAME", help="the mesh symbol's name (default: mesh)")


def user_mesh(spec: str, device_ids: str | None):
    """The ``MeshAttr`` of ``--mesh`` (and ``--device-ids``); ValueError saying what is wrong."""
    from shardy_py.errors import ParseError
    from shardy_py.ir.attrs import MeshAttr, MeshAxisAttr

    if spec.lstrip().startswith(("#", "<")):
        import shardy_py

        try:
            mesh = shardy_py.parse_attribute(spec if spec.lstrip().startswith("#") else f"#sdy.mesh{spec.strip()}")
        except ParseError as e:
            raise ValueError(f"--mesh: {e.message}") from None
        if not isinstance(mesh, MeshAttr):
            raise ValueError("--mesh: not a mesh")
    else:
        axes = []
        for item in spec.split(","):
            name, eq, size = item.strip().partition("=")
            if not eq or not name or not size.strip().isdigit():
                raise ValueError(f"--mesh: write each axis as NAME=SIZE ('data=2,model=4'), not {item.strip()!r}")
            axes.append(MeshAxisAttr(name.strip(), int(size)))
        mesh = MeshAttr(tuple(axes))
    if device_ids:
        try:
            ids = tuple(int(x) for x in device_ids.split(","))
        except ValueError:
            raise ValueError(f"--device-ids: a comma-separated list of integers, not {device_ids!r}") from None
        mesh = MeshAttr(mesh.axes, () if ids == tuple(range(len(ids))) else ids)
    return mesh


def run(args: argparse.Namespace) -> int:
    """Convert and print; the exit code."""
    import sys

    from shardy_py.interop.xla_format import import_module

    options = {}
    try:
        if args.mesh:
            if args.axis_names:
                raise ValueError("--axis-names names the axes of an inferred mesh; --mesh names its own")
            options["mesh"] = user_mesh(args.mesh, args.device_ids)
        elif args.device_ids:
            raise ValueError("--device-ids goes with --mesh")
    except ValueError as e:
        print(f"shardy-py import: {e}", file=sys.stderr)
        return 2
    if args.axis_names:
        options["axis_names"] = [n.strip() for n in args.axis_names.split(",")]
    if args.mesh_name:
        options["mesh_name"] = args.mesh_name
    return run_conversion(args, "import", lambda m: import_module(m, **options))
