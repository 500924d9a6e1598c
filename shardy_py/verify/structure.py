"""MLIR's structural rules the verifier checks after parsing: blocks end in a terminator and a
terminator ends its block (``verifyBlock`` and the ``IsTerminator`` trait), ``func.return`` matches
its function's results (``func::ReturnOp::verify``), and the symbol uses of ``func.call``
(``CallOp::verifySymbolUses``) name functions of the nearest symbol table, with the types those
functions have (``stablehlo.composite``'s are checked with the op, in ``dialects/stablehlo_verify_calls``)."""
from __future__ import annotations

from shardy_py.ir.attrs import OpaqueAttr
from shardy_py.ir.ops import Block, Operation
from shardy_py.syntax.known_ops import CLOSED_DIALECTS, REGISTERED_OPS, REGISTERED_TERMINATORS, TERMINATORS
from shardy_py.syntax.ssa_uses import LOCATED_AFTER_NAME
from shardy_py.verify.context import Context, loc_of
from shardy_py.verify.diagnostics import Failure

#: Ops whose region blocks need no terminator (NoTerminator / graph regions).
_NO_TERMINATOR = frozenset({"builtin.module"})


def name_position(op: Operation) -> tuple[int, int]:
    """Where MLIR places an op's diagnostics: its name, after the results (``%0 = `` skipped); the ``(`` after
    the name for the custom forms of ``LOCATED_AFTER_NAME``."""
    loc = loc_of(op)
    after = len(op.name) if op.name in LOCATED_AFTER_NAME and not op.generic_form else 0
    groups = [g for g in op.result_groups if g[0]] if op.results else ()  # (unnamed results are not written)
    if not groups:
        return (loc.line, loc.column + after)
    width = sum(len(name) + (len(f":{n}") if n > 1 else 0) for name, n in groups) + 2 * (len(groups) - 1)
    return (loc.line, loc.column + width + 3 + after)  # `%0 = ` when written as MLIR prints it


def _closed(op: Operation) -> bool:
    return op.name.split(".", 1)[0] in CLOSED_DIALECTS


def _never_a_terminator(op: Operation) -> bool:
    """An op MLIR knows is no terminator: of a dialect we declare in full, or a registered op we keep as written
    that is none (``known_ops.REGISTERED_TERMINATORS``)."""
    dialect = op.name.split(".", 1)[0]
    return dialect in CLOSED_DIALECTS or op.name in REGISTERED_OPS.get(dialect, ()) and \
        op.name not in REGISTERED_TERMINATORS


def verify_block_terminators(op: Operation, ctx: Context) -> Failure | None:
    """Every block of ``op``'s regions ends in a terminator, and no terminator is followed by an op."""
    for region in op.regions:
        for block in region.blocks:
            f = verify_block_terminator(op, block)
            if f is not None:
                return f
    return None


def verify_block_terminator(op: Operation, block: Block) -> Failure | None:
    """``block``, of one of ``op``'s regions, ends in a terminator (MLIR checks it on leaving the block, after
    its ops and before the next block's: ``OperationVerifier::verifyOnExit(Block &)``)."""
    if op.name in _NO_TERMINATOR or not _closed(op):
        return None
    return _verify_block(block)


def verify_terminator_is_last(op: Operation) -> Failure | None:
    """A terminator ends its block (the ``IsTerminator`` trait, checked with the op itself)."""
    block = op.parent
    if block is not None and block.ops and block.ops[-1] is not op:
        return Failure(f"'{op.name}' op must be the last operation in the parent block", (), name_position(op))
    return None


def _verify_block(block: Block) -> Failure | None:
    ops = block.ops
    holder = block.parent.parent if block.parent is not None else None
    if not ops and isinstance(holder, Operation) and holder.name == "func.func":
        return Failure("empty block: expect at least a terminator", (), (holder.loc.line, holder.loc.column))
    if ops:
        last = ops[-1]
        if last.name not in TERMINATORS and _never_a_terminator(last) and last.name != "builtin.module":
            return Failure(f"block with no terminator, has '{last.name}'", (), name_position(last))
    return None


