"""StableHLO ops with regions, and convolution (``StablehloOps.td``, ``AssemblyFormat.cpp``).

``while`` and ``reduce`` have hand-written syntax (``printWhileOp``, ``printReduceOp``); most other
region ops, and the gather/scatter/collective ops, have no assembly format: MLIR prints them in
generic form, so their declaration lists their parts only.
"""
from __future__ import annotations

import re

from shardy_py.dialects.attr_codecs import I64, I64Array, i64_array, int_list, ints_of
from shardy_py.dialects.registry import AttrDef, declare
from shardy_py.ir import attrs as A
from shardy_py.ir.ops import Block, Operation, Region, Value
from shardy_py.ir.types import RankedTensorType, parse_type
from shardy_py.syntax.dense import canonical_dense_elements
from shardy_py.syntax.format import directive
from shardy_py.syntax.op_writer import functional_type

_FN = "attr-dict `:` functional-type(operands, results)"


def _a(name: str, codec=None, optional: bool = False, default=None) -> AttrDef:
    return AttrDef(name, optional=optional, default=default, codec=codec)


declare("stablehlo.return", operands=("results*",), format="$results attr-dict (`:` type($results)^)?")

# -- while ---------------------------------------------------------------------------------------


def _parse_while(cur, state) -> None:
    """``(%iterArg = %init, ...) : T, ... [attributes {...}] cond {...} do {...}``."""
    cur.expect("(", "'(' and the loop-carried values")
    bound: list[tuple[str, int]] = []
    inits: list[str] = []
    if not cur.accept(")"):
        while True:
            cur.ws()
            at = cur.pos
            bound.append((cur.value_use(), at))
            cur.expect("=", "'=' and the initial value")
            inits.append(cur.value_use())
            if cur.accept(")"):
                break
            cur.expect(",", "',' or ')'")
    types = []
    if inits:
        cur.expect(":", "':' and the types of the loop-carried values")
        types = cur.types()
        if len(types) != len(inits):
            raise cur.error(f"{len(inits)} loop-carried values but {len(types)} types")
    if cur.keyword("attributes"):
        d = cur.attr_dict()
        if d is None:
            raise cur.error("expected '{' after 'attributes'")
        state.attributes, state.attribute_locs = d
    raws = []
    for word in ("cond", "do"):
        if not cur.keyword(word):
            raise cur.error(f"expected '{word}' and its region, found {cur.found()}")
        raws.append(cur.region())
    state.all_operands = inits
    state.all_operand_types = types
    state.all_result_types = types
    state.all_regions = raws
    state.region_args = [[(name, t, at) for (name, at), t in zip(bound, types, strict=True)] for _ in raws]


def _print_while(out, op: Operation) -> None:
    body = op.regions[1].blocks[0].arguments if len(op.regions) > 1 and op.regions[1].blocks else []
    pairs = [f"{out.value(a)} = {out.operand(op, i)}" for i, a in enumerate(body)]
    out.write("(" + ", ".join(pairs) + ")")
    if op.operands:
        out.write(" : " + ", ".join(str(v.type) for v in op.operands))
    out.attr_dict(op, set(), with_keyword=True)
    out.newline()
    out.write("cond ")
    out.region(op.regions[0], entry_args=False)
    out.write(" do ")
    out.region(op.regions[1], entry_args=False)


declare("stablehlo.while", operands=("operand*",), results=("results*",), regions=("cond", "body"),
        parse=_parse_while, print=_print_while)

# -- reduce ----------------------------------------------------------------------------------------
#: StableHLO's commutative ops without regions and with one result (``reduce ... applies OP``).
COMMUTATIVE = frozenset(f"stablehlo.{n}" for n in ("add", "and", "maximum", "minimum", "multiply", "or", "xor"))


def _compact_inner(op: Operation) -> Operation | None:
    """The inner op when ``printReduceOp`` prints the compact ``applies`` form (E1-E5), else None."""
    if not op.regions or not op.regions[0].blocks:
        return None
    block = op.regions[0].blocks[0]
    if len(block.ops) != 2:
        return None
    inner, ret = block.ops
    if inner.name not in COMMUTATIVE or inner.regions or len(inner.results) != 1:
        return None
    types = {str(v.type) for v in inner.operands} | {str(r.type) for r in inner.results}
    if len(types) != 1 or not op.operands:
        return None
    first = op.operands[0].type
    element = first.element_type if isinstance(first, RankedTensorType) else None
    if element is None or types != {f"tensor<{element}>"}:
        return None
    if list(block.arguments) != list(inner.operands):
        return None
    if ret.name.split(".", 1)[-1] != "return":
        return None
    return inner if list(ret.operands) == list(inner.results) else None


