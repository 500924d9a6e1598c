"""Checks of StableHLO's mesh-based replica group attributes (``StablehloAttrs.td``): ``#stablehlo.axis_ref``,
``#stablehlo.mesh_axis``, ``#stablehlo.mesh`` and ``#stablehlo.replica_group_mesh_axes``, read as their
ODS-generated parsers read them (``struct(params)``: each parameter once, in any order, comma-separated)
and checked as ``ReplicaGroupMeshAxesAttr::verify`` checks them.

These attributes are kept as written (``OpaqueAttr``); ``check_mesh_attr`` only raises the error MLIR
gives for a malformed one, at MLIR's place.
"""
from __future__ import annotations

import re
from collections.abc import Callable

MESH_MNEMONICS = frozenset({"axis_ref", "mesh_axis", "mesh", "replica_group_mesh_axes"})
_NAME = re.compile(r'\bname\s*=\s*"((?:[^"\\]|\\.)*)"')


def _string(reader, pos: int, end: int):
    at = reader.skip(pos)
    if not reader.text.startswith('"', at):
        raise reader.error("expected string", at)
    return reader.string(at, end)


def _int64(reader, pos: int, end: int):
    at = reader.skip(pos)
    if at >= end or not (reader.text[at].isdigit() or reader.text[at] == "-"):
        raise reader.error("expected integer value", at)
    return reader.int64(at, end)


def _attribute(reader, pos: int, end: int):
    return reader.attribute(reader.skip(pos), end)


def _is_dialect_attr(attr, mnemonic: str) -> bool:
    return type(attr).__name__ == "OpaqueAttr" and attr.text.startswith(f"#stablehlo.{mnemonic}<")


def _struct(reader, lt: int, end: int, params: dict[str, Callable], optional: frozenset = frozenset()) -> dict:
    """``<name = value, ...>`` with ``<`` at ``lt`` (the ``struct(params)`` directive): {name: value}."""
    pos = reader.expect(lt, end, "<", "")
    values: dict = {}

    def entry(pos: int) -> int:
        key, pos = reader.keyword(pos, end)
        pos = reader.skip(pos)
        if not reader.text.startswith("=", pos):
            raise reader.error("expected '='", pos)
        at = reader.skip(pos + 1)
        if key not in params or key in values:
            raise reader.error(f"duplicate or unknown struct parameter name: {key}", at)
        values[key], pos = params[key](reader, at, end)
        return pos

    def key_at(pos: int) -> int:
        at = reader.skip(pos)
        if not (at < end and (reader.text[at].isalpha() or reader.text[at] == "_")):
            raise reader.error("expected valid keyword", at)
        return at

    if optional:
        pos = entry(key_at(pos))
        while (p := reader.optional(pos, end, ",")) is not None:
            pos = entry(key_at(p))
    else:
        for i in range(len(params)):
            pos = entry(key_at(pos))
            if i + 1 < len(params):
                pos = _token(reader, pos, end, ",")
    pos = _token(reader, pos, end, ">")
    missing = [name for name in params if name not in values and name not in optional]
    if missing:
        raise reader.error(f"struct is missing required parameter: {missing[0]}", reader.skip(pos - 1))
    return values


def _token(reader, pos: int, end: int, literal: str) -> int:
    """Position after ``literal``; MLIR's "expected '...'" otherwise (at the end of the previous token
    when the next one is on a later line)."""
    at = reader.skip(pos)
    if reader.text.startswith(literal, at) and at < end:
        return at + len(literal)
    where = pos if "\n" in reader.text[pos:at] else at
    raise reader.error(f"expected '{literal}'", where)


def _mesh_axes_list(reader, pos: int, end: int):
    """``[<name = "x", size = 2>, #stablehlo.mesh_axis<...>]`` (``parseCustomAttributeWithFallback``)."""
    pos = _token(reader, pos, end, "[")
    while True:
        at = reader.skip(pos)
        if reader.text.startswith("#", at):
            attr, pos = _attribute(reader, at, end)
            if not _is_dialect_attr(attr, "mesh_axis"):
                raise reader.error("invalid kind of attribute specified", at)
        else:
            _token(reader, at, end, "<")
            _struct(reader, at, end, _MESH_AXIS)
            pos = reader.balanced_end(at, end)
        if (p := reader.optional(pos, end, ",")) is None:
            return _token(reader, pos, end, "]")
        pos = p


def _mesh(reader, lt: int, end: int) -> None:
    """``<axes = [...] (, device_ids = dense<...>)?>``."""
    pos = _token(reader, lt, end, "<")
    pos = _token(reader, pos, end, "axes")
    pos = _token(reader, pos, end, "=")
    pos = _mesh_axes_list(reader, pos, end)
    if (p := reader.optional(pos, end, ",")) is not None:
        pos = _token(reader, p, end, "device_ids")
        pos = _token(reader, pos, end, "=")
        _, pos = _attribute(reader, pos, end)
    _token(reader, pos, end, ">")


def _array(reader, pos: int, end: int):
    attr, after = _attribute(reader, pos, end)
    if type(attr).__name__ != "ArrayAttr":
        raise reader.error("invalid kind of attribute specified", reader.skip(pos))
    return attr, after


def _sub_axis_info(reader, pos: int, end: int):
    """``#stablehlo.sub_axis_info...`` or the bare ``(pre_size)size``."""
    at = reader.skip(pos)
    if reader.text.startswith("#", at):
        return _attribute(reader, at, end)
    pos = _token(reader, at, end, "(")
    _, pos = _int64(reader, pos, end)
    pos = _token(reader, pos, end, ")")
    return _int64(reader, pos, end)


_AXIS_REF = {"name": _string, "sub_axis_info": _sub_axis_info}
_MESH_AXIS = {"name": _string, "size": _int64}
_REPLICA_GROUP_MESH_AXES = {"mesh": _attribute, "axes": _array}


def check_mesh_attr(reader, mnemonic: str, lt: int, stop: int) -> None:
    """Raise MLIR's error for a malformed ``#stablehlo.<mnemonic><...>`` whose ``<`` is at ``lt``."""
    if mnemonic == "axis_ref":
        _struct(reader, lt, stop, _AXIS_REF, optional=frozenset({"sub_axis_info"}))
    elif mnemonic == "mesh_axis":
        _struct(reader, lt, stop, _MESH_AXIS)
    elif mnemonic == "mesh":
        _mesh(reader, lt, stop)
    else:
        start = reader.skip(lt)
        values = _struct(reader, lt, stop, _REPLICA_GROUP_MESH_AXES)
        _verify_replica_group_mesh_axes(reader, values, start)


def _verify_replica_group_mesh_axes(reader, values: dict, at: int) -> None:
    """``ReplicaGroupMeshAxesAttr::verify``."""
    mesh, axes = values["mesh"], values["axes"]
    flat = type(mesh).__name__ == "SymbolRefAttr" and not mesh.nested
    if not flat and not _is_dialect_attr(mesh, "mesh"):
        raise reader.error("mesh must be a FlatSymbolRefAttr or MeshAttr", at)
    if flat:
        return
    names = set(_NAME.findall(mesh.text))
    for axis in axes:
        if not _is_dialect_attr(axis, "axis_ref"):
            raise reader.error("expected AxisRefAttr in axes list", at)
        name = _NAME.search(axis.text)
        if name and name.group(1) not in names:
            raise reader.error(f"axis '{name.group(1)}' not found in mesh definition", at)
