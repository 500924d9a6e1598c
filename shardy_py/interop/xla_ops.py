"""Ops and names shared by the XLA round-trip import and export: custom-call targets, the ops
they build (custom calls, calls, functions), fresh symbol names, and the attribute sites of a module."""
from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from shardy_py.interop.xla_strings import AttrSite, SourceLocator
from shardy_py.ir import attrs as A
from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import add_argument
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Block, Operation, Region, Value
from shardy_py.ir.types import Type
from shardy_py.syntax import attr_printer as P
from shardy_py.syntax.sdy_parser import unquote

# Custom-call targets and frontend-attribute keys XLA uses (xla/service/spmd/shardy/constants.h).
SHARDING_TARGET = "Sharding"
FUNC_RESULT_TARGET = "xla.sdy.FuncResultSharding"
SHARDING_GROUP_TARGET = "xla.sdy.ShardingGroup"
BARRIER_TARGET = "xla.sdy.PropagationBarrier"
GLOBAL_TO_LOCAL_TARGET = "xla.sdy.GlobalToLocalShape"
LOCAL_TO_GLOBAL_TARGET = "xla.sdy.LocalToGlobalShape"
FULL_TO_SHARD_TARGET = "SPMDFullToShardShape"
SHARD_TO_FULL_TARGET = "SPMDShardToFullShape"
PYTHON_CALLBACK_TARGETS = ("xla_python_cpu_callback", "xla_ffi_python_cpu_callback",
                           "xla_python_gpu_callback", "xla_ffi_python_gpu_callback")
MANUAL_BODY_NAME = "xla.sdy.manual_computation_body"

SHARDING_KEY = "xla.sdy.sharding"
SHARDING_RULE_KEY = "xla.sdy.sharding_rule"
MESHES_KEY = "xla.sdy.meshes"
IN_SHARDINGS_KEY = "xla.sdy.in_shardings"
OUT_SHARDINGS_KEY = "xla.sdy.out_shardings"
MANUAL_AXES_KEY = "xla.sdy.manual_axes"
GROUP_ID_KEY = "xla.sdy.sharding_group_id"
DIRECTION_KEY = "xla.sdy.allowed_direction"
TUPLE_ARGS_KEY = "xla.sdy.tuple_args_shardings"
TUPLE_RESULTS_KEY = "xla.sdy.tuple_results_shardings"
INLINEABLE_KEY = "inlineable"

_TARGET = re.compile(r'\s*@("(?:[^"\\]|\\.)*"|[A-Za-z_][\w$.-]*)')


def callee(op: Operation) -> str | None:
    """The symbol a ``stablehlo.custom_call`` targets or a ``func.call`` calls (None otherwise)."""
    if op.name not in ("stablehlo.custom_call", "func.call"):
        return None
    if op.generic_form:
        attr = op.attributes.get("call_target_name") or op.attributes.get("callee")
        text = str(attr) if attr is not None else ""
        return unquote(text) if text.startswith('"') else text.lstrip("@") or None
    declared = op.properties.get("call_target_name") or op.properties.get("callee")
    if declared is not None:  # an op the dialect registry parses: the target is a property
        text = str(getattr(declared, "text", declared))
        return unquote(text) if text.startswith('"') else text.lstrip("@") or None
    first = op._pieces[0] if op._pieces and isinstance(op._pieces[0], str) else ""
    m = _TARGET.match(first)
    if not m:
        return None
    return unquote(m.group(1)) if m.group(1).startswith('"') else m.group(1)


def custom_call(b: Builder, target: str, operands: Sequence[Value], result_types: Sequence[Type], *,
                side_effect: bool = False, frontend: dict[str, str] | None = None,
                attributes: dict | None = None) -> Operation:
    """A ``stablehlo.custom_call @target`` made by ``b``; ``frontend`` holds the entries of its
    ``mhlo.frontend_attributes`` (values already written as string literals)."""
    from shardy_py.interop.xla_strings import FRONTEND_ATTRS, render_dict

    properties = {"call_target_name": A.OpaqueAttr(P.quote_string(target))}
    if side_effect:
        properties["has_side_effect"] = A.OpaqueAttr("true")
    attrs_ = dict(attributes or {})
    if frontend:
        attrs_[FRONTEND_ATTRS] = A.OpaqueAttr(render_dict(frontend))
    return b.create("stablehlo.custom_call", operands, result_types=result_types, properties=properties,
                    attributes=attrs_)


