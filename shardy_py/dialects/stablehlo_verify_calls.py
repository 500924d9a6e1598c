"""Verifiers of StableHLO's call-like ops: ``CustomCallOp::verify`` (layouts, output-operand
aliases, backend config, the buffer custom calls of ``verifyKnownCustomCalls``) and
``verifyCompositeOp`` (its name and its decomposition function's signature)."""
from __future__ import annotations

import re

from shardy_py.dialects.stablehlo_verify_common import element, op_fail, prop, typed_prop
from shardy_py.dialects.stablehlo_verify_types import (
    clean_when_seen_with_regions,
    compatible_shape,
    dense_ints,
    known,
    nearest_symbol,
    q,
)
from shardy_py.ir.diagnostics import Failure, fail
from shardy_py.ir.types import MemRefType, RankedTensorType, TupleType, Type, UnrankedTensorType
from shardy_py.ir.typeutil import split_top_level, tuple_elements

_API_VERSIONS = {0: "API_VERSION_UNSPECIFIED", 1: "API_VERSION_ORIGINAL", 2: "API_VERSION_STATUS_RETURNING",
                 3: "API_VERSION_STATUS_RETURNING_UNIFIED", 4: "API_VERSION_TYPED_FFI"}


def _is_tensor(t: Type) -> bool:
    return isinstance(t, (RankedTensorType, UnrankedTensorType))


def _element_of(t: Type) -> str:
    """The element type of a tensor or memref (``getElementTypeOrSelf``), as text."""
    return t.element_type if isinstance(t, MemRefType) else element(t).text


def _is_tuple(t: Type) -> bool:
    return isinstance(t, TupleType) or t.text.startswith("tuple<")


def _layouts(op, name: str) -> list[str] | None:
    """The elements attributes of a layouts array property (texts), None when absent."""
    a = prop(op, name)
    if a is None:
        return None
    text = str(a).strip()
    return split_top_level(text[1:-1]) if text.startswith("[") and text.endswith("]") else None


def _verify_layouts(op, types, layouts: list[str], what: str) -> Failure | None:
    if len(types) != len(layouts):
        return op_fail(op, f"Number of {what}s must match the number of {what} layouts, {len(types)} != "
                           f"{len(layouts)}")
    for i, (t, layout) in enumerate(zip(types, layouts, strict=True)):
        if _is_tuple(t):
            return op_fail(op, "Tuple types are not fully supported with layout constraints yet")
        dense = dense_ints(layout)
        values = dense[1] if dense is not None else ()
        if not t.is_shaped:
            if not values:
                continue
            return op_fail(op, f"Only tensor types can have non-empty layout: {what} #{i} of type {q(t)} has "
                               f"layout {layout}")
        shape_ = getattr(t, "shape", None)
        if shape_ is None:
            continue
        if sorted(values) != list(range(len(shape_))):
            return op_fail(op, f"incorrect layout {layout} for type {q(t)}, layout must be a permutation of "
                               f"[0, {len(shape_)})")
    return None


def _same_shape(a: Type, b: Type) -> bool:
    """``verifyCompatibleShape`` between a tensor and a memref."""
    sa, sb = getattr(a, "shape", None), getattr(b, "shape", None)
    if sa is None or sb is None:
        return compatible_shape(a, b)
    return len(sa) == len(sb) and all(x < 0 or y < 0 or x == y for x, y in zip(sa, sb, strict=True))


def _part(t: Type, indices) -> Type | None:
    """The element of nested tuple ``t`` at ``indices`` (None when out of bounds)."""
    for i in indices:
        elems = tuple_elements(t)
        if elems is None or not 0 <= i < len(elems):
            return None
        t = elems[i]
    return t


def _tuple_of(types) -> Type:
    from shardy_py.ir.types import parse_type

    return parse_type("tuple<" + ", ".join(str(t) for t in types) + ">")


def _verify_aliases(op, ins, outs) -> Failure | None:
    aliases = typed_prop(op, "output_operand_aliases")
    for alias in aliases or ():
        index = getattr(alias, "operand_index", None)
        if index is None:
            continue
        if not 0 <= index < len(ins):
            return op_fail(op, "expects operandIndex in the output_operand_alias attribute to be in range "
                               f"[0, {len(ins)}); got: {index}.")
        operand_part = _part(ins[index], alias.operand_tuple_indices)
        if operand_part is None:
            return op_fail(op, "operand_tuple_indices in the output_operand_alias attribute out of bounds")
        output = _tuple_of(outs) if len(outs) > 1 else outs[0] if outs else _tuple_of([])
        output_part = _part(output, alias.output_tuple_indices)
        if output_part is None:
            return op_fail(op, "output_tuple_indices in the output_operand_alias attribute out of bounds")
        if operand_part.text != output_part.text:
            return op_fail(op, f"shapes mismatch in the output_operand_alias attribute: operand part has type "
                               f"{q(operand_part)} and output part has type {q(output_part)}")
    return None


