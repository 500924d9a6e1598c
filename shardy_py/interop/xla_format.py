"""XLA's round-trip format: Shardy IR written as strings, to and from plain sdy.

When JAX hands a module to XLA, and in what ``lowered.as_text(dialect="hlo")`` and XLA's
dumps show, Shardy IR travels as strings XLA's HLO keeps: ``mhlo.frontend_attributes``
entries (``xla.sdy.meshes``, ``xla.sdy.sharding``, ``xla.sdy.sharding_rule``, ...), custom
calls (``@Sharding``, ``@xla.sdy.FuncResultSharding``, ``@xla.sdy.GlobalToLocalShape``, ...),
and ``mhlo.sharding`` HloSharding strings beside them.

>>> import shardy_py
>>> from shardy_py.interop.xla_format import export_module, import_module
>>> m = shardy_py.parse('''
... sdy.mesh @mesh = <["x"=2]>
... func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
...   return %arg0 : tensor<8xf32>
... }''')
>>> print(str(export_module(m)).splitlines()[1])  # doctest: +NORMALIZE_WHITESPACE
  func.func @main(%arg0: tensor<8xf32> {mhlo.frontend_attributes = {xla.sdy.sharding =
  "#sdy.sharding<@mesh, [{\\22x\\22}]>"}, mhlo.sharding = "{devices=[2]<=[2]}"}) -> tensor<8xf32> {
>>> str(import_module(export_module(m))) == str(m)
True

A module with no ``xla.sdy`` strings but ``mhlo.sharding`` ones (GSPMD's form) imports through
``shardy_py.hlo.import_shardings``: one mesh inferred for the whole module, as XLA's
StableHLO import does (``xla_hlo_import``).
"""
from __future__ import annotations

from collections.abc import Sequence

from shardy_py.interop.xla_strings import XlaFormatError
from shardy_py.ir.module import Module

__all__ = ["XlaFormatError", "export_module", "import_module", "is_round_trip_module"]


def import_module(module: Module, *, mesh=None, mesh_name: str | None = None,
                  axis_names: Sequence[str] | None = None) -> Module:
    """Plain sdy for a module in XLA's round-trip format (or with only ``mhlo.sharding`` strings).

    ``module`` is left as it is; the result is a new module.  Raises ``XlaFormatError``
    (a ``ParseError``: ``line``, ``column``, ``message``) on strings that cannot be read.
    For ``mhlo.sharding`` strings (torch_xla's form) ``mesh`` (a ``MeshAttr`` or its text,
    ``'#sdy.mesh<["data"=2, "model"=4]>'``) is the mesh to put them on, ``axis_names`` names the
    axes of the inferred mesh instead, and ``mesh_name`` is the mesh's symbol (default ``mesh``);
    a module in the round-trip format names its meshes itself, so they are an ``XlaFormatError`` there.
    """
    from shardy_py.interop.shard_common import finished, working_copy
    from shardy_py.interop.xla_hlo_import import has_hlo_shardings, import_hlo_shardings
    from shardy_py.interop.xla_import import RoundTripImporter

    m = working_copy(module)
    if isinstance(mesh, str):
        from shardy_py.syntax.sdy_parser import parse_sdy_attribute

        mesh = parse_sdy_attribute(mesh if mesh.startswith("#") else f"#sdy.mesh{mesh}")
    if is_round_trip_module(m):
        if mesh is not None or mesh_name is not None or axis_names is not None:
            raise XlaFormatError("this module is in XLA's round-trip format: it names its meshes and axes itself "
                                 "(a mesh, mesh name or axis names apply to mhlo.sharding strings only)", 1, 1)
        RoundTripImporter(m).run()
    elif has_hlo_shardings(m):
        import_hlo_shardings(m, mesh=mesh, mesh_name=mesh_name, axis_names=axis_names)
    return finished(m)


def export_module(module: Module, *, hlo_shardings: bool = True) -> Module:
    """``module`` (plain sdy) in XLA's round-trip format; a new module.

    ``hlo_shardings=False`` leaves out the ``mhlo.sharding`` strings (which GSPMD reads and
    the import ignores).  Raises ``XlaFormatError`` for what the format cannot hold.
    """
    from shardy_py.interop.shard_common import finished, working_copy
    from shardy_py.interop.xla_export import Exporter

    m = working_copy(module)
    Exporter(m, hlo_shardings=hlo_shardings).run()
    return finished(m)


def is_round_trip_module(module: Module) -> bool:
    """True when ``module`` holds Shardy IR as XLA's strings (``xla.sdy.*`` attributes or custom calls)."""
    from shardy_py.interop.xla_ops import MANUAL_BODY_NAME, callee
    from shardy_py.interop.xla_strings import FRONTEND_ATTRS

    def mentions(attributes: dict) -> bool:
        attr = attributes.get(FRONTEND_ATTRS)
        return attr is not None and "xla.sdy." in str(attr)

    if mentions(module.op.attributes):
        return True
    for op in module.walk():
        if op.name == "func.func" and any(mentions(a) for a in op.properties.get("arg_attrs", ())):
            return True
        if mentions(op.attributes):
            return True
        target = callee(op)
        if target is not None and (target.startswith("xla.sdy.") or MANUAL_BODY_NAME in target):
            return True
    return False
