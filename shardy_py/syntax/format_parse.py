"""Parsing an op through its compiled assembly format (the reading half of ``syntax.format``)."""
from __future__ import annotations

import re

from shardy_py.dialects.registry import OPTIONAL, VARIADIC, OpDecl
from shardy_py.ir import attrs as A
from shardy_py.syntax.format import (
    DIRECTIVES,
    AttrDict,
    Custom,
    Directive,
    Format,
    FunctionalType,
    Literal,
    OptionalGroup,
    PropDict,
    Ref,
    Space,
    TypeOf,
    Var,
)


class ParseState:
    """What the format has read so far, by variable: operand names and types, result types,
    attributes and regions.  Custom directives fill it through ``set_*``."""

    def __init__(self, decl: OpDecl):
        self.decl = decl
        self.operands: dict[str, list[str]] = {}
        self.operand_types: dict[str, list] = {}
        self.result_types: dict[str, list] = {}
        self.all_operands: list[str] | None = None
        self.all_operand_types: list | None = None
        self.all_result_types: list | None = None
        self.properties: dict[str, A.Attr] = {}
        self.attributes: dict[str, A.Attr] | None = None
        self.attribute_locs: dict = {}
        self.regions: dict[str, list] = {}
        self.all_regions: list | None = None
        #: Entry-block arguments a custom syntax declares outside its regions: per region, a list of
        #: (name, type, offset[, location text[, attributes]]) (``while(%iterArg = ...)``,
        #: ``reduce ... reducer(%a: T, ...)``, ``sdy.manual_computation(...) (%arg0: T {attrs}) {...}``).
        self.region_args: list[list] | None = None
        #: A function(op) -> regions for regions the syntax implies without writing them.
        self.build_regions = None
        #: Where each operand group's names start (for the errors about them).
        self.operand_at: dict[str, int] = {}
        #: Set by a directive whose region is read where it is written, before the rest of the op (sdy's
        #: ``SingleBlockRegionNoBlockId``): an error after it comes after the region's own errors.
        self.regions_first = False

    # -- setters used by custom directives --------------------------------------------------------
    def set_operands(self, var, names: list[str]) -> None:
        var = var.arg if isinstance(var, Ref) else var
        if var == "operands":
            self.all_operands = names
        else:
            self.operands[var.name] = names

    def set_types(self, typeof, types: list) -> None:
        arg = typeof.arg if isinstance(typeof, TypeOf) else typeof
        if isinstance(arg, Ref):
            arg = arg.arg
        if arg == "operands":
            self.all_operand_types = list(types)
        elif arg == "results":
            self.all_result_types = list(types)
        elif arg.kind == "operand":
            self.operand_types[arg.name] = list(types)
        else:
            self.result_types[arg.name] = list(types)

    def set_attr(self, var, value) -> None:
        var = var.arg if isinstance(var, Ref) else var
        if value is not None:
            self.properties[var.name] = value

    def set_region(self, var, raws: list) -> None:
        self.regions[var.name] = raws

    def operand_names_of(self, var) -> list[str]:
        var = var.arg if isinstance(var, Ref) else var
        return self.operands.get(var.name, [])


def _is_keyword(text: str) -> bool:
    return text[:1].isalpha() or text[:1] == "_"


