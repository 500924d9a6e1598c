"""The drawn module as data (``Val``, ``Op``) and its rendering to canonical MLIR text.

Ops keep their text with placeholders for the values they use; SSA names are given only once
the whole module is drawn (``number``), the way MLIR's printer numbers values, and ``render``
then writes the lines.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

import attrs

from shardy_py.ir.attrs import MeshAttr, TensorShardingAttr


@attrs.define(eq=False)
class Val:
    """A value of the module being built: its type, resolved sharding (Appendix R) and mesh.

    ``through`` is the input of the ``sdy.propagation_barrier`` that produced the value (C13
    looks through barriers), ``uses`` counts the ops using it, ``sdy_defined`` says it is the
    result of an sdy op other than a named or manual computation (C33) and ``data_flow_result``
    that it is the result of one of those two (an ``sdy.data_flow_edge`` on it then gives it the
    edge's sharding); ``flow_source`` is the value flowing into a body argument or result.
    """

    dims: tuple[int, ...]
    elem: str
    sharding: TensorShardingAttr | None = None
    mesh: MeshAttr | None = None
    name: str = ""
    through: Val | None = None
    uses: int = 0
    sdy_defined: bool = False
    data_flow_result: bool = False
    #: For a named/manual computation's body argument, the operand flowing into it; for its result,
    #: the value its body returns (the edge's data-flow source, which an ``sdy.data_flow_edge`` on
    #: the value names as ``operand-0`` in its propagation edges).
    flow_source: Val | None = None

    @property
    def type(self) -> str:
        """The MLIR tensor type."""
        return tensor_type(self.dims, self.elem)

    def source(self) -> Val:
        """The value itself, or the first value above its chain of propagation barriers."""
        v = self
        while v.through is not None:
            v = v.through
        return v


@attrs.define(eq=False)
class Op:
    """An op to render: ``text`` holds ``ref(i)`` placeholders for the names of ``uses[i]``."""

    results: list[Val]
    text: str
    uses: list[Val]
    region_args: list[Val] = attrs.field(factory=list)
    region_ops: list[Op] | None = None
    tail: str = ""  # text after the region's closing brace
    head: str = ""  # "%3 = " / "%3:2 = ", set by number()


def tensor_type(dims: Sequence[int], elem: str) -> str:
    """``tensor<8x4xf32>`` for dims ``(8, 4)`` and element type ``f32``."""
    return "tensor<" + "".join(f"{d}x" for d in dims) + elem + ">"


def ref(i: int) -> str:
    """Placeholder for the name of an op's ``i``-th used value (filled in by ``render``)."""
    return f"\x01{i}\x01"


def refs(n: int) -> str:
    """``ref(0), ref(1), ...`` for ``n`` used values."""
    return ", ".join(ref(i) for i in range(n))


def _fill(text: str, uses: Sequence[Val]) -> str:
    return re.sub("\x01(\\d+)\x01", lambda m: uses[int(m.group(1))].name, text)


def types_of(vals: Sequence[Val]) -> str:
    """The comma-separated types of ``vals``."""
    return ", ".join(v.type for v in vals)


def function_type(ins: Sequence[Val], outs: Sequence[Val]) -> str:
    """``(T1, T2) -> R``: a single result bare, several (or none) in parentheses."""
    res = outs[0].type if len(outs) == 1 else f"({types_of(outs)})"
    return f"({types_of(ins)}) -> {res}"


def attr_dict(entries: Sequence[str]) -> str:
    """`` {a = 1, b}`` for the given ``name = value`` entries (sorted, as MLIR prints them), or ``""``."""
    return " {" + ", ".join(sorted(entries)) + "}" if entries else ""


def number(args: list[Val], ops: list[Op], next_val: int, next_arg: int) -> None:
    """Name values the way MLIR's AsmPrinter does: a region's own values first, then nested
    regions continue from the counters left after the enclosing region."""
    for a in args:
        a.name = f"%arg{next_arg}"
        next_arg += 1
    for op in ops:
        if not op.results:
            continue
        if len(op.results) == 1:
            op.results[0].name = f"%{next_val}"
        else:  # one name for the group: %3:2, used as %3#0 and %3#1
            for i, r in enumerate(op.results):
                r.name = f"%{next_val}#{i}"
        op.head = f"%{next_val}" + (f":{len(op.results)}" if len(op.results) > 1 else "") + " = "
        next_val += 1
    for op in ops:
        if op.region_ops is not None:
            number(op.region_args, op.region_ops, next_val, next_arg)


def render(ops: list[Op], indent: str, out: list[str]) -> None:
    """Append the lines of ``ops`` (and their regions) to ``out``."""
    for op in ops:
        body = _fill(op.text, op.uses)
        if op.region_ops is None:
            out.append(f"{indent}{op.head}{body}")
            continue
        args = ", ".join(f"{a.name}: {a.type}" for a in op.region_args)
        out.append(f"{indent}{op.head}{body} ({args}) {{")
        render(op.region_ops, indent + "  ", out)
        out.append(f"{indent}}}{_fill(op.tail, op.uses)}")