def _verify_buffer_calls(op, ins, outs) -> Failure | None:
    """``verifyKnownCustomCalls`` for the ``CreateBuffer``, ``Pin`` and ``Unpin`` targets."""
    target = str(prop(op, "call_target_name") or "").strip('"')
    if target == "CreateBuffer":
        if ins:
            return op_fail(op, "CreateBuffer custom_call shouldn't have any inputs")
        if len(outs) != 1:
            return op_fail(op, "CreateBuffer custom_call should have one result")
        if not isinstance(outs[0], MemRefType):
            return op_fail(op, "CreateBuffer custom_call should have a memref result")
        return None
    for name, src_ok, src, dst_ok, dst in (("Pin", _is_tensor, "tensor input", lambda t: isinstance(t, MemRefType),
                                            "memref output"),
                                           ("Unpin", lambda t: isinstance(t, MemRefType), "memref input", _is_tensor,
                                            "tensor output")):
        if target != name:
            continue
        if len(ins) != 1:
            return op_fail(op, f"{name} custom_call should have one input")
        if not src_ok(ins[0]):
            return op_fail(op, f"{name} custom_call should have a {src}")
        if len(outs) != 1:
            return op_fail(op, f"{name} custom_call should have one output")
        if not dst_ok(outs[0]):
            return op_fail(op, f"{name} custom_call should have a {dst}")
        if not _same_shape(ins[0], outs[0]) or _element_of(ins[0]) != _element_of(outs[0]):
            return op_fail(op, f"{name} custom_call should have compatible input and output types")
        return None
    return _verify_buffer_aliases(op, ins, outs)


def _indices(xs) -> str:
    return "[" + ", ".join(map(str, xs)) + "]"


def _leaves(t: Type, at: tuple[int, ...] = ()):
    """``mapOverLeafTypes``: the non-tuple parts of ``t`` with their tuple indices."""
    elems = tuple_elements(t)
    if elems is None:
        yield at, t
        return
    for i, e in enumerate(elems):
        yield from _leaves(e, (*at, i))


def _verify_buffer_aliases(op, ins, outs) -> Failure | None:
    """A memref operand part is aliased at most once, each memref output part exactly once."""
    operand_parts, output_parts = set(), set()
    for alias in typed_prop(op, "output_operand_aliases") or ():
        part = _part(ins[alias.operand_index], alias.operand_tuple_indices)
        if not isinstance(part, MemRefType):
            continue
        out_key = tuple(alias.output_tuple_indices)
        if out_key in output_parts:
            return op_fail(op, f"buffer output {_indices(out_key)} is used in output_operand_alias more than once")
        output_parts.add(out_key)
        in_key = (alias.operand_index, tuple(alias.operand_tuple_indices))
        if in_key in operand_parts:
            return op_fail(op, f"buffer operand {alias.operand_index}{_indices(in_key[1])} is used in "
                               "output_operand_alias more than once")
        operand_parts.add(in_key)
    result = outs[0] if len(outs) == 1 else _tuple_of(outs)
    for at, leaf in _leaves(result):
        if isinstance(leaf, MemRefType) and at not in output_parts:
            return op_fail(op, f"buffer output {_indices(at)} is not used in output_operand_alias")
    return None


@clean_when_seen_with_regions
def verify_custom_call(op, ctx) -> Failure | None:
    """``CustomCallOp::verify``."""
    if not known(op):
        return None
    ins = [v.type for v in op.operands]
    outs = [r.type for r in op.results]
    version_attr = prop(op, "api_version")
    m = re.match(r"\s*(-?\d+)", str(version_attr)) if version_attr is not None else None
    version = int(m.group(1)) if m else 1
    if version not in range(5):
        return op_fail(op, "attribute 'api_version' failed to satisfy constraint: Custom call API version")
    operand_layouts, result_layouts = _layouts(op, "operand_layouts"), _layouts(op, "result_layouts")
    if (prop(op, "operand_layouts") is None) != (prop(op, "result_layouts") is None):
        return op_fail(op, "Layout attributes should be specified for either both operands and results or none.")
    if operand_layouts is not None and result_layouts is not None:
        result_types = tuple_elements(outs[0]) if len(outs) == 1 and _is_tuple(outs[0]) else outs
        f = _verify_layouts(op, ins, operand_layouts, "operand") or \
            _verify_layouts(op, result_types, result_layouts, "result")
        if f is not None:
            return f
    f = _verify_aliases(op, ins, outs)
    if f is not None:
        return f
    config = prop(op, "backend_config")
    if config is not None:
        text = str(config).strip()
        if version == 4 and not text.startswith("{"):
            return op_fail(op, f"backend_config for api_version {_API_VERSIONS[4]} must be a dictionary attribute.")
        if version != 4 and not text.startswith('"'):
            return op_fail(op, f"backend_config for api_version {_API_VERSIONS[version]} must be a string attribute.")
    return _verify_buffer_calls(op, ins, outs)


_COMPOSITE_NAME = re.compile(r"[a-zA-Z][a-zA-Z0-9_]*([.][a-zA-Z0-9_$]+)+")


def verify_composite(op, ctx) -> Failure | None:
    """``verifyCompositeOp`` (``CompositeOp::verifySymbolUses``)."""
    name = str(prop(op, "name") or "")
    if name.startswith('"'):
        name = name[1:-1]
    if not _COMPOSITE_NAME.fullmatch(name):
        return fail("name must be a valid namespaced op name, i.e. it must match the following regular expression: "
                    '^[a-zA-Z][a-zA-Z0-9_]*([.][a-zA-Z0-9_$]+)+$ e.g. "my_namespace.my_op"')
    decomposition = str(prop(op, "decomposition") or "").lstrip("@").strip('"')
    func = nearest_symbol(op, decomposition)
    if func is None or func.name != "func.func":
        return fail(f"'{decomposition}' does not reference a valid function")
    if not known(op):
        return None
    for what, types, theirs in (("operand", [v.type for v in op.operands], func.properties_view.get("arg_types")),
                                ("result", [r.type for r in op.results], func.properties_view.get("result_types"))):
        theirs = list(theirs or [])
        if len(types) != len(theirs):
            return fail(f"has {len(types)} {what}(s), but decomposition has {len(theirs)}")
        for i, (a, b) in enumerate(zip(types, theirs, strict=True)):
            if a.text != b.text:
                return fail(f"{what} at index {i} has type {q(a)}, but decomposition has type {q(b)}")
    return None
