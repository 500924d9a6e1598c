"""The declarative assembly-format engine: one ODS ``assemblyFormat`` string gives both the parser
and the printer of an op.

The format language is MLIR's (``mlir-tblgen`` OpFormatGen): literals in backquotes (`` `dim` ``,
`` `,` ``; `` ` ` `` is a space and `` `` `` suppresses one), variables (``$lhs``), directives
(``attr-dict``, ``attr-dict-with-keyword``, ``prop-dict``, ``type($x)``, ``functional-type(operands, results)``,
``operands``, ``results``, ``regions``, ``ref($x)``, ``qualified($x)``, ``custom<Name>(args)``) and
optional groups ``( ... $anchor^ ... )?`` with an optional else group ``: ( ... )``.
Spacing follows the generated printers exactly (``shouldEmitSpace`` / ``lastWasPunctuation``).

Custom directives are pairs of functions registered in ``DIRECTIVES`` (the dialect modules add
them).  ``syntax.format_parse`` reads an op through its compiled format, ``syntax.format_print``
prints one.
"""
from __future__ import annotations

import re
from collections.abc import Callable

import attrs

from shardy_py.dialects.registry import OpDecl

# ---------------------------------------------------------------------------------------------
# Format elements
# ---------------------------------------------------------------------------------------------


@attrs.frozen
class Literal:
    text: str
    #: How the printer spaces it (``shouldEmitSpace`` / ``lastWasPunctuation``), worked out once: a
    #: space before it after punctuation / after anything else, and the state it leaves.
    space_after_punct: bool = attrs.field(init=False, eq=False, repr=False)
    space_after_other: bool = attrs.field(init=False, eq=False, repr=False)
    space_next: bool = attrs.field(init=False, eq=False, repr=False)
    punct_next: bool = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        value = self.text
        set_ = object.__setattr__
        set_(self, "space_after_punct", _should_space_before(value, True))
        set_(self, "space_after_other", _should_space_before(value, False))
        set_(self, "space_next", len(value) != 1 or value[0] not in "<({[")
        set_(self, "punct_next", value[0] != "_" and not value[0].isalpha())


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
    #: How the printer gets the arguments (``syntax.format_print``), worked out on first use: an element
    #: belongs to the one compiled format of one declaration.
    getters: tuple | None = attrs.field(default=None, init=False, eq=False, repr=False)


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
    #: Whether a ``prop-dict`` prints the inherent attributes (then ``attr-dict`` prints none of them).
    has_prop_dict: bool = False
    #: The attributes no ``attr-dict`` or ``prop-dict`` prints: those the format writes itself and the
    #: segment sizes; and the (name, default) of the attributes not printed at their default.
    always_elided: frozenset[str] = frozenset()
    defaults: tuple = ()
    #: The printing steps (``_plan``).
    plan: tuple = ()


@attrs.frozen
class TextStep:
    """Literals and spaces printed as one text, and the spacing state they leave (``_plan``)."""

    text: str
    space: bool
    punct: bool


#: The elements that print a value (an operand, attribute, type, directive), after a space or not.
VALUE_ELEMENTS = (Var, TypeOf, FunctionalType, Directive, Custom)


def _plan(elements) -> tuple:
    """The printing steps of ``elements``: where the spacing state (``space``, ``punct``) before a run of
    literals and spaces is known when the format is compiled, the run is one ``TextStep``; a value
    element (operand, attribute, type, directive) where it is known is ``(element, lead)`` with
    ``lead`` whether a space comes first; anything else (an optional group, and what follows it
    until the state is known again) is ``(element, None)``, spaced as the op prints."""
    steps: list = []
    state: tuple[bool, bool] | None = (True, False)
    run: list[str] = []

    def flush() -> None:
        if run:
            steps.append(TextStep("".join(run), *state))
            run.clear()

    for el in elements:
        kind = type(el)
        if kind is Space:
            if state is None:
                steps.append((el, None))
            else:
                run.append(" " if el.value else "")
            state = (False, not el.value)
        elif kind is Literal:
            if state is None:
                steps.append((el, None))
            else:
                space, punct = state
                run.append(" " + el.text if space and (el.space_after_punct if punct else el.space_after_other)
                           else el.text)
            state = (el.space_next, el.punct_next)
        elif kind in VALUE_ELEMENTS:
            flush()
            steps.append((el, None if state is None else state[0] or not state[1]))
            state = (True, False)
        elif kind in (AttrDict, PropDict):
            flush()
            steps.append((el, None))
            state = None if state is None else (state[0], False)
        else:
            flush()
            steps.append((el, None))
            state = None
    flush()
    return tuple(steps)


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
    elided = set(used)
    if "AttrSizedOperandSegments" in decl.traits:
        elided.add("operandSegmentSizes")
    if "AttrSizedResultSegments" in decl.traits:
        elided.add("resultSegmentSizes")
    return Format(tuple(elements), frozenset(used), decl, any(isinstance(e, PropDict) for e in elements),
                  frozenset(elided), tuple((a.name, a.default) for a in decl.attributes if a.default is not None),
                  _plan(elements))


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


def _should_space_before(value: str, last_punct: bool) -> bool:
    if len(value) != 1 and value != "->":
        return True
    if last_punct:
        return value[0] not in ">)}],"
    return value[0] not in "<>(){}[],"
