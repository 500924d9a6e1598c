"""The declarative assembly-format engine: one ODS ``assemblyFormat`` string gives both the parser
and the printer of an op.

The format language is MLIR's (``mlir-tblgen`` OpFormatGen): literals in backquotes (`` `dim` ``,
`` `,` ``; `` ` ` `` is a space and `` `` `` suppresses one), variables (``$lhs``), directives
(``attr-dict``, ``attr-dict-with-keyword``, ``prop-dict``, ``type($x)``, ``functional-type(operands, results)``,
``operands``, ``results``, ``regions``, ``ref($x)``, ``qualified($x)``, ``custom<Name>(args)``) and
optional groups ``( ... $anchor^ ... )?`` with an optional else group ``: ( ... )``.
Spacing follows the generated printers exactly (``shouldEmitSpace`` / ``lastWasPunctuation``).

Custom directives are pairs of functions registered in ``DIRECTIVES``
(``syntax.directives`` and the dialect modules add them).
"""
from __future__ import annotations

import re
from collections.abc import Callable

import attrs

from shardy_py.dialects.registry import OPTIONAL, VARIADIC, OpDecl

# ---------------------------------------------------------------------------------------------
# Format elements
# ---------------------------------------------------------------------------------------------


@attrs.frozen
class Literal:
    text: str


@attrs.frozen
class Space:
    value: bool  # ` ` prints a space; `` prints nothing but counts as punctuation


@attrs.frozen
class Var:
    name: str
    kind: str  # operand, result, attr, region


@attrs.frozen
class TypeOf:
    arg: object  # Var (operand/result) or "operands"/"results"


@attrs.frozen
class FunctionalType:
    inputs: object
    results: object


@attrs.frozen
class AttrDict:
    with_keyword: bool


@attrs.frozen
class PropDict:
    """``prop-dict``: the inherent attributes no other element prints, as ``<a = 1, b>`` in declaration
    order; ``attr-dict`` then prints only the discardable ones (``OpFormatGen``'s ``genPropDictPrinter``)."""


@attrs.frozen
class Ref:
    arg: object


@attrs.frozen
class Custom:
    name: str
    args: tuple


@attrs.frozen
class Directive:
    name: str  # operands, results, regions


@attrs.frozen
class OptionalGroup:
    then: tuple
    otherwise: tuple
    anchor: object
    inverted: bool = False


@attrs.define
class Format:
    elements: tuple
    used_attributes: frozenset[str]
    decl: OpDecl


#: custom<Name> directives: name -> (parse(cur, state, *args), print(out, op, *args)).
DIRECTIVES: dict[str, tuple[Callable, Callable]] = {}


def directive(name: str):
    """Register a custom directive: decorate a class with static ``parse`` and ``print``."""

    def wrap(cls):
        DIRECTIVES[name] = (cls.parse, cls.print)
        return cls

    return wrap


# ---------------------------------------------------------------------------------------------
# Compiling a format string
# ---------------------------------------------------------------------------------------------
_TOKEN = re.compile(r"\s*(`[^`]*`|\$[A-Za-z_]\w*|custom<\w+>|attr-dict-with-keyword|attr-dict|prop-dict|"
                    r"functional-type|[A-Za-z_][\w-]*|\^|\(|\)|,|\?|:)")


class PrintGeneric(Exception):
    """Raised by a custom printer for a value its custom form cannot show: the op prints generic."""


class FormatSyntaxError(ValueError):
    """A malformed assembly format in a declaration (a bug in shardy_py, never user input)."""


def compile_format(text: str, decl: OpDecl) -> Format:
    """Compile ``text`` for ``decl`` (variables resolved against its operands, attributes, ...)."""
    tokens = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise FormatSyntaxError(f"{decl.name}: bad format at {text[pos:pos + 20]!r}")
        tokens.append(m.group(1))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    used: set[str] = set()
    elements, rest = _elements(tokens, 0, decl, used, top=True)
    if rest != len(tokens):
        raise FormatSyntaxError(f"{decl.name}: unexpected {tokens[rest]!r} in format")
    return Format(tuple(elements), frozenset(used), decl)


def compiled_format(decl: OpDecl) -> Format | None:
    """``decl``'s assembly format compiled (once; kept on the declaration), None when it has none."""
    fmt = decl._compiled
    if fmt is None and decl.format is not None:
        fmt = decl._compiled = compile_format(decl.format, decl)
    return fmt