class FormatParser:
    """Reads one op's text after its name with ``cur`` (a ``syntax.cursor.Cursor``)."""

    def __init__(self, fmt: Format, cur, state: ParseState):
        self.fmt = fmt
        self.decl = fmt.decl
        self.cur = cur
        self.state = state

    def run(self) -> None:
        hit = _STEPS.get(id(self.fmt))
        steps = hit[1] if hit is not None and hit[0] is self.fmt else _read_steps(self.fmt)
        for read, arg in steps:
            read(self, arg)
        st = self.state
        for name in _typed_operands(self.fmt):  # (ODS's resolveOperands: one written type per operand)
            names, types = st.operands.get(name), st.operand_types.get(name, [])
            if names is not None and len(names) != len(types):
                raise self.cur.error(f"number of operands and types do not match: got {len(names)} operands and "
                                     f"{len(types)} types", st.operand_at.get(name))
        types = st.all_operand_types
        if types is not None:  # (`functional-type(operands, ...)`: one type per operand, all groups together)
            names = st.all_operands
            if names is None:
                names = [n for group in st.operands.values() for n in group]
            if len(names) != len(types):
                at = st.operand_at.get("operands", min(st.operand_at.values(), default=None))
                raise self.cur.error(f"number of operands and types do not match: got {len(names)} operands and "
                                     f"{len(types)} types", at)

    def literal(self, text: str) -> None:
        if _is_keyword(text):
            self._keyword(text)
        else:
            self._punctuation(text)

    def _keyword(self, text: str) -> None:
        cur = self.cur
        if not cur.keyword(text):
            raise cur.error(f"expected '{text}', found {cur.found()}")

    def _punctuation(self, text: str) -> None:
        expect = self.decl.expect
        self.cur.expect(text, expect.get(text) if expect else None)

    def element(self, el) -> None:
        _ELEMENT_READERS[type(el)](self, el)

    def _literal(self, el: Literal) -> None:
        self.literal(el.text)

    def _space(self, el: Space) -> None:
        return

    def _group(self, el: OptionalGroup) -> None:
        readers = _ELEMENT_READERS
        first = next((e for e in el.then if not isinstance(e, Space)), el.then[0])
        if self.starts(first):
            anchor = el.anchor
            for child in el.then:
                readers[type(child)](self, child)
            if isinstance(anchor, Var) and anchor.kind == "attr" and self.decl.attr(anchor.name).form == "unit":
                self.state.properties[anchor.name] = A.UNIT_ATTR
        else:
            if isinstance(first, Var) and first.kind == "operand" and self.cur.at_end():
                _operands_past_the_end(self.cur)
            for child in el.otherwise:
                readers[type(child)](self, child)

    def _attr_dict(self, el: AttrDict) -> None:
        cur, st = self.cur, self.state
        if el.with_keyword and not cur.keyword("attributes"):
            return
        d = cur.attr_dict()
        if d is not None:
            entries, locs = d
            st.attributes = entries
            st.attribute_locs = {**st.attribute_locs, **locs}

    def _prop_dict(self, el: PropDict) -> None:
        self.prop_dict()

    def _type(self, el: TypeOf) -> None:
        st = self.state
        types = self.types_for(el.arg)
        arg = el.arg
        if isinstance(arg, Var) and arg.kind == "operand" and arg.name in st.operands:
            names = st.operands[arg.name]
            if len(names) != len(types):  # (``resolveOperands``)
                raise self.cur.error(f"{len(names)} operands but {len(types)} types")
        st.set_types(el, types)

    def _functional_type(self, el: FunctionalType) -> None:
        ins, outs = self.cur.function_type()
        self.state.set_types(TypeOf(el.inputs), ins)
        self.state.set_types(TypeOf(el.results), outs)

    def _directive(self, el: Directive) -> None:
        cur, st = self.cur, self.state
        if el.name == "operands":
            st.operand_at["operands"] = cur.ws()
            st.all_operands = cur.value_uses()
        elif el.name == "regions":
            raws = [cur.region()]
            while cur.accept(","):
                raws.append(cur.region())
            st.all_regions = raws

    def _custom(self, el: Custom) -> None:
        DIRECTIVES[el.name][0](self.cur, self.state, *el.args)

    def prop_dict(self) -> None:
        """``prop-dict``: an optional ``<{a = 1, b}>`` or ``<a = 1, b>`` of inherent attributes."""
        cur, st = self.cur, self.state
        cur.ws()
        if not cur.peek("<"):
            return
        start, end = cur.balanced()
        inner = cur.p.scanner.skip_ws(start + 1)
        if cur.text[inner] == "{":
            close = cur.p.scanner.match_bracket(inner)
            if cur.p.scanner.skip_ws(close) != end - 1:
                raise cur.error(f"'{cur.opname}': expected '>' after the property dictionary")
            start, end = inner, close
        entries, locs = cur.p.attr_dict(start, end)
        st.properties.update(entries)
        st.attribute_locs = {**st.attribute_locs, **locs}

    def var(self, v: Var) -> None:
        cur, st = self.cur, self.state
        if v.kind == "operand":
            kind = self.decl.operand(v.name)[1].kind
            st.operand_at[v.name] = cur.ws()
            if kind == VARIADIC:
                st.operands[v.name] = cur.value_uses()
            elif kind == OPTIONAL:
                st.operands[v.name] = [cur.value_use()] if cur.peek("%") else []
            else:
                st.operands[v.name] = [cur.value_use()]
        elif v.kind == "attr":
            d = self.decl.attr(v.name)
            if d.form == "unit":  # a unit attribute is only its group's anchor: nothing is written
                st.properties[v.name] = A.UNIT_ATTR
                return
            if d.loc_key is not None:
                st.properties[d.loc_key] = cur.p.loc(cur.ws())
            st.properties[v.name] = cur.attribute_in_format(d)
        elif v.kind == "region":
            if self.decl.regions[self.decl.region(v.name)].variadic:
                raws = []
                if cur.at_brace():
                    raws.append(cur.region())
                    while cur.accept(","):
                        raws.append(cur.region())
                st.regions[v.name] = raws
            else:
                st.regions[v.name] = [cur.region()]
        else:
            raise cur.error(f"results cannot be written inside '{self.decl.name}'")

    def types_for(self, arg) -> list:
        cur = self.cur
        if isinstance(arg, Var):
            defn = (self.decl.operand(arg.name) or self.decl.result(arg.name))[1]
            if defn.kind == VARIADIC:  # (ODS's parseTypeList: at least one type)
                return cur.types()
            if defn.kind == OPTIONAL:
                return [cur.type()] if cur.at_type() else []
            return [cur.type()]
        return cur.types()  # (``type(results)``: ODS's ``parseTypeList``, at least one type)

    def starts(self, el) -> bool:
        """Whether the optional group that begins with ``el`` is present at the cursor."""
        cur = self.cur
        if isinstance(el, Literal):
            if _is_keyword(el.text):
                save = cur.pos
                ok = cur.keyword(el.text)
                cur.pos = save
                return ok
            return cur.peek(el.text)
        if isinstance(el, Space):
            return True
        if isinstance(el, Var):
            if el.kind == "operand":
                return cur.peek("%")
            if el.kind == "region":
                return cur.at_brace()
            if el.kind == "attr":
                return cur.at_attribute(self.decl.attr(el.name))
        if isinstance(el, TypeOf):
            return cur.at_type()
        if isinstance(el, Custom):
            probe = getattr(DIRECTIVES[el.name][0], "starts", None)
            return probe(cur) if probe else True
        return True