def _print_reduce(out, op: Operation) -> None:
    n = len(op.operands) // 2
    out.write("".join([", " if i else "" for i in range(1)]))
    out.write(", ".join(f"({out.operand(op, i)} init: {out.operand(op, i + n)})" for i in range(n)))
    inner = _compact_inner(op)
    if inner is not None:
        out.write(" applies " + inner.name)
    out.write(" across dimensions = [" + ", ".join(map(str, ints_of(op.properties["dimensions"]))) + "]")
    out.attr_dict(op, {"dimensions"})
    out.write(" : " + functional_type([v.type for v in op.operands], [r.type for r in op.results]))
    if inner is None:
        out.newline()
        args = op.regions[0].blocks[0].arguments
        out.write(" reducer")
        for i in range(n):
            a, b = args[i], args[i + n]
            out.write(f"({out.value(a)}: {a.type}, {out.value(b)}: {b.type}) ")
        out.write(" ")
        out.region(op.regions[0], entry_args=False)


def _parse_reduce(cur, state) -> None:
    inputs, inits = [], []
    while cur.accept("("):
        inputs.append(cur.value_use())
        if not cur.keyword("init"):
            raise cur.error(f"expected 'init', found {cur.found()}")
        cur.expect(":")
        inits.append(cur.value_use())
        cur.expect(")")
        if not cur.accept(","):
            break
    state.all_operands = inputs + inits
    inner_name = None
    if cur.keyword("applies"):
        cur.ws()
        m = cur.match(re.compile(r"[A-Za-z_][\w$]*\.[\w$.]+|\"[^\"]*\""))
        if not m:
            raise cur.error(f"expected the reduction op's name, found {cur.found()}")
        inner_name = m.group().strip('"')
        if inner_name not in COMMUTATIVE:
            raise cur.error("expected the inner-op to be a commutative binary-op from the stablehlo dialect, with "
                            "zero region, producing single result")
    for word in ("across", "dimensions"):
        if not cur.keyword(word):
            raise cur.error(f"expected '{word}', found {cur.found()}")
    cur.expect("=")
    state.properties["dimensions"] = i64_array(int_list(cur))
    d = cur.attr_dict()
    if d is not None:
        state.attributes, state.attribute_locs = d
    cur.expect(":", "':' and the function type")
    ins, outs = cur.function_type()
    state.all_operand_types = ins
    state.all_result_types = outs
    if inner_name is not None:
        state.build_regions = lambda op: [_compact_region(op, inner_name, ins)]
        return
    if not cur.keyword("reducer"):
        raise cur.error(f"expected 'reducer' or 'applies', found {cur.found()}")
    firsts, seconds = [], []
    while cur.accept("("):
        for group in (firsts, seconds):
            cur.ws()
            at = cur.pos
            name = cur.value_use()
            cur.expect(":")
            group.append((name, cur.type(), at))
            cur.location()
            if group is firsts:
                cur.expect(",")
        cur.expect(")")
    state.all_regions = [cur.region()]
    state.region_args = [firsts + seconds]


def _compact_region(op: Operation, inner_name: str, ins) -> Region:
    """The body ``parseReduceOp`` builds for ``applies OP``: two scalar arguments, OP, return."""
    from shardy_py.ir.builder import Builder

    first = ins[0]
    element = first.element_type if isinstance(first, RankedTensorType) else str(first)
    scalar = parse_type(f"tensor<{element}>")
    region = Region(parent=op)
    block = Block(parent=region)
    region.blocks.append(block)
    block.arguments = [Value(f"%reduce_arg{i}", scalar, block, i) for i in range(2)]
    b = Builder.at_end(block)
    inner = b.create(inner_name, block.arguments, result_types=[scalar], loc=op._location)
    b.create("stablehlo.return", inner.results, result_types=[], loc=op._location)
    return region


declare("stablehlo.reduce", operands=("inputs*", "init_values*"), attributes=(_a("dimensions", I64Array),),
        results=("results*",), regions=("body",), parse=_parse_reduce, print=_print_reduce,
        traits=("SameVariadicOperandSize",))

# -- convolution ------------------------------------------------------------------------------------