def _var(name: str, decl: OpDecl, used: set[str]) -> Var:
    if decl.operand(name):
        return Var(name, "operand")
    if decl.result(name):
        return Var(name, "result")
    if decl.attr(name):
        used.add(name)
        return Var(name, "attr")
    if decl.region(name) is not None:
        return Var(name, "region")
    raise FormatSyntaxError(f"{decl.name}: unknown variable ${name}")


def _arg(tokens: list[str], i: int, decl: OpDecl, used: set[str]) -> tuple[object, int]:
    t = tokens[i]
    if t.startswith("$"):
        return _var(t[1:], decl, used), i + 1
    if t in ("operands", "results", "regions"):
        return t, i + 1
    if t in ("type", "ref", "qualified"):
        assert tokens[i + 1] == "("
        inner, j = _arg(tokens, i + 2, decl, used)
        assert tokens[j] == ")"
        if t == "type":
            return TypeOf(inner), j + 1
        if t == "ref":
            return Ref(inner), j + 1
        return inner, j + 1
    if t in ("attr-dict", "attr-dict-with-keyword"):
        return AttrDict(t.endswith("keyword")), i + 1
    raise FormatSyntaxError(f"{decl.name}: bad directive argument {t!r}")


def _elements(tokens: list[str], i: int, decl: OpDecl, used: set[str], top: bool = False,
              anchor_box: list | None = None) -> tuple[list, int]:
    out: list = []
    while i < len(tokens):
        t = tokens[i]
        if t == ")":
            break
        if t.startswith("`"):
            lit = t[1:-1]
            out.append(Space(lit == " ") if lit in ("", " ") else Literal(lit))
            i += 1
        elif t == "^":
            if anchor_box is None:
                raise FormatSyntaxError(f"{decl.name}: '^' outside an optional group")
            anchor_box.append(out[-1])
            i += 1
        elif t.startswith("$"):
            out.append(_var(t[1:], decl, used))
            i += 1
        elif t in ("attr-dict", "attr-dict-with-keyword"):
            out.append(AttrDict(t.endswith("keyword")))
            i += 1
        elif t == "prop-dict":
            out.append(PropDict())
            i += 1
        elif t in ("operands", "results", "regions"):
            out.append(Directive(t))
            i += 1
        elif t in ("type", "ref", "qualified"):
            arg, i = _arg(tokens, i, decl, used)
            out.append(arg)
        elif t == "functional-type":
            assert tokens[i + 1] == "("
            ins, j = _arg(tokens, i + 2, decl, used)
            assert tokens[j] == ","
            outs, j = _arg(tokens, j + 1, decl, used)
            assert tokens[j] == ")"
            out.append(FunctionalType(ins, outs))
            i = j + 1
        elif t.startswith("custom<"):
            name = t[7:-1]
            assert tokens[i + 1] == "("
            args = []
            j = i + 2
            while tokens[j] != ")":
                a, j = _arg(tokens, j, decl, used)
                args.append(a)
                if tokens[j] == ",":
                    j += 1
            out.append(Custom(name, tuple(args)))
            i = j + 1
        elif t == "(":
            box: list = []
            then, j = _elements(tokens, i + 1, decl, used, anchor_box=box)
            assert tokens[j] == ")"
            j += 1
            otherwise: list = []
            if j < len(tokens) and tokens[j] == ":":
                assert tokens[j + 1] == "("
                otherwise, j = _elements(tokens, j + 2, decl, used, anchor_box=box)
                assert tokens[j] == ")"
                j += 1
            inverted = False
            if j < len(tokens) and tokens[j] == "?":
                j += 1
            if not box:
                raise FormatSyntaxError(f"{decl.name}: optional group without an anchor")
            out.append(OptionalGroup(tuple(then), tuple(otherwise), box[0], inverted))
            i = j
        else:
            raise FormatSyntaxError(f"{decl.name}: unknown format token {t!r}")
    return out, i


# ---------------------------------------------------------------------------------------------
# Printing
# ---------------------------------------------------------------------------------------------


def _should_space_before(value: str, last_punct: bool) -> bool:
    if len(value) != 1 and value != "->":
        return True
    if last_punct:
        return value[0] not in ">)}],"
    return value[0] not in "<>(){}[],"