def verify_func_return(op: Operation, ctx: Context) -> Failure | None:
    """``func.return``: in a ``func.func``, with the function's result count and types."""
    block = op.parent
    func = block.parent.parent if block is not None and block.parent is not None else None
    if not isinstance(func, Operation) or func.name != "func.func":
        return Failure("'func.return' op expects parent op 'func.func'", (), name_position(op))
    results = func.properties_view.get("result_types") or []
    name = func.properties_view.get("sym_name")
    if len(op.operands) != len(results):
        return Failure(f"'func.return' op has {len(op.operands)} operands, but enclosing function (@{name}) "
                       f"returns {len(results)}", (), name_position(op))
    for i, (v, t) in enumerate(zip(op.operands, results, strict=True)):
        if v is not None and v.type is not None and t is not None and v.type != t:
            return Failure(f"'func.return' op type of return operand {i} ('{v.type}') doesn't match function "
                           f"result type ('{t}') in function @{name}", (), name_position(op))
    return None


def verify_function_declaration(op: Operation, ctx: Context) -> Failure | None:
    """``SymbolOpInterface``'s verifier: a function without a body is a declaration, which is not public; a
    function sits in a symbol table (a ``builtin.module``; an op of a dialect MLIR does not know is let be)."""
    if not (op.regions and op.regions[0].blocks) and op.properties_view.get("sym_visibility") in (None, "public"):
        return Failure("'func.func' op symbol declaration cannot have public visibility", (), name_position(op))
    region = op.parent.parent if op.parent is not None else None
    parent = region.parent if region is not None else None
    if isinstance(parent, Operation) and parent.name != "builtin.module" and _closed(parent):
        return Failure("'func.func' op symbol's parent must have the SymbolTable trait", (), name_position(op))
    return None


def verify_function_attribute_names(op: Operation, ctx: Context) -> Failure | None:
    """``FunctionOpInterface``: a function's argument and result attributes are dialect attributes (a '.')."""
    props = op.properties_view
    for key, what in (("arg_attrs", "arguments"), ("res_attrs", "results")):
        for attrs_ in props.get(key) or ():
            if isinstance(attrs_, dict) and any("." not in name for name in attrs_):
                return Failure(f"'func.func' op {what} may only have dialect attributes", (), name_position(op))
    return None


def verify_module_attributes(op: Operation, ctx: Context) -> Failure | None:
    """``ModuleOp::verify``: a module's attributes are dialect attributes (a name with a '.') or its symbol's."""
    for name in op.attributes_view:
        if "." not in name and name not in ("sym_name", "sym_visibility"):
            return Failure(f"'builtin.module' op can only contain attributes with dialect-prefixed names, found: "
                           f"'{name}'", (), name_position(op))
    return None


def _count_rule(defs, what: str, one: str) -> tuple[int, bool, str]:
    """(how many, exact?, the ODS message stem) for a declaration's operand or result groups."""
    singles = sum(1 for d in defs if d.kind == "single")
    exact = all(d.kind == "single" for d in defs)
    return singles, exact, one if singles == 1 else what


_ARITY: dict[str, tuple] = {}


