"""Op declarations: each modelled op said once, as MLIR's ODS says it.

An ``OpDecl`` lists an op's operands, inherent attributes, results and regions, and either a
declarative assembly format (``syntax.format``, the same language as ODS ``assemblyFormat``) or a
pair of hand-written parse/print functions.  The parser, the printer (pretty and generic) and the
SSA namer all read the declaration, so they cannot drift apart.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from shardy_py.ir.builder import BuilderError

SINGLE, OPTIONAL, VARIADIC = "single", "optional", "variadic"


@attrs.frozen
class OperandDef:
    """An operand (or result) group: ``kind`` is single, optional or variadic."""

    name: str
    kind: str = SINGLE


@attrs.frozen
class AttrDef:
    """An inherent attribute (a property).

    ``form`` says how an assembly format writes it: ``"attr"`` (``printAttribute``: full text),
    ``"bare"`` (``printAttributeWithoutType``: an integer or float without its ``: type``),
    ``"stripped"`` (a dialect attribute without its ``#dialect`` prefix), ``"enum"`` (the case
    keyword of an enum attribute), ``"symbol"`` (``@name`` of a symbol-name string), ``"unit"``.
    ``default`` is the value an absent optional attribute stands for (None: no default).
    """

    name: str
    form: str = "attr"
    optional: bool = False
    default: Any = None
    #: For syntax no form covers: an object with ``parse(cur) -> Attr``, ``print(attr) -> str`` and
    #: ``starts(cur) -> bool`` (used by optional groups).
    codec: Any = None
    #: ODS ``DefaultValuedAttr`` (not ``...OptionalAttr``): an absent value is stored as the default.
    materialize: bool = False
    #: The property under which the parser keeps where the attribute was written (a ``Location``), if any.
    loc_key: str | None = None


@attrs.frozen
class RegionDef:
    name: str
    variadic: bool = False


@attrs.define
class OpDecl:
    """One op: its parts and its syntax.

    ``format`` is a declarative assembly format string (compiled on first use); ``parse`` /
    ``print`` are hand-written functions for ops whose syntax is custom C++ in MLIR.
    ``traits`` holds the ODS traits the syntax depends on (``SingleBlockImplicitTerminator``,
    ``SameVariadicOperandSize``, ``AttrSizedOperandSegments``, ``SameOperandsAndResultType``,
    ``IsolatedFromAbove``).  ``infer_results(op) -> [Type]`` gives result types an op's format
    does not spell (InferTypeOpInterface).  ``verify(op, ctx) -> Failure | None`` is the op's own
    verifier (ODS constraints, ``hasVerifier`` and type inference, as the C++ dialect defines them),
    run by ``shardy_py.verify`` after the sdy rules of the op have passed.  ``verify_regions(op, ctx)`` is
    what MLIR checks of an op with regions after its nested ops (``verifyRegionInvariants``: the
    inferred-type check of InferTypeOpInterface, which reads the regions, and ``hasRegionVerifier``).

    Ops whose properties are not kept as the attributes MLIR stores (a symbol name as a Python string,
    a function's argument types as a list, ...) say how to convert, as MLIR's ``setPropertiesFromAttr``
    and ``getPropertiesAsAttr`` do: ``as_attrs(op) -> {name: Attr}`` gives the properties the generic
    form writes, and ``from_attrs(reader, op, attrs, offset, name_at, result_types)`` gives the op the properties
    its custom syntax would (errors located at ``offset``, the operands, or ``name_at``, the op name;
    ``result_types`` are the generic form's, for a property checked against them).
    ``default_dialect`` is the dialect whose ops may be written without it in the op's regions
    (``OpAsmOpInterface::getDefaultDialect``: ``return`` in a ``func.func``).  ``expect`` names, per
    punctuation literal of the format, what an error says was expected there (``{":": "':' and the
    type"}``); a literal not named is expected as itself (``expected ':'``).
    """

    name: str
    operands: tuple[OperandDef, ...] = ()
    attributes: tuple[AttrDef, ...] = ()
    results: tuple[OperandDef, ...] = ()
    regions: tuple[RegionDef, ...] = ()
    format: str | None = None
    parse: Callable | None = None
    print: Callable | None = None
    traits: frozenset[str] = frozenset()
    infer_results: Callable | None = None
    terminator: str | None = None
    verify: Callable | None = None
    as_attrs: Callable | None = None
    from_attrs: Callable | None = None
    default_dialect: str | None = None
    expect: dict[str, str] | None = None
    verify_regions: Callable | None = None
    #: The compiled assembly format, made by ``syntax.format.compiled_format`` on first use.
    _compiled: Any = None
    _attribute_names: frozenset[str] | None = None
    _attr_index: dict | None = None

    @property
    def attribute_names(self) -> frozenset[str]:
        names = self._attribute_names
        if names is None:
            names = self._attribute_names = frozenset(a.name for a in self.attributes)
        return names

    def attr(self, name: str) -> AttrDef | None:
        index = self._attr_index
        if index is None:
            index = self._attr_index = {a.name: a for a in self.attributes}
        return index.get(name)

    def operand(self, name: str) -> tuple[int, OperandDef] | None:
        for i, o in enumerate(self.operands):
            if o.name == name:
                return i, o
        return None

    def result(self, name: str) -> tuple[int, OperandDef] | None:
        for i, o in enumerate(self.results):
            if o.name == name:
                return i, o
        return None

    def region(self, name: str) -> int | None:
        for i, r in enumerate(self.regions):
            if r.name == name:
                return i
        return None


#: Every declared op by full name.
OPS: dict[str, OpDecl] = {}


#: ``OpAsmOpInterface::getAsmResultNames`` of the ops that suggest names for their results:
#: op name -> function(op) -> [(result index, name)].
RESULT_NAMERS: dict[str, Callable] = {}
#: ``getAsmBlockArgumentNames``: op name -> function(op, region) -> a name (or a list of names) or None.
BLOCK_ARG_NAMERS: dict[str, Callable] = {}


def declare(name: str, *, operands=(), attributes=(), results=(), regions=(), format: str | None = None,
            parse=None, print=None, traits=(), infer_results=None, terminator=None, verify=None,
            as_attrs=None, from_attrs=None, default_dialect: str | None = None,
            expect: dict[str, str] | None = None, verify_regions=None) -> OpDecl:
    """Declare an op (see ``OpDecl``).  Operands/results/regions may be given as names:
    ``"x"`` (single), ``"x?"`` (optional), ``"x*"`` (variadic)."""

    def group(items) -> tuple[OperandDef, ...]:
        out = []
        for it in items:
            if isinstance(it, OperandDef):
                out.append(it)
            elif it.endswith("*"):
                out.append(OperandDef(it[:-1], VARIADIC))
            elif it.endswith("?"):
                out.append(OperandDef(it[:-1], OPTIONAL))
            else:
                out.append(OperandDef(it))
        return tuple(out)

    regs = tuple(r if isinstance(r, RegionDef) else RegionDef(r.rstrip("*"), r.endswith("*")) for r in regions)
    attr_defs = tuple(a if isinstance(a, AttrDef) else AttrDef(a) for a in attributes)
    decl = OpDecl(name, group(operands), attr_defs, group(results), regs, format, parse, print,
                  frozenset(traits), infer_results, terminator, verify, as_attrs, from_attrs, default_dialect,
                  expect, verify_regions)
    OPS[name] = decl
    named = decl.results
    if len(named) > 1 and all(r.kind == SINGLE for r in named):
        # ODS gives an op whose results are all named (and more than one) their names as SSA names
        RESULT_NAMERS.setdefault(name, lambda op, names=tuple(r.name for r in named): list(enumerate(names)))
    return decl


def add_verifier(name: str, fn: Callable, after: bool = False) -> None:
    """Run ``fn(op, ctx)`` before the verifier op ``name`` already has (ODS constraints come before
    an op's own verifier), or after it; the first failure is the op's.  ``fn.shape_only`` (true when its verdict
    depends on the op's name, operand types and properties only) lets it share ``clean_when_seen``'s memory."""
    decl = OPS[name]
    rest = decl.verify
    if rest is None:
        decl.verify = fn
        return
    rewrap = getattr(rest, "rewrap", None)
    if not after and rewrap is not None and getattr(fn, "shape_only", False):
        # ``rest`` is remembered clean per op shape (``clean_when_seen``) and ``fn`` reads nothing else: the pair is
        # remembered as one, so that an op alike to one judged clean is not judged by ``fn`` again
        decl.verify = rewrap(_chain(fn, rest.__wrapped__))
        return
    decl.verify = _chain(*((rest, fn) if after else (fn, rest)))


def _chain(first: Callable, then: Callable) -> Callable:
    """A verifier running ``first``, then ``then`` (the first failure is the op's)."""
    def chained(op, ctx, first=first, then=then):
        f = first(op, ctx)
        if f is not None and getattr(f, "after_regions", False):  # (found after the nested ops: the rest first)
            return then(op, ctx) or f
        return f if f is not None else then(op, ctx)

    return chained


def lookup(name: str) -> OpDecl | None:
    """The declaration of an op, loading the dialect modules on first use."""
    if not _loaded:
        _load()
    return OPS.get(name)


def ensure_loaded() -> None:
    """Load the dialect modules (their declarations, SSA name suggestions, ...) if not yet done."""
    if not _loaded:
        _load()


def infer_result_types(op) -> list:
    """The result types ``op``'s declaration defines from its operands and attributes: its
    ``infer_results``, or its first operand's type (``SameOperandsAndResultType``)."""
    decl = lookup(op.name)
    if decl is not None and decl.infer_results is not None:
        return list(decl.infer_results(op))
    if decl is not None and "SameOperandsAndResultType" in decl.traits:
        if not op.operands:
            raise BuilderError(f"'{op.name}' takes its result type from an operand, but it has none")
        return [op.operands[0].type]
    raise BuilderError(f"give result_types for '{op.name}': its declaration does not define them")


_loaded = False
#: The modules that declare ops (``shardy_py.dialects.<name>``), loaded on the first lookup.
DIALECT_MODULES = ("builtin", "sdy", "arith_ops", "tensor_ops", "stablehlo", "func", "stablehlo_ops",
                   "stablehlo_ops_calls", "stablehlo_regions", "stablehlo_collectives", "chlo", "shard",
                   "stablehlo_verify_quantized", "stablehlo_verify_quant_shapes", "stablehlo_verify_quant_dot",
                   "stablehlo_verify_attr_kinds", "stablehlo_verify_empty_bodies")


def _load() -> None:
    global _loaded
    _loaded = True
    import importlib

    for mod in DIALECT_MODULES:
        try:
            importlib.import_module(f"shardy_py.dialects.{mod}")
        except ModuleNotFoundError as e:  # a dialect not written yet
            if e.name != f"shardy_py.dialects.{mod}":
                raise
