"""Ops and names shared by the XLA round-trip import and export: custom-call targets, new ops
built from their text, fresh SSA and symbol names, and the attribute sites of a module."""
from __future__ import annotations

import re
from collections.abc import Iterator

from shardy_py.interop.shard_common import parse_op
from shardy_py.interop.xla_strings import AttrSite, SourceLocator
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Block, Operation, Value
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
_NAME_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|%[\w$.-]+')
_STEM = re.compile(r"%(.*?)(\d*)\Z")


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


def make_op(text: str, operands: list[Value], operand_names: list[str]) -> Operation:
    """The op written as ``text``, with its operands set to ``operands`` (named ``operand_names``).

    Ops other than functions are read inside a function body, where ``call`` and ``return``
    may be written without their ``func.`` prefix.
    """
    if text.startswith("func.func"):
        op = parse_op(text)
    else:
        holder = parse_op("func.func @holder() {\n" + text + "\n}")
        block = holder.regions[0].blocks[0]
        if len(block.ops) != 1:
            raise ValueError(f"expected one op in {text!r}")
        op = block.ops.pop()
        op.parent = None
    op.operands = list(operands)
    op.operand_names = list(operand_names)
    return op


def func_type(ins: list, outs: list) -> str:
    """``(A, B) -> C`` or ``(A) -> (B, C)`` as custom calls and calls write it."""
    res = str(outs[0]) if len(outs) == 1 else "(" + ", ".join(str(t) for t in outs) + ")"
    return "(" + ", ".join(str(t) for t in ins) + ") -> " + res


def result_head(names: list[str]) -> str:
    """``%a = `` / ``%a:3 = `` for an op with results under the single name ``names[0]``."""
    if not names:
        return ""
    return f"{names[0]}:{len(names)} = " if len(names) > 1 else f"{names[0]} = "


def uses(name: str, count: int) -> list[str]:
    """How the results of ``%name`` (``count`` of them) are written: ``%n`` or ``%n#0, %n#1``."""
    return [name] if count == 1 else [f"{name}#{i}" for i in range(count)]


class NameSpace:
    """The SSA names of a function; hands out new ones (``%arg3`` -> ``%arg4``, ``%7`` -> ``%8``)."""

    def __init__(self, func: Operation):
        self.used: set[str] = set()
        for op in func.walk():
            self.used.update(name for name, _ in op.result_groups)
            for region in op.regions:
                for block in region.blocks:
                    self.used.update(a.name.split("#", 1)[0] for a in block.arguments)

    def fresh(self, like: str = "%0") -> str:
        """A name not used yet, in the style of ``like`` (same stem, the next free number)."""
        m = _STEM.match(like)
        stem = m.group(1) if m else ""
        k = 0
        while f"%{stem}{k}" in self.used:
            k += 1
        name = f"%{stem}{k}"
        self.used.add(name)
        return name

    def keep_or_fresh(self, name: str) -> str:
        """``name`` itself when it is free, else a fresh name like it."""
        if name not in self.used:
            self.used.add(name)
            return name
        return self.fresh(name)


def rename_text(text: str, mapping: dict[str, str]) -> str:
    """``text`` with each SSA name (``%x``, also in ``%x#1``) renamed by ``mapping``; strings untouched."""
    def sub(m: re.Match) -> str:
        t = m.group()
        return t if t.startswith('"') else mapping.get(t, t)
    return _NAME_TOKEN.sub(sub, text)


def defined_names(root: Operation) -> list[str]:
    """Every SSA name defined under ``root`` (block arguments and result groups), in order."""
    out: list[str] = []
    for op in root.walk():
        for region in op.regions:
            for block in region.blocks:
                out.extend(a.name.split("#", 1)[0] for a in block.arguments)
        if op is not root:
            out.extend(name for name, _ in op.result_groups)
    return out


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
