"""The hand-written syntax of StableHLO's ``while`` and ``reduce`` (``printWhileOp``/``parseWhileOp``,
``printReduceOp``/``parseReduceOp`` in ``stablehlo/dialect/AssemblyFormat.cpp``): parse functions fill
a ``syntax.format_parse.ParseState``, print functions write on a ``syntax.op_writer.OpWriter``.
"""
from __future__ import annotations

import re

from shardy_py.dialects.attr_codecs import I64Array
from shardy_py.ir.ops import NO_ATTRIBUTES, Block, Operation, Region, Value
from shardy_py.ir.types import RankedTensorType, parse_type


# -- while (printWhileOp / parseWhileOp) ------------------------------------------------------------
def parse_while(cur, state) -> None:
    """``(%iterArg = %init, ...) : T, ... [attributes {...}] cond {...} do {...}``: both regions'
    entry arguments are the ``%iterArg`` names, typed as the operands."""
    cur.expect("(", "'('")
    bound: list[tuple[str, int]] = []
    inits: list[str] = []
    init_at: list[int] = []
    while not cur.accept(")"):
        if bound:
            cur.expect(",", "',' or ')'")
        at = cur.ws()
        bound.append((cur.value_use(), at))
        cur.expect("=", "'='")
        init_at.append(cur.ws())
        inits.append(cur.value_use())
    types = []
    if inits:
        cur.expect(":", "':'")
        types = cur.types()
        if len(types) != len(inits):
            raise cur.error(f"{len(inits)} operands present, but expected {len(types)}")
    for name, t, at in zip(inits, types, init_at, strict=True):  # (resolved before the regions are read)
        v = cur.p.lookup(name)
        if v is not None and v.type is not None and t is not None and v.type != t:
            raise cur.p.ssa.type_mismatch(name, v, t, at)
    if cur.keyword("attributes"):
        entries = cur.attr_dict()
        if entries is None:
            raise cur.error(f"expected '{{', found {cur.found()}")
        state.attributes, state.attribute_locs = entries
    raws = []
    for word in ("cond", "do"):
        if not cur.keyword(word):
            raise cur.error(f"expected '{word}', found {cur.found()}")
        raws.append(cur.region())
    state.all_operands = inits
    state.all_operand_types = types
    state.all_result_types = list(types)
    state.all_regions = raws
    state.region_args = [[(name, t, at) for (name, at), t in zip(bound, types, strict=True)] for _ in raws]


def print_while(out, op) -> None:
    """``printWhileOp``.  Its one type list stands for the operands, the results and both regions' entry
    arguments: a while whose others are not compatible with its operands (invalid IR, which MLIR prints
    generic) prints generic, so that what it says is kept; compatible ones (a refined shape) are dropped,
    as MLIR drops them."""
    from shardy_py.dialects.stablehlo_verify_types import hlo_compatible_all
    from shardy_py.syntax.format import PrintGeneric

    cond, body = op.regions
    types = [v.type if v is not None else t for v, t in zip(op.operands, op.operand_types_view, strict=False)]
    if len(types) != len(op.operands) or not hlo_compatible_all(types, [r.type for r in op.results]) or any(
            not r.blocks or not hlo_compatible_all(types, [a.type for a in r.blocks[0].arguments])
            for r in (cond, body)):
        raise PrintGeneric
    args = body.blocks[0].arguments
    out.write("(" + ", ".join(f"{out.value(a)} = {out.operand(op, i)}" for i, a in enumerate(args)) + ")")
    if op.operands:
        out.write(" : " + ", ".join(str(v.type) for v in op.operands))
    out.attr_dict(op, set(), with_keyword=True)
    out.newline()
    out.write("cond ")
    out.region(cond, entry_args=False)
    out.write(" do ")
    out.region(body, entry_args=False)


# -- reduce (printReduceOp / parseReduceOp) ---------------------------------------------------------
#: StableHLO's ops with two operands, one result, no region and the commutative trait: the ops
#: ``reduce ... applies OP`` may name.
COMMUTATIVE = frozenset(f"stablehlo.{n}" for n in ("add", "and", "maximum", "minimum", "multiply", "or", "xor"))
_OP_NAME = re.compile(r"[A-Za-z_][\w$]*(?:\.[\w$]+)+|\"[^\"]*\"")
#: A word that names no op of a dialect (MLIR's parser takes it for one, and it is no commutative stablehlo op).
_BARE_WORD = re.compile(r"[A-Za-z_][\w$.]*")


def _scalar_of(t):
    """``tensor<E>`` for the element type E of shaped type ``t``."""
    element = t.element_type if isinstance(t, RankedTensorType) else None
    return parse_type(f"tensor<{element}>") if element is not None else None


def compact_reducer(op):
    """The inner op when ``printReduceOp`` prints ``applies OP`` (its checks E1-E5), else None."""
    if not op.operands or not op.regions or not op.regions[0].blocks:
        return None
    block = op.regions[0].blocks[0]
    if len(block.ops) != 2:  # E1: one op, then the terminator
        return None
    inner, ret = block.ops
    if inner.name not in COMMUTATIVE or inner.regions or len(inner.results) != 1 or len(inner.operands) != 2:
        return None  # E2
    types = {str(v.type) for v in inner.operands} | {str(v.type) for v in inner.results}
    scalar = _scalar_of(op.operands[0].type)
    if len(types) != 1 or scalar is None or str(inner.operands[0].type) != str(scalar):
        return None  # E2 (one type) and E3 (the scalar of the first input's element type)
    if list(block.arguments) != list(inner.operands):  # E4
        return None
    if ret.name.split(".", 1)[-1] != "return" or list(ret.operands) != list(inner.results):  # E5
        return None
    return inner


