"""Replica groups written as mesh axes (``#stablehlo.replica_group_mesh_axes<mesh = ..., axes = [...]>``,
what ``sdy-convert-global-to-local{enable-rgv3=true}`` writes) as the device-id groups they stand for.

The mesh is a symbol (``@mesh``: an ``sdy.mesh`` of the module) or inline (``#stablehlo.mesh<axes=[<name =
"x", size = 2>, ...], device_ids=dense<...> : tensor<Nxi64>>``); each axis is ``#stablehlo.axis_ref<name =
"x">`` or a sub-axis ``#stablehlo.axis_ref<name = "x", sub_axis_info = (1)2>``.  A group varies the axes
(major to minor, in the order written) and fixes every other axis, as Shardy's ``getReplicaGroups``
builds the dense groups the attribute replaces.
"""
from __future__ import annotations

import functools
import re

from shardy_py.interpreter.evaluator import InterpretError
from shardy_py.ir.attrs import AxisRefAttr, MeshAttr, MeshAxisAttr, SubAxisInfoAttr

_STRING = r'"(?:[^"\\]|\\.)*"'
_MESH_REF = re.compile(rf"mesh\s*=\s*@([\w$.-]+|{_STRING})")
_INLINE_MESH = re.compile(r"mesh\s*=\s*#stablehlo\.mesh<\s*axes\s*=\s*\[(.*?)\]\s*(?:,\s*device_ids\s*=\s*dense<(.*?)>"
                          r"\s*:\s*tensor<[^>]*>\s*)?>", re.S)
_SDY_MESH = re.compile(r"mesh\s*=\s*(#sdy\.mesh<.*?>)\s*,\s*axes\s*=", re.S)
_MESH_AXIS = re.compile(rf"<\s*name\s*=\s*({_STRING})\s*,\s*size\s*=\s*(\d+)\s*>")
_AXES = re.compile(r"axes\s*=\s*\[([^\[\]]*(?:\[[^\]]*\][^\[\]]*)*)\]\s*>\s*$", re.S)
_AXIS_REF = re.compile(rf"#stablehlo\.axis_ref<\s*name\s*=\s*({_STRING})\s*(?:,\s*sub_axis_info\s*=\s*\(\s*(\d+)\s*\)"
                       r"\s*(\d+)\s*)?>")


def _unquote(text: str) -> str:
    return text[1:-1].encode().decode("unicode_escape")


def _ints(text: str) -> list[int]:
    return [int(v) for v in re.findall(r"-?\d+", text)]


def _mesh(text: str, module) -> MeshAttr:
    m = _MESH_REF.search(text)
    if m is not None:
        name = _unquote(m.group(1)) if m.group(1).startswith('"') else m.group(1)
        mesh = (getattr(module, "meshes", None) or {}).get(name)
        if mesh is None:
            raise InterpretError(f"replica groups name mesh @{name}, which the module does not define")
        return mesh
    m = _INLINE_MESH.search(text)
    if m is not None:
        axes = [MeshAxisAttr(_unquote(n), int(s)) for n, s in _MESH_AXIS.findall(m.group(1))]
        total = 1
        for a in axes:
            total *= a.size
        ids = _ints(m.group(2)) if m.group(2) else []
        if len(ids) == 1 and total > 1:  # a splat
            ids = ids * total
        return MeshAttr.get(axes, ids)
    m = _SDY_MESH.search(text)
    if m is not None:
        import shardy_py

        return shardy_py.parse_attribute(m.group(1))
    raise InterpretError(f"cannot read the mesh of replica groups {text}")


@functools.lru_cache(maxsize=256)
def _inline_groups(text: str) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(g) for g in _groups(text, None))


def _groups(text: str, module) -> list[list[int]]:
    from shardy_py.passes.export.export_utils import replica_group_array

    mesh = _mesh(text, module)
    m = _AXES.search(text)
    if m is None:
        raise InterpretError(f"cannot read the axes of replica groups {text}")
    axes = []
    for name, pre, size in _AXIS_REF.findall(m.group(1)):
        info = SubAxisInfoAttr(int(pre), int(size)) if pre else None
        axes.append(AxisRefAttr(_unquote(name), info))
    names = {a.name for a in mesh.axes}
    for a in axes:
        if a.name not in names:
            raise InterpretError(f"replica groups name axis \"{a.name}\", which their mesh does not have")
    return [[int(d) for d in row] for row in replica_group_array(axes, mesh)]


def mesh_axes_groups(text: str, module) -> list[list[int]]:
    """The device-id groups of a ``#stablehlo.replica_group_mesh_axes`` attribute's ``text``; a mesh named
    by symbol is looked up in ``module``."""
    if _MESH_REF.search(text) is not None:
        return _groups(text, module)
    return [list(g) for g in _inline_groups(text)]