def func_call(b: Builder, symbol: str, operands: Sequence[Value], result_types: Sequence[Type],
              attributes: dict | None = None) -> Operation:
    """A ``func.call @symbol`` made by ``b``."""
    return b.create("func.call", operands, result_types=result_types,
                    properties={"callee": A.OpaqueAttr(P.symbol_ref(symbol))}, attributes=attributes)


def new_func(name: str, arg_types: Sequence[Type], result_types: Sequence[Type], visibility: str | None = None
             ) -> Operation:
    """A detached ``func.func @name`` with an empty entry block (arguments of ``arg_types``)."""
    props: dict = {"sym_name": name, "arg_types": list(arg_types), "arg_attrs": [{} for _ in arg_types],
                   "result_types": list(result_types), "res_attrs": [{} for _ in result_types],
                   "res_locs": [None] * len(result_types), "arg_locs": [None] * len(arg_types)}
    if visibility:
        props["sym_visibility"] = visibility
    func = Operation("func.func", properties=props)
    region = Region(parent=func)
    block = Block(parent=region)
    region.blocks.append(block)
    func.regions.append(region)
    for t in arg_types:
        add_argument(block, t)
    return func


def take_block(src: Region, dst: Region) -> Block:
    """Move the (single) block of region ``src`` into the empty region ``dst``: its arguments and
    ops keep their identity and uses (MLIR's ``Region::takeBody``)."""
    block = src.blocks.pop(0)
    dst.blocks[:] = [block]
    block.parent = dst
    return block


def fresh_symbol(module: Module, base: str) -> str:
    """``base``, else ``base_0``, ``base_1``, ...: the first name no top-level symbol has."""
    taken = {op.properties.get("sym_name") for op in module.ops}
    if base not in taken:
        return base
    k = 0
    while f"{base}_{k}" in taken:
        k += 1
    return f"{base}_{k}"


def top_func(op: Operation) -> Operation | None:
    """The top-level op (a function) that holds ``op``."""
    cur = op
    while cur.parent_op is not None and cur.parent_op.name != "builtin.module":
        cur = cur.parent_op
    return cur if cur.parent_op is not None else None


def terminator(func: Operation) -> Operation | None:
    """The ``func.return`` ending a function body (None for a declaration)."""
    if not func.regions or not func.regions[0].blocks or not func.regions[0].blocks[0].ops:
        return None
    last = func.regions[0].blocks[0].ops[-1]
    return last if last.name == "func.return" else None


def body_block(func: Operation) -> Block | None:
    """The entry block of a function body."""
    return func.regions[0].blocks[0] if func.regions and func.regions[0].blocks else None


class Sites:
    """The attribute sites of one module: located frontend attributes of its parts."""

    def __init__(self, module: Module):
        self.module = module
        self.locator = SourceLocator(module)

    def module_site(self) -> AttrSite:
        op = self.module.op
        return AttrSite(self.locator, op.attributes, op.attribute_locs.get("mhlo.frontend_attributes"), "module")

    def arg(self, func: Operation, i: int, key: str = "mhlo.frontend_attributes") -> AttrSite:
        name = func.properties["sym_name"]
        return AttrSite(self.locator, func.properties["arg_attrs"][i], func.attribute_locs.get(f"arg{i}.{key}"),
                        f"argument {i} of @{name}", key)

    def result(self, func: Operation, i: int, key: str = "mhlo.frontend_attributes") -> AttrSite:
        name = func.properties["sym_name"]
        return AttrSite(self.locator, func.properties["res_attrs"][i], func.attribute_locs.get(f"res{i}.{key}"),
                        f"result {i} of @{name}", key)

    def op(self, op: Operation, key: str = "mhlo.frontend_attributes") -> AttrSite:
        target = callee(op)
        what = f"'{op.name}'" + (f" @{target}" if target else "")
        loc = op.attribute_locs.get(key) or op.loc
        # Ops the dialect registry parses keep declared attributes (backend_config) as properties.
        holder = op.properties if key not in op.attributes and key in op.properties else op.attributes
        return AttrSite(self.locator, holder, loc, what, key)

    def funcs(self) -> Iterator[Operation]:
        return (op for op in self.module.ops if op.name == "func.func")
