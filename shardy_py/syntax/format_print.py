"""Printing an op through its compiled assembly format (the writing half of ``syntax.format``), and the
operand, result and region groups of a declared op."""
from __future__ import annotations

from shardy_py.dialects.registry import OPTIONAL, VARIADIC, OpDecl
from shardy_py.syntax.format import (
    DIRECTIVES,
    AttrDict,
    Custom,
    Directive,
    Format,
    FormatSyntaxError,
    FunctionalType,
    Literal,
    OptionalGroup,
    PrintGeneric,
    PropDict,
    Ref,
    Space,
    TextStep,
    TypeOf,
    Var,
)


class FormatPrinter:
    """Prints one op through its compiled format onto ``out`` (a ``syntax.op_writer.OpWriter``)."""

    def __init__(self, fmt: Format, op, out):
        self.fmt = fmt
        self.decl = fmt.decl
        self.op = op
        self.out = out
        self.space = True
        self.punct = False

    def run(self) -> None:
        """Print the format's steps (``Format.plan``): text whose spacing the compiler worked out,
        values after a space (or none) it worked out, and elements spaced as the op prints."""
        printers, values, out = _ELEMENT_PRINTERS, _VALUE_PRINTERS, self.out
        for step in self.fmt.plan:
            if type(step) is TextStep:
                if step.text:
                    out.write(step.text)
                self.space, self.punct = step.space, step.punct
                continue
            el, lead = step
            if lead is None:
                printers[type(el)](self, el)
            else:
                if lead:
                    out.write(" ")
                self.space, self.punct = True, False
                values[type(el)](self, el)

    def literal(self, value: str) -> None:
        self._literal(Literal(value))

    def element(self, el) -> None:
        _ELEMENT_PRINTERS[type(el)](self, el)

    def _literal(self, el: Literal) -> None:
        if self.space and (el.space_after_punct if self.punct else el.space_after_other):
            self.out.write(" ")
        self.out.write(el.text)
        self.space = el.space_next
        self.punct = el.punct_next

    def _space(self, el: Space) -> None:
        if el.value:
            self.out.write(" ")
            self.punct = False
        else:
            self.punct = True
        self.space = False

    def _group(self, el: OptionalGroup) -> None:
        printers = _ELEMENT_PRINTERS
        if self.present(el.anchor) != el.inverted:
            elided = el.anchor if (isinstance(el.anchor, Var) and el.anchor.kind == "attr"
                                   and self.decl.attr(el.anchor.name).form == "unit"
                                   and el.anchor is not el.then[0]) else None
            for child in el.then:
                if child is not elided:
                    printers[type(child)](self, child)
        else:
            for child in el.otherwise:
                printers[type(child)](self, child)

    def _attr_dict(self, el: AttrDict) -> None:
        elided = self.elided()
        if self.fmt.has_prop_dict:
            elided |= self.decl.attribute_names
        self.out.attr_dict(self.op, elided, el.with_keyword)
        self.punct = False

    def _prop_dict(self, el: PropDict) -> None:
        elided = self.elided()
        self.out.prop_dict(self.op, [a.name for a in self.decl.attributes if a.name not in elided])
        self.punct = False

    def _spaced(self) -> None:
        """The space an operand, attribute, type, region or custom directive starts with."""
        if self.space or not self.punct:
            self.out.write(" ")
        self.punct = False
        self.space = True

    def _var(self, el: Var) -> None:
        self._spaced()
        self.var(el)

    def _type(self, el: TypeOf) -> None:
        self._spaced()
        self._type_text(el)

    def _type_text(self, el: TypeOf) -> None:
        self.out.write(", ".join(str(t) for t in self.types_of(el.arg)))

    def _functional_type(self, el: FunctionalType) -> None:
        self._spaced()
        self._functional_type_text(el)

    def _functional_type_text(self, el: FunctionalType) -> None:
        out = self.out
        out.write(out.functional_type(self.types_of(el.inputs), self.types_of(el.results)))

    def _directive(self, el: Directive) -> None:
        self._spaced()
        self._directive_text(el)

    def _directive_text(self, el: Directive) -> None:
        out, op = self.out, self.op
        if el.name == "operands":
            out.write(", ".join(out.operand(op, i) for i in range(len(op.operands))))
        elif el.name == "regions":
            for k, r in enumerate(op.regions):
                if k:
                    out.write(", ")
                out.region(r, terminators=self.print_terminators(r))

    def _custom(self, el: Custom) -> None:
        self._spaced()
        self._custom_text(el)

    def _custom_text(self, el: Custom) -> None:
        getters = el.getters
        if getters is None:
            getters = tuple(_arg_getter(self.decl, a) for a in el.args)
            object.__setattr__(el, "getters", getters)  # (a frozen element's one cache)
        DIRECTIVES[el.name][1](self.out, self.op, *[get(self) for get in getters])

    def elided(self) -> set[str]:
        """The attributes neither ``attr-dict`` nor ``prop-dict`` prints: those the format writes itself,
        the segment sizes, and the default-valued ones equal to their default."""
        names = set(self.fmt.always_elided)
        if self.fmt.defaults:
            props = self.op.properties_view
            for name, default in self.fmt.defaults:
                if props.get(name) == default:
                    names.add(name)
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


def _arg_getter(decl: OpDecl, a):
    """A function(printer) giving custom-directive argument ``a`` of an op of ``decl`` (``custom_arg``,
    with the common attribute and single-region cases worked out once)."""
    arg = a.arg if isinstance(a, Ref) else a
    if isinstance(arg, Var) and arg.kind == "attr":
        name = arg.name
        return lambda p: p.op.properties_view.get(name)
    if isinstance(arg, Var) and arg.kind == "region" and len(decl.regions) == 1 and not decl.regions[0].variadic:
        return lambda p: p.op.regions[0]
    return lambda p: p.custom_arg(a)


#: The printer of each kind of value element, after its space.
_VALUE_PRINTERS = {Var: FormatPrinter.var, TypeOf: FormatPrinter._type_text,
                   FunctionalType: FormatPrinter._functional_type_text, Directive: FormatPrinter._directive_text,
                   Custom: FormatPrinter._custom_text}
#: The printer of each kind of format element.
_ELEMENT_PRINTERS = {
    Literal: FormatPrinter._literal, Space: FormatPrinter._space, OptionalGroup: FormatPrinter._group,
    AttrDict: FormatPrinter._attr_dict, PropDict: FormatPrinter._prop_dict, Var: FormatPrinter._var,
    TypeOf: FormatPrinter._type, FunctionalType: FormatPrinter._functional_type,
    Directive: FormatPrinter._directive, Custom: FormatPrinter._custom,
}


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