_VALUE_LIST = re.compile(r"%[\w$.-]+(?:#\d+)?(?:\s*,\s*%[\w$.-]+(?:#\d+)?)*")


def _operands_past_the_end(cur) -> None:
    """MLIR's error where an op's optional operand group is absent at the end of its text and the text after it
    starts with a value (``return`` before a line ``%2 = ...``): MLIR reads on across the line break, takes the
    values as the group's operands and fails at the ':' their types need."""
    from shardy_py.syntax.attr_reader import _cached_type
    from shardy_py.syntax.scanner import wrong_token_offset

    text, p = cur.text, cur.p
    values = _VALUE_LIST.match(text, p.scanner.skip_ws(cur.end))
    if values is None:
        return
    after = p.scanner.skip_ws(values.end())
    where = f"'{cur.opname}': "
    if not text.startswith(":", after):
        raise p.error(wrong_token_offset(text, after), where + "expected ':' after the operands (MLIR reads the "
                      f"values '{values.group()[:20]}' after the op as its operands)")
    start = p.scanner.skip_ws(after + 1)
    line_end = text.find("\n", start)
    _, err = _cached_type(text[start:line_end if line_end >= 0 else len(text)])
    if err is not None:
        raise p.error(wrong_token_offset(text, start + err.offset), where + err.message)


#: The reader of each kind of format element.
_ELEMENT_READERS = {
    Literal: FormatParser._literal, Space: FormatParser._space, OptionalGroup: FormatParser._group,
    AttrDict: FormatParser._attr_dict, PropDict: FormatParser._prop_dict, Var: FormatParser.var,
    TypeOf: FormatParser._type, FunctionalType: FormatParser._functional_type,
    Directive: FormatParser._directive, Custom: FormatParser._custom,
}


#: ``run``'s steps per compiled format, by id (with the format, so that its id is not reused): (reader, its
#: argument) per element, a literal's reader chosen once, spaces (which parse nothing) left out.
_STEPS: dict[int, tuple] = {}


def _read_steps(fmt: Format) -> tuple:
    steps = []
    for el in fmt.elements:
        if type(el) is Space:
            continue
        if type(el) is Literal:
            steps.append((FormatParser._keyword if _is_keyword(el.text) else FormatParser._punctuation, el.text))
        else:
            steps.append((_ELEMENT_READERS[type(el)], el))
    _STEPS[id(fmt)] = (fmt, tuple(steps))
    return _STEPS[id(fmt)][1]


_TYPED: dict[int, tuple[str, ...]] = {}


def _typed_operands(fmt: Format) -> tuple[str, ...]:
    """The operand groups whose types ``fmt`` spells with ``type($name)`` (anywhere, optional groups too)."""
    hit = _TYPED.get(id(fmt))
    if hit is None:
        found: list[str] = []

        def walk(elements) -> None:
            for el in elements:
                if isinstance(el, OptionalGroup):
                    walk(el.then)
                    walk(el.otherwise)
                elif isinstance(el, TypeOf) and isinstance(el.arg, Var) and el.arg.kind == "operand":
                    found.append(el.arg.name)

        walk(fmt.elements)
        hit = _TYPED[id(fmt)] = tuple(found)
    return hit