def print_reduce(out, op) -> None:
    """``printReduceOp``: ``(%x init: %i), ... [applies OP] across dimensions = [...] : F`` and,
    unless compact, `` reducer(%a: T, %b: T) ... { body }`` on the next line."""
    n = len(op.operands) // 2
    out.write(", ".join(f"({out.operand(op, i)} init: {out.operand(op, i + n)})" for i in range(n)))
    inner = compact_reducer(op)
    if inner is not None:
        out.write(f" applies {inner.name}")
    out.write(" across dimensions = " + I64Array.print(op.properties.get("dimensions")))
    out.attr_dict(op, {"dimensions"})
    ins = [v.type if v is not None and v.type is not None else t  # (a value of no known type: as written)
           for v, t in zip(op.operands, op.operand_types_view, strict=False)]
    out.write(" : " + out.functional_type(ins, [v.type for v in op.results]))
    if inner is not None:
        return
    out.newline()
    out.write(" reducer")
    args = op.regions[0].blocks[0].arguments
    for a, b in zip(args[:n], args[n:2 * n], strict=True):
        loc = out.pr.loc
        out.write(f"({out.value(a)}: {a.type}{loc(a.location_text)}, {out.value(b)}: {b.type}{loc(b.location_text)}) ")
    out.write(" ")
    out.region(op.regions[0], entry_args=False)


def _reducer_arg(cur) -> tuple[str, object, int, str | None]:
    at = cur.ws()
    name = cur.value_use()
    cur.expect(":", "':'")
    t = cur.type()
    return name, t, at, cur.location()


def parse_reduce(cur, state) -> None:
    """``parseReduceOp``: the compact ``applies`` form (its region built here) or the ``reducer``
    form (block arguments written pairwise, stored inputs' first, then the inits')."""
    inputs, inits = [], []
    cur.ws()
    start = cur.pos  # (where parseReduceOp reports a wrong inner op)
    while cur.accept("("):
        inputs.append(cur.value_use())
        if not cur.keyword("init"):
            raise cur.error(f"expected 'init', found {cur.found()}")
        cur.expect(":", "':'")
        inits.append(cur.value_use())
        cur.expect(")", "')'")
        if not cur.accept(","):
            break
    state.all_operands = inputs + inits
    inner_name = None
    if cur.keyword("applies"):
        m = cur.match(_OP_NAME) or cur.match(_BARE_WORD)  # (parseCustomOperationName: any bare-id or keyword)
        if not m:
            at = cur.ws() if cur.pos < cur.end else cur.p.scanner.skip_ws(cur.end)
            raise cur.error("expected bare identifier or keyword", at)
        inner_name = m.group().strip('"')
        if inner_name not in COMMUTATIVE:
            raise cur.error("expected the inner-op to be a commutative binary-op from the stablehlo dialect, "
                            "with zero region, producing single result", start)
    for word in ("across", "dimensions"):
        if not cur.keyword(word):
            raise cur.error(f"expected '{word}', found {cur.found()}")
    cur.expect("=", "'='")
    state.properties["dimensions"] = I64Array.parse(cur)
    entries = cur.attr_dict()
    if entries is not None:
        state.attributes, state.attribute_locs = entries
    cur.expect(":", "':'")
    ins, outs = cur.function_type()
    state.all_operand_types, state.all_result_types = ins, outs
    if inner_name is not None:
        if not ins:
            raise cur.error("input types missing in reduce-op function type")
        state.build_regions = lambda op: [_compact_region(op, inner_name, _scalar_of(ins[0]))]
        return
    if not cur.keyword("reducer"):
        raise cur.error(f"expected 'reducer', found {cur.found()}")
    firsts, seconds = [], []
    while cur.accept("("):
        firsts.append(_reducer_arg(cur))
        cur.expect(",", "','")
        seconds.append(_reducer_arg(cur))
        cur.expect(")", "')'")
    state.all_regions = [cur.region()]
    state.region_args = [firsts + seconds]


def _compact_region(op, inner_name: str, scalar):
    """The body ``parseReduceOp`` makes for ``applies OP``: two scalar arguments, OP, return; all
    at the reduce op's location."""
    region = Region(parent=op)
    block = Block(parent=region)
    region.blocks.append(block)
    loc = op._location
    args = block.arguments = [Value(f"%arg{i}", scalar, block, i, loc) for i in range(2)]
    # built directly rather than with a Builder: a module holds one such body per reduce, so its ops take
    # the shared empty mappings and name their operands by the values (``Operation.operand_names``)
    inner = Operation(inner_name, results=[], operands=tuple(args), operand_names=None,
                      operand_types=(scalar, scalar), properties=NO_ATTRIBUTES, attributes=NO_ATTRIBUTES, loc=loc,
                      parent=block, result_groups=[("", 1)], location_text=op.location_text)
    inner.results = [Value("", scalar, inner, 0, None, NO_ATTRIBUTES)]
    ret = Operation("stablehlo.return", results=[], operands=(inner.results[0],), operand_names=None,
                    operand_types=(scalar,), properties=NO_ATTRIBUTES, attributes=NO_ATTRIBUTES, loc=loc,
                    parent=block, result_groups=[], location_text=op.location_text)
    block.ops = [inner, ret]
    return region