class FormatPrinter:
    """Prints one op through its compiled format onto ``out`` (a ``syntax.op_printer.OpWriter``)."""

    def __init__(self, fmt: Format, op, out):
        self.fmt = fmt
        self.decl = fmt.decl
        self.op = op
        self.out = out
        self.space = True
        self.punct = False

    def run(self) -> None:
        for el in self.fmt.elements:
            self.element(el)

    def literal(self, value: str) -> None:
        if self.space and _should_space_before(value, self.punct):
            self.out.write(" ")
        self.out.write(value)
        self.space = len(value) != 1 or value[0] not in "<({["
        self.punct = value[0] != "_" and not value[0].isalpha()

    def element(self, el) -> None:
        out = self.out
        if isinstance(el, Literal):
            self.literal(el.text)
            return
        if isinstance(el, Space):
            if el.value:
                out.write(" ")
                self.punct = False
            else:
                self.punct = True
            self.space = False
            return
        if isinstance(el, OptionalGroup):
            present = self.present(el.anchor)
            if present != el.inverted:
                elided = el.anchor if (isinstance(el.anchor, Var) and el.anchor.kind == "attr"
                                       and self.decl.attr(el.anchor.name).form == "unit"
                                       and el.anchor is not el.then[0]) else None
                for child in el.then:
                    if child is not elided:
                        self.element(child)
            else:
                for child in el.otherwise:
                    self.element(child)
            return
        if isinstance(el, AttrDict):
            elided = self.elided()
            if any(isinstance(e, PropDict) for e in self.fmt.elements):
                elided |= self.decl.attribute_names
            out.attr_dict(self.op, elided, el.with_keyword)
            self.punct = False
            return
        if isinstance(el, PropDict):
            out.prop_dict(self.op, [a.name for a in self.decl.attributes if a.name not in self.elided()])
            self.punct = False
            return
        if self.space or not self.punct:
            out.write(" ")
        self.punct = False
        self.space = True
        if isinstance(el, Var):
            self.var(el)
        elif isinstance(el, TypeOf):
            out.write(", ".join(str(t) for t in self.types_of(el.arg)))
        elif isinstance(el, FunctionalType):
            out.write(out.functional_type(self.types_of(el.inputs), self.types_of(el.results)))
        elif isinstance(el, Directive):
            if el.name == "operands":
                out.write(", ".join(out.operand(self.op, i) for i in range(len(self.op.operands))))
            elif el.name == "regions":
                for k, r in enumerate(self.op.regions):
                    if k:
                        out.write(", ")
                    out.region(r, terminators=self.print_terminators(r))
        elif isinstance(el, Custom):
            fn = DIRECTIVES[el.name][1]
            fn(out, self.op, *[self.custom_arg(a) for a in el.args])

    def elided(self) -> set[str]:
        names = set(self.fmt.used_attributes)
        if "AttrSizedOperandSegments" in self.decl.traits:
            names.add("operandSegmentSizes")
        if "AttrSizedResultSegments" in self.decl.traits:
            names.add("resultSegmentSizes")
        # default-valued attributes equal to their default are not printed
        for a in self.decl.attributes:
            if a.default is not None and self.op.properties_view.get(a.name) == a.default:
                names.add(a.name)
        return names

    def print_terminators(self, region) -> bool:
        if "SingleBlockImplicitTerminator" not in self.decl.traits or not region.blocks:
            return True
        ops = region.blocks[0].ops
        if not ops:
            return True
        term = ops[-1]
        return bool(term.attributes_view or term.properties_view or term.operands or term.results)

    def var(self, v: Var) -> None:
        out, op = self.out, self.op
        if v.kind == "operand":
            out.write(", ".join(out.operand(op, i) for i in operand_indices(op, self.decl, v.name)))
        elif v.kind == "attr":
            a = op.properties_view.get(v.name)
            d = self.decl.attr(v.name)
            if a is None and not d.optional and d.default is None and d.form != "unit":
                raise PrintGeneric  # a required attribute missing (invalid IR the verifier reports): kept absent
            out.write(out.attr_in_format(a, d.form, d.codec))
        elif v.kind == "region":
            for k, region in enumerate(region_group(op, self.decl, v.name)):
                if k:
                    out.write(", ")
                out.region(region, terminators=self.print_terminators(region))
        elif v.kind == "result":
            out.write(", ".join(out.value(x) for x in result_group(op, self.decl, v.name)))

    def types_of(self, arg) -> list:
        op = self.op
        if arg == "operands":
            return op_operand_types(op)
        if arg == "results":
            return [r.type for r in op.results]
        if isinstance(arg, Var) and arg.kind == "operand":
            idx = operand_indices(op, self.decl, arg.name)
            types = op_operand_types(op)
            return [types[i] for i in idx]
        if isinstance(arg, Var) and arg.kind == "result":
            return [r.type for r in result_group(op, self.decl, arg.name)]
        raise FormatSyntaxError(f"type() of {arg!r}")

    def present(self, anchor) -> bool:
        op = self.op
        if isinstance(anchor, TypeOf):
            anchor = anchor.arg
        if isinstance(anchor, FunctionalType):
            anchor = anchor.inputs
        if isinstance(anchor, Var):
            if anchor.kind == "operand":
                return bool(operand_indices(op, self.decl, anchor.name))
            if anchor.kind == "result":
                return bool(result_group(op, self.decl, anchor.name))
            if anchor.kind == "attr":
                a = op.properties_view.get(anchor.name)
                d = self.decl.attr(anchor.name)
                if a is None:
                    return False
                return not (d.default is not None and a == d.default)
            if anchor.kind == "region":
                return any(r.blocks for r in region_group(op, self.decl, anchor.name))
        if isinstance(anchor, Custom):
            return any(self.present(a) for a in anchor.args)
        return True

    def custom_arg(self, a):
        op = self.op
        if isinstance(a, Ref):
            a = a.arg
        if isinstance(a, Var):
            if a.kind == "operand":
                return operand_group(op, self.decl, a.name)
            if a.kind == "attr":
                return op.properties_view.get(a.name)
            if a.kind == "region":
                group = region_group(op, self.decl, a.name)
                return group if self.decl.regions[self.decl.region(a.name)].variadic else group[0]
            if a.kind == "result":
                return result_group(op, self.decl, a.name)
        if isinstance(a, TypeOf):
            types = self.types_of(a.arg)
            var = a.arg
            if isinstance(var, Var):
                kind = (self.decl.operand(var.name) or self.decl.result(var.name))[1].kind
                if kind == VARIADIC:
                    return types
                if kind == OPTIONAL:
                    return types[0] if types else None
                return types[0] if types else None
            return types
        if isinstance(a, AttrDict):
            return op.attributes_view
        return a