@directive("ConvolutionDimensions")
class ConvolutionDimensions:
    """``[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`` (stored as ``#stablehlo.conv<...>``)."""

    @staticmethod
    def parse(cur, state, target) -> None:
        cur.ws()
        start = cur.pos
        parts = []
        for sep in ("x", "->", None):
            cur.balanced()
            parts.append(cur.p.norm(start, cur.pos))
            if sep is not None:
                cur.expect(sep)
                cur.ws()
                start = cur.pos
        body = "x".join(parts[:2]) + "->" + parts[2]
        body = re.sub(r"\s*,\s*", ", ", re.sub(r"\s+", "", body))
        state.set_attr(target, A.OpaqueAttr(f"#stablehlo.conv<{body}>"))

    @staticmethod
    def print(out, op, target) -> None:
        text = str(target)
        out.write(text[len("#stablehlo.conv<"):-1])


_WINDOW_KEYS = (("window_strides", "stride"), ("padding", "pad"), ("lhs_dilation", "lhs_dilate"),
                ("rhs_dilation", "rhs_dilate"), ("window_reversal", "reverse"))


@directive("WindowAttributes")
class WindowAttributes:
    """``stride = [...], pad = [[lo, hi], ...], lhs_dilate = [...], rhs_dilate = [...], reverse = [...]``."""

    @staticmethod
    def parse(cur, state, *targets) -> None:
        by_word = {word: t for (_, word), t in zip(_WINDOW_KEYS, targets, strict=True)}
        while True:
            cur.ws()
            m = cur.match(re.compile(r"[a-z_]+"))
            if not m:
                break
            word = m.group()
            if word not in by_word:
                raise cur.error(f"Unexpected keyword {word}")
            cur.expect("=")
            if word == "pad":
                cur.expect("[")
                rows = []
                if not cur.accept("]"):
                    while True:
                        rows.append(int_list(cur))
                        if cur.accept("]"):
                            break
                        cur.expect(",")
                flat = ", ".join("[" + ", ".join(map(str, r)) + "]" for r in rows)
                type_text = f"tensor<{len(rows)}x2xi64>"
                attr = A.OpaqueAttr(f"{canonical_dense_elements(f'[{flat}]', type_text)} : {type_text}" if rows
                                    else "dense<> : tensor<0x2xi64>")
            elif word == "reverse":  # integers as parseWindowAttributes reads them (non-zero is true), or bools
                vals = _bool_list(cur)
                attr = A.OpaqueAttr("array<i1: " + ", ".join(vals) + ">" if vals else "array<i1>")
            else:
                attr = i64_array(int_list(cur))
            state.set_attr(by_word.pop(word), attr)
            if not cur.accept(","):
                break

    @staticmethod
    def print(out, op, *values) -> None:
        parts = []
        for (_, word), v in zip(_WINDOW_KEYS, values, strict=True):
            if v is None:
                continue
            text = str(v)
            if word == "pad":
                nums = dense_ints(text)
                body = ", ".join(f"[{nums[i]}, {nums[i + 1]}]" for i in range(0, len(nums), 2))
            elif word == "reverse":
                body = ", ".join(re.findall(r"true|false", text))
            else:
                body = ", ".join(map(str, ints_of(text)))
            parts.append(f"{word} = [{body}]")
        out.write(", ".join(parts))


def dense_ints(text: str) -> list[int]:
    """The integers of ``dense<...> : tensor<AxBxi64>``, a splat repeated to the element count."""
    body, _, type_text = text.partition(" : ")
    nums = ints_of(body)
    m = re.search(r"<((?:\d+x)*)", type_text)
    count = 1
    for d in (m.group(1).split("x")[:-1] if m else []):
        count *= int(d)
    return nums * count if len(nums) == 1 and count > 1 else nums


def _bool_list(cur) -> list[str]:
    """``[0, 1]`` or ``[false, true]`` as ``true``/``false`` words."""
    cur.expect("[", "'[' and a list")
    out: list[str] = []
    if cur.accept("]"):
        return out
    while True:
        word = next((w for w in ("true", "false") if cur.keyword(w)), None)
        if word is not None:
            out.append(word)
        else:
            m = cur.match(re.compile(r"-?\d+"))
            if not m:
                raise cur.error(f"expected a boolean, found {cur.found()}")
            out.append("true" if int(m.group()) else "false")
        if cur.accept("]"):
            return out
        cur.expect(",", "',' or ']'")