def verify_arity(op: Operation, decl) -> Failure | None:
    """ODS's count traits of a declared op (``OneRegion``, ``OneResult``, ``NOperands<N>``,
    ``AtLeastNOperands<N>``...), in ODS's trait order (regions, results, operands): "requires one region",
    "requires one result", "expected 2 operands, but found 3", as MLIR's ``verifyInvariants``."""
    rules = _ARITY.get(decl.name)
    if rules is None:
        regions = (len([r for r in decl.regions if not r.variadic]), not any(r.variadic for r in decl.regions),
                   "one region" if len(decl.regions) == 1 else "regions")
        rules = _ARITY[decl.name] = (_count_rule(decl.operands, "operands", "a single operand"),
                                     _count_rule(decl.results, "results", "one result"), regions)
    (n_in, exact_in, _), (n_out, exact_out, _), (n_reg, exact_reg, _) = rules
    ins, outs, regs = len(op.operands), len(op.results), len(op.regions)
    if (ins == n_in if exact_in else ins >= n_in) and (outs == n_out if exact_out else outs >= n_out) and (
            regs == n_reg if exact_reg else regs >= n_reg):
        return None
    for (n, exact, stem), found, what in ((rules[2], regs, "region"), (rules[1], outs, "result"),
                                          (rules[0], ins, "operand")):
        but = "" if what == "region" else f", but found {found}"  # (NRegions and AtLeastNRegions say no count)
        if exact and found != n:
            message = (f"requires zero {what}s" if n == 0 else f"requires {stem}" if n == 1
                       else f"expected {n} {what}s{but}")
        elif not exact and found < n:
            message = f"expected {n} or more {what}s{but}"
        else:
            continue
        return Failure(f"'{op.name}' op {message}", (), name_position(op))
    return None


#: Ops whose regions are ODS ``SizedRegion<1>`` (one block each), StableHLO's and CHLO's.
SIZED_REGION_OPS = frozenset({
    "stablehlo.if", "stablehlo.case", "stablehlo.while", "stablehlo.all_reduce", "stablehlo.reduce_scatter",
    "stablehlo.reduce", "stablehlo.async_start", "stablehlo.collective_reduce", "stablehlo.map",
    "stablehlo.scatter", "stablehlo.select_and_scatter", "stablehlo.sort", "stablehlo.reduce_window", "chlo.scan"})


def verify_sized_regions(op: Operation, decl) -> Failure | None:
    """ODS's ``SizedRegion<1>``: each region holds one block; a region written ``{}`` holds none ("region #1
    ('branches') failed to verify constraint: region with 1 blocks")."""
    for i, region in enumerate(op.regions):
        blocks = region.blocks
        empty = len(blocks) == 1 and not blocks[0].ops and not blocks[0].arguments and blocks[0].label is None
        if len(blocks) != 1 or empty:
            names = [r.name for r in decl.regions]
            name = names[min(i, len(names) - 1)] if names else ""
            return Failure(f"'{op.name}' op region #{i} ('{name}') failed to verify constraint: region with 1 blocks",
                           (), name_position(op))
    return None


#: Ops with MLIR's ``SingleBlock`` trait (jaxlib 0.12: each answers "expects a non-empty block" for an
#: emptied body; scatter, sort and the others say it in their own verifiers).
SINGLE_BLOCK_OPS = frozenset({
    "stablehlo.all_reduce", "stablehlo.async_start", "stablehlo.case", "stablehlo.collective_reduce",
    "stablehlo.if", "stablehlo.map", "stablehlo.reduce", "stablehlo.reduce_window", "stablehlo.while"})
#: Shardy's ops with the trait through ``SingleBlockImplicitTerminator<"ReturnOp">``: checked on entering the
#: op, before its own rules and its body's ops and terminators (jaxlib 0.12).
SDY_SINGLE_BLOCK_OPS = frozenset({"sdy.manual_computation", "sdy.named_computation"})


def verify_single_block(op: Operation) -> Failure | None:
    """The ``SingleBlock`` trait, after the count traits and before ODS's attribute and region constraints:
    a region holds at most one block ("expects region #1 to have 0 or 1 blocks") and a block that is there
    holds an op ("expects a non-empty block"); a region written ``{}`` holds no block."""
    for i, region in enumerate(op.regions):
        blocks = region.blocks
        if len(blocks) > 1:
            return Failure(f"'{op.name}' op expects region #{i} to have 0 or 1 blocks", (), name_position(op))
        if blocks and not blocks[0].ops and (blocks[0].arguments or blocks[0].label is not None):
            return Failure(f"'{op.name}' op expects a non-empty block", (), name_position(op))
    return None