# ---------------------------------------------------------------------------------------------
# Operand groups
# ---------------------------------------------------------------------------------------------


def op_operand_types(op) -> list:
    """Operand types: the values' types, or the types the text stated where a value is unknown."""
    out = []
    written = op.operand_types_view
    for i, v in enumerate(op.operands):
        t = v.type if v is not None and v.type is not None else (written[i] if i < len(written) else None)
        out.append(t)
    return out


def _segments(op, defs, sizes_attr: str, same_size_trait: str, decl: OpDecl, count: int) -> list[int]:
    if len(defs) == 1:
        return [count]
    sizes = op.properties_view.get(sizes_attr)
    if sizes is not None:
        return list(getattr(sizes, "values", sizes))
    variadic = [d for d in defs if d.kind in (VARIADIC, OPTIONAL)]
    fixed = len(defs) - len(variadic)
    if not variadic:
        return [1] * len(defs)
    each = (count - fixed) // len(variadic) if variadic else 0
    return [each if d.kind in (VARIADIC, OPTIONAL) else 1 for d in defs]


def operand_indices(op, decl: OpDecl, name: str) -> list[int]:
    """Indices into ``op.operands`` of operand group ``name``."""
    sizes = _segments(op, decl.operands, "operandSegmentSizes", "SameVariadicOperandSize", decl, len(op.operands))
    start = 0
    for d, n in zip(decl.operands, sizes, strict=False):
        if d.name == name:
            return list(range(start, start + n))
        start += n
    return []


def operand_group(op, decl: OpDecl, name: str) -> list:
    return [op.operands[i] for i in operand_indices(op, decl, name)]


def result_group(op, decl: OpDecl, name: str) -> list:
    sizes = _segments(op, decl.results, "resultSegmentSizes", "SameVariadicResultSize", decl, len(op.results))
    start = 0
    for d, n in zip(decl.results, sizes, strict=False):
        if d.name == name:
            return op.results[start:start + n]
        start += n
    return []


def region_group(op, decl: OpDecl, name: str) -> list:
    """The regions of region group ``name`` (a variadic group takes what the fixed ones leave)."""
    fixed = sum(1 for r in decl.regions if not r.variadic)
    start = 0
    for r in decl.regions:
        n = (len(op.regions) - fixed) if r.variadic else 1
        if r.name == name:
            return op.regions[start:start + n]
        start += n
    return []