declare("stablehlo.convolution", operands=("lhs", "rhs"),
        attributes=(_a("window_strides", optional=True), _a("padding", optional=True),
                    _a("lhs_dilation", optional=True), _a("rhs_dilation", optional=True),
                    _a("window_reversal", optional=True), _a("dimension_numbers"), _a("feature_group_count"),
                    _a("batch_group_count"), _a("precision_config", optional=True)),
        results=("result",),
        format="`(`operands`)` `dim_numbers` `=` custom<ConvolutionDimensions>($dimension_numbers) `,` `window` `=` "
               "`{` custom<WindowAttributes>($window_strides, $padding, $lhs_dilation, $rhs_dilation, "
               "$window_reversal) `}` " + _FN)

# -- ops MLIR prints in generic form ------------------------------------------------------------
_GENERIC = {
    "if": (("pred",), (), ("true_branch", "false_branch")),
    "case": (("index",), (), ("branches*",)),
    "map": (("inputs*",), ("dimensions",), ("computation",)),
    "sort": (("inputs*",), (_a("dimension", default=A.OpaqueAttr("-1 : i64")),
                            _a("is_stable", default=A.OpaqueAttr("false"))), ("comparator",)),
    "scatter": (("inputs*", "scatter_indices", "updates*"),
                ("scatter_dimension_numbers", _a("indices_are_sorted", default=A.OpaqueAttr("false")),
                 _a("unique_indices", default=A.OpaqueAttr("false"))), ("update_computation",)),
    "gather": (("operand", "start_indices"), ("dimension_numbers", "slice_sizes",
                                              _a("indices_are_sorted", default=A.OpaqueAttr("false"))), ()),
    "dynamic_gather": (("operand", "start_indices", "slice_sizes"),
                       ("dimension_numbers", _a("indices_are_sorted", default=A.OpaqueAttr("false"))), ()),
    "select_and_scatter": (("operand", "source", "init_value"),
                           (_a("window_dimensions", optional=True), _a("window_strides", optional=True),
                            _a("padding", optional=True)), ("select", "scatter")),
    "reduce_window": (("inputs*", "init_values*"),
                      ("window_dimensions", _a("window_strides", optional=True), _a("base_dilations", optional=True),
                       _a("window_dilations", optional=True), _a("padding", optional=True)), ("body",)),
    "all_reduce": (("operands*",), ("replica_groups", _a("channel_handle", optional=True),
                                    _a("use_global_device_ids", optional=True)), ("computation",)),
    "reduce_scatter": (("operand",), ("scatter_dimension", "replica_groups", _a("channel_handle", optional=True),
                                      _a("use_global_device_ids", optional=True)), ("computation",)),
    "all_gather": (("operands*",), ("all_gather_dim", "replica_groups", _a("channel_handle", optional=True),
                                    _a("use_global_device_ids", optional=True)), ()),
    "all_to_all": (("operands*",), ("split_dimension", "concat_dimension", "split_count", "replica_groups",
                                    _a("channel_handle", optional=True)), ()),
    "collective_broadcast": (("operands*",), ("replica_groups", _a("channel_handle", optional=True),
                                              _a("has_dynamic_root", optional=True)), ()),
    "collective_reduce": (("operands*",), ("replica_groups", _a("channel_handle", optional=True),
                                           _a("use_global_device_ids", optional=True),
                                           _a("has_dynamic_root", optional=True)), ("computation",)),
    "collective_permute": (("operand",), ("source_target_pairs", _a("channel_handle", optional=True)), ()),
    "async_start": (("operands*",), (), ("body",)),
    "async_done": (("operand",), (), ()),
    "dynamic_conv": (("lhs", "rhs", "padding"),
                     (_a("window_strides", optional=True), _a("lhs_dilation", optional=True),
                      _a("rhs_dilation", optional=True), _a("window_reversal", optional=True), "dimension_numbers",
                      "feature_group_count", "batch_group_count", _a("precision_config", optional=True)), ()),
}
_SAME_SIZE = {"scatter", "reduce_window"}
for _name, (_ops, _attrs, _regions) in _GENERIC.items():
    declare(f"stablehlo.{_name}", operands=_ops, attributes=_attrs, results=("results*",), regions=_regions,
            traits=("SameVariadicOperandSize",) if _name in _SAME_SIZE else ())

__all__ = ["COMMUTATIVE", "I64"]