_REQUIRED: dict[str, tuple[str, ...]] = {}


def verify_required_attributes(op: Operation, decl) -> Failure | None:
    """ODS's ``verifyInvariants``: every attribute the op declares without a default or ``OptionalAttr`` is
    there ("requires attribute 'value'")."""
    names = _REQUIRED.get(decl.name)
    if names is None:
        names = _REQUIRED[decl.name] = tuple(a.name for a in decl.attributes if not a.optional and a.default is None
                                             and a.form != "unit" and not a.materialize)
    if names:
        props = op.properties_view
        for name in names:
            if name not in props:
                return Failure(f"'{op.name}' op requires attribute '{name}'", (), name_position(op))
    return None


def symbol_name(attr) -> str | None:
    """The name a flat symbol reference (``@f`` or ``@"f"``) holds, None for anything else."""
    text = attr.text if isinstance(attr, OpaqueAttr) else attr if isinstance(attr, str) else None
    if not text or not text.startswith("@") or "::" in text:
        return None
    if text.startswith('@"'):
        from shardy_py.syntax.sdy_parser import unquote
        try:
            return unquote(text[1:])
        except Exception:
            return None
    return text[1:]


def functions_of_nearest_table(op: Operation, ctx: Context) -> dict[str, Operation | None]:
    """Symbols of the nearest enclosing symbol table (a ``builtin.module``): name -> the op when it is
    a ``func.func`` (None for other symbols)."""
    table = op.parent
    holder = None
    while table is not None:
        holder = table.parent.parent if table.parent is not None else None
        if not isinstance(holder, Operation) or holder.name == "builtin.module":
            break
        table = holder.parent
    cache = ctx.__dict__.setdefault("_symbol_tables", {})
    hit = cache.get(id(holder))
    if hit is not None:
        return hit[1]
    table_of: dict[str, Operation | None] = {}
    if isinstance(holder, Operation):
        for region in holder.regions:
            for block in region.blocks:
                for child in block.ops:
                    sym = child.properties_view.get("sym_name")
                    if isinstance(sym, str):
                        table_of.setdefault(sym, child if child.name == "func.func" else None)
    cache[id(holder)] = (holder, table_of)  # (holds the op, so that its id is not reused)
    return table_of


def verify_call(op: Operation, ctx: Context) -> Failure | None:
    """``func.call``: the callee is a function of the nearest symbol table, with the call's types."""
    callee = symbol_name(op.properties_view.get("callee"))
    if callee is None:
        return None
    fn = functions_of_nearest_table(op, ctx).get(callee)
    # (the position is found for a failure only, and index loops stand for ``zip``: every call is checked)
    if fn is None:
        return Failure(f"'func.call' op '{callee}' does not reference a valid function", (), name_position(op))
    ins = fn.properties_view.get("arg_types") or []
    outs = fn.properties_view.get("result_types") or []
    operands = op.operands
    if len(ins) != len(operands):
        return Failure("'func.call' op incorrect number of operands for callee", (), name_position(op))
    for i in range(len(ins)):
        v, t = operands[i], ins[i]
        if v is not None and v.type is not None and v.type is not t and v.type != t:
            return Failure(f"'func.call' op operand type mismatch: expected operand type '{t}', but provided "
                           f"'{v.type}' for operand number {i}", (), name_position(op))
    results = op.results
    if len(outs) != len(results):
        return Failure("'func.call' op incorrect number of results for callee", (), name_position(op))
    for i in range(len(outs)):
        r, t = results[i], outs[i]
        if r.type is not None and r.type is not t and r.type != t:
            return Failure(f"'func.call' op result type mismatch at index {i}", (), name_position(op))
    return None


__all__ = ["verify_block_terminators", "verify_block_terminator", "verify_terminator_is_last", "verify_func_return",
           "verify_call", "verify_arity",
           "verify_module_attributes", "verify_required_attributes", "verify_function_declaration",
           "verify_sized_regions", "verify_single_block", "verify_function_attribute_names", "name_position"]
