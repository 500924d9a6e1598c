"""MLIR's ``shard`` dialect (``mlir/Dialect/Shard/IR/ShardOps.td``) and its older ``mesh`` spelling
(``mlir/Dialect/Mesh/IR/MeshOps.td``, before LLVM 21): the ops that carry shardings.

```
shard.grid @grid0(shape = 2x?x4)
%sharding = shard.sharding @grid0 split_axes = [[0], [], [1, 2]] halo_sizes = [1, %c2] : !shard.sharding
%sharding_annotated = shard.shard %arg0 to %sharding annotate_for_users : tensor<4x8xf32>
mesh.mesh @mesh0(shape = 2x4)
%sharding = mesh.sharding @mesh0 split_axes = [[0]] partial = max [1] : !mesh.sharding
```

Properties are kept as the C++ ops store them: ``sym_name`` a string, ``shape`` an
``array<i64: ...>`` (a dynamic size is ``ShapedType::kDynamic``), the grid a symbol reference,
``split_axes`` a ``#shard.axisarray<[[...], ...]>``, ``annotate_for_users`` a unit attribute; the
``mesh`` spelling also has ``partial_type`` (``#mesh.partial<max>``) and ``partial_axes``
(``array<i16: ...>``).  ``grid_shape``, collectives and the other shard ops are not declared (they
stay as written).  Results are named as the ops' ``getAsmResultNames`` name them: ``%sharding``
and ``%sharding_annotated``.
"""
from __future__ import annotations

import re

from shardy_py.dialects.registry import AttrDef, declare
from shardy_py.ir.attrs import OpaqueAttr
from shardy_py.syntax.format import directive
from shardy_py.syntax.names import RESULT_NAMERS

#: ``ShapedType::kDynamic``: a ``?`` size or a dynamic index.
DYNAMIC = -(2 ** 63)
#: Reduction kinds of ``partial = KIND [...]`` (the mesh dialect's ReductionKind enum).
REDUCTIONS = ("sum", "max", "min", "product", "average", "bitwise_and", "bitwise_or", "bitwise_xor", "generic")

_SIZE = re.compile(r"\?|\d+")
_INT = re.compile(r"-?\d+")
_VALUE = re.compile(r"%[\w$.-]+(?:#\d+)?")
_WORD = re.compile(r"[A-Za-z_][\w$.]*")


# ---- property values ------------------------------------------------------------------------------

def int_array(values, width: int = 64) -> OpaqueAttr:
    """``array<i64: 2, 4>`` (a DenseI64ArrayAttr; ``width`` 16 for grid axes)."""
    items = ", ".join(str(v) for v in values)
    return OpaqueAttr(f"array<i{width}: {items}>" if items else f"array<i{width}>")


def read_int_array(attr) -> tuple[int, ...]:
    """The integers of ``array<iN: ...>`` (empty for None)."""
    if attr is None:
        return ()
    text = getattr(attr, "text", str(attr))
    body = text.split(":", 1)[1].rstrip(">") if ":" in text else ""
    return tuple(int(x) for x in body.split(",") if x.strip())


def axis_array(dialect: str, split_axes) -> OpaqueAttr:
    """``#shard.axisarray<[[0], [], [1, 2]]>`` for ``split_axes`` (a sequence of axis tuples)."""
    return OpaqueAttr(f"#{dialect}.axisarray<{split_axes_text(split_axes)}>")


def split_axes_text(split_axes) -> str:
    """``[[0], [], [1, 2]]``."""
    return "[" + ", ".join("[" + ", ".join(map(str, d)) + "]" for d in split_axes) + "]"


def read_axis_array(attr) -> tuple[tuple[int, ...], ...]:
    """The split axes of an ``axisarray`` property."""
    text = getattr(attr, "text", str(attr))
    inner = text[text.index("<") + 1:text.rindex(">")] if "<" in text else text
    return tuple(tuple(int(x) for x in re.findall(r"-?\d+", d)) for d in re.findall(r"\[([^\[\]]*)\]", inner))


def symbol_of(attr) -> str:
    """The name in a symbol reference property (``@g`` or ``@"g h"``)."""
    from shardy_py.syntax.sdy_parser import unquote

    body = getattr(attr, "text", str(attr)).lstrip("@")
    return unquote(body) if body.startswith('"') else body


def string_of(attr) -> str:
    """The value of a string property."""
    from shardy_py.syntax.sdy_parser import unquote

    text = getattr(attr, "text", str(attr))
    return unquote(text) if text.startswith('"') else text


# ---- custom directives and codecs -----------------------------------------------------------------

@directive("DimensionList")
class DimensionList:
    """``2x?x4`` (MLIR's ``printDimensionList``; ``?`` is a dynamic size)."""

    @staticmethod
    def parse(cur, state, shape) -> None:
        dims: list[int] = []
        m = cur.match(_SIZE)
        while m is not None:
            dims.append(DYNAMIC if m.group() == "?" else int(m.group()))
            if not cur.text.startswith("x", cur.pos):
                break
            cur.pos += 1
            m = cur.match(_SIZE)
            if m is None:
                raise cur.error(f"expected a size or '?' after 'x', found {cur.found()}")
        state.set_attr(shape, int_array(dims))

    @staticmethod
    def print(out, op, shape) -> None:
        out.write("x".join("?" if d == DYNAMIC else str(d) for d in read_int_array(shape)))


@directive("DynamicIndexList")
class DynamicIndexList:
    """``[1, %c2, 3]``: integers go to the static array, values (``kDynamic`` there) to the operands."""

    @staticmethod
    def parse(cur, state, values, static) -> None:
        cur.expect("[", "'[' starting the index list")
        names: list[str] = []
        ints: list[int] = []
        if not cur.accept("]"):
            while True:
                m = cur.match(_VALUE)
                if m is not None:
                    names.append(m.group())
                    ints.append(DYNAMIC)
                else:
                    m = cur.match(_INT)
                    if m is None:
                        raise cur.error(f"expected an integer or a value in the index list, found {cur.found()}")
                    ints.append(int(m.group()))
                if not cur.accept(","):
                    break
            cur.expect("]", "',' or ']' in the index list")
        state.set_operands(values, names)
        state.set_attr(static, int_array(ints))

    @staticmethod
    def print(out, op, values, static) -> None:
        dynamic = iter(values or ())
        items = [out.value(next(dynamic)) if v == DYNAMIC else str(v) for v in read_int_array(static)]
        out.write("[" + ", ".join(items) + "]")


class _SplitAxes:
    """``[[0], [], [1, 2]]``: the ``axisarray`` of a sharding op, written without its prefix."""

    def __init__(self, dialect: str):
        self.dialect = dialect

    def parse(self, cur):
        cur.expect("[", "'[' starting split_axes")
        dims: list[tuple[int, ...]] = []
        if not cur.accept("]"):
            while True:
                dims.append(_int_list(cur, "split_axes"))
                if not cur.accept(","):
                    break
            cur.expect("]", "',' or ']' in split_axes")
        return axis_array(self.dialect, dims)

    def print(self, attr) -> str:
        return split_axes_text(read_axis_array(attr))

    def starts(self, cur) -> bool:
        return cur.peek("[")


class _PartialType:
    """``max``: the case keyword of ``#mesh.partial<max>``."""

    def parse(self, cur):
        at = cur.ws()
        m = cur.match(_WORD)
        if m is None or m.group() not in REDUCTIONS:
            found = repr(m.group()) if m else cur.found()
            raise cur.error(f"unknown partial type {found}; expected one of {', '.join(REDUCTIONS)}", at)
        return OpaqueAttr(f"#mesh.partial<{m.group()}>")

    def print(self, attr) -> str:
        text = getattr(attr, "text", str(attr))
        return text[text.index("<") + 1:-1] if "<" in text else text

    def starts(self, cur) -> bool:
        cur.ws()
        return bool(_WORD.match(cur.text, cur.pos, cur.end))


class _AxisList:
    """``[1, 2]``: grid axes (a DenseI16ArrayAttr)."""

    def parse(self, cur):
        return int_array(_int_list(cur, "the partial axes"), 16)

    def print(self, attr) -> str:
        return "[" + ", ".join(map(str, read_int_array(attr))) + "]"

    def starts(self, cur) -> bool:
        return cur.peek("[")


def _int_list(cur, what: str) -> tuple[int, ...]:
    cur.expect("[", f"'[' starting {what}")
    out: list[int] = []
    if not cur.accept("]"):
        while True:
            m = cur.match(_INT)
            if m is None:
                raise cur.error(f"expected an integer in {what}, found {cur.found()}")
            out.append(int(m.group()))
            if not cur.accept(","):
                break
        cur.expect("]", f"',' or ']' in {what}")
    return tuple(out)


# ---- the ops ------------------------------------------------------------------------------------

_HALO = ("(`halo_sizes` `=` custom<DynamicIndexList>($dynamic_halo_sizes, $static_halo_sizes)^)? "
         "(`sharded_dims_offsets` `=` custom<DynamicIndexList>($dynamic_sharded_dims_offsets, "
         "$static_sharded_dims_offsets)^)? ")


def _declare(dialect: str, grid_op: str, grid_attr: str, partial: bool) -> None:
    declare(f"{dialect}.{grid_op}", attributes=(AttrDef("sym_name", form="symbol"), AttrDef("shape")),
            format="$sym_name `(` `shape` `=` custom<DimensionList>($shape) `)` attr-dict")
    partial_attrs = (AttrDef("partial_axes", optional=True, codec=_AxisList()),
                     AttrDef("partial_type", optional=True, codec=_PartialType())) if partial else ()
    declare(f"{dialect}.sharding", operands=("dynamic_sharded_dims_offsets*", "dynamic_halo_sizes*"),
            attributes=(AttrDef(grid_attr), AttrDef("split_axes", codec=_SplitAxes(dialect)), *partial_attrs,
                        AttrDef("static_sharded_dims_offsets", optional=True),
                        AttrDef("static_halo_sizes", optional=True)),
            results=("result",),
            format=f"${grid_attr} `split_axes` `=` $split_axes "
                   + ("(`partial` `=` $partial_type $partial_axes^)? " if partial else "")
                   + _HALO + "attr-dict `:` type($result)")
    declare(f"{dialect}.shard", operands=("src", "sharding"),
            attributes=(AttrDef("annotate_for_users", form="unit", optional=True),),
            results=("result",),
            format="$src `to` $sharding (`annotate_for_users` $annotate_for_users^)? attr-dict `:` type($result)",
            infer_results=lambda op: [op.operands[0].type])
    RESULT_NAMERS[f"{dialect}.sharding"] = lambda op: [(0, "sharding")]
    RESULT_NAMERS[f"{dialect}.shard"] = lambda op: [(0, "sharding_annotated")]


_declare("shard", "grid", "grid", partial=False)
_declare("mesh", "mesh", "mesh", partial=True)
