"""Printing a declared op in its custom form: the writer the format engine and custom directives
print onto (MLIR's ``OpAsmPrinter`` for one op)."""
from __future__ import annotations

import re

from shardy_py.dialects.registry import OpDecl
from shardy_py.ir import attrs as A
from shardy_py.ir.ops import Operation, Region
from shardy_py.syntax import attr_printer as P
from shardy_py.syntax.format import PrintGeneric, compiled_format
from shardy_py.syntax.format_print import FormatPrinter
from shardy_py.syntax.generic_printer import attr_entries, functional_type, print_generic

#: func ops that MLIR prints without their dialect directly inside a ``func.func`` body.
FUNC_DEFAULT_OPS = ("return", "call", "call_indirect", "constant")

_TYPED_NUMBER = re.compile(r"(-?(?:\d[\w.+-]*|0x[0-9a-fA-F]+)) : \S+\Z")


def without_type(a) -> str:
    """``printAttributeWithoutType``: an integer or float attribute without its ``: type``."""
    bare = getattr(a, "print_without_type", None)
    if bare is not None:
        return bare()
    text = str(a)
    m = _TYPED_NUMBER.match(text)
    return m.group(1) if m else text


class OpWriter:
    """The line being printed for one op, on a ``syntax.printer.Printer``."""

    def __init__(self, pr, indent: str):
        self.pr = pr
        self.indent = indent
        self.parts: list[str] = [indent]

    def write(self, text: str) -> None:
        self.parts.append(text)

    def value(self, v) -> str:
        return self.pr.value(v)

    def operand(self, op: Operation, index: int) -> str:
        """Operand ``index`` of ``op`` (its written name if it never resolved to a value)."""
        return self.pr.operand(op, index)

    def values(self, vs) -> str:
        return ", ".join(self.pr.value(v) for v in vs)

    functional_type = staticmethod(functional_type)

    def attr_dict(self, op: Operation, elided, with_keyword: bool = False) -> None:
        """``printOptionalAttrDict``: inherent and discardable attributes together, sorted."""
        attributes = op.attributes_view
        props = op.properties_view
        if attributes:
            merged = dict(props)
            merged.update(attributes)
        elif all(k in elided or not isinstance(v, A.Attr) for k, v in props.items()):
            return  # (nothing to print: the common case)
        else:
            merged = props
        text = attr_entries(merged, elided)
        if text:
            self.parts.append((" attributes {" if with_keyword else " {") + text + "}")

    def prop_dict(self, op: Operation, names: list[str]) -> None:
        """``prop-dict``: the properties named in ``names`` that ``op`` has, in that order, as ``<...>``."""
        props = op.properties_view
        text = ", ".join(attr_entries({k: props[k]}) for k in names if isinstance(props.get(k), A.Attr))
        if text:
            self.parts.append(" <" + text + ">")

    def attr_in_format(self, a, form: str, codec=None) -> str:
        if codec is not None:
            return codec.print(a)
        if a is None:
            return ""
        if form == "bare":
            return without_type(a)
        if form == "symbol":
            return P.symbol_ref(str(a)[1:-1] if str(a).startswith('"') else str(a))
        return str(a)

    def region(self, region: Region, entry_args: bool = True, terminators: bool = True) -> None:
        """``printRegion``: ``{``, the blocks one indent deeper, ``}`` on a line of its own."""
        self.parts.append("{")
        self.pr.out.append("".join(self.parts))
        self.pr.region(region, self.indent, entry_args=entry_args, terminators=terminators)
        self.parts = [self.indent, "}"]

    def newline(self) -> None:
        """``printNewline``: end the line; the next starts at the op's indentation."""
        self.pr.out.append("".join(self.parts))
        self.parts = [self.indent]

    def finish(self) -> None:
        self.pr.out.append("".join(self.parts))


class _Recorder(OpWriter):
    """An ``OpWriter`` that writes operand names as placeholders, to make a shape's print template."""

    def __init__(self, pr, op: Operation):
        super().__init__(pr, "")
        self.op = op

    def operand(self, op: Operation, index: int) -> str:
        return f"\x00{index}\x00"

    def value(self, v) -> str:
        found = [i for i, x in enumerate(self.op.operands) if x is v]
        if len(found) != 1:  # not an operand, or one used twice (whose slot the text cannot tell)
            raise _NotTemplatable
        return f"\x00{found[0]}\x00"



class _NotTemplatable(Exception):
    pass


#: Print templates of region-less ops by shape (name, properties, attributes, operand and result
#: types): a module repeats a few shapes thousands of times, and only the SSA names differ.
_TEMPLATES: dict = {}
_TEMPLATE_LIMIT = 65536
_PLACEHOLDER = re.compile(r"\x00(\d+)\x00")


def _template(pr, op: Operation, decl: OpDecl):
    """The op's printed text after its name, split at operand placeholders (text and operand indices in
    turn); None when not cacheable."""
    props, attributes = op.properties_view, op.attributes_view
    shared = type(props) is not dict and type(attributes) is not dict  # mappings shared by a shape: keyed by id
    recipe = op._deferred
    own = shared and recipe is not None and props is recipe.shared_props and attributes is recipe.shared_attributes
    if own:  # an op as its recipe built it: the recipe keeps the template of its shape (for one set of types)
        kept = recipe.print_template
        if kept is not None and _same_types(op, kept[0]):
            return kept[1]
    if None in op.operands:  # (an unresolved operand: its type is the written one, which the key does not hold)
        return None
    types = (tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
    if None in types[0] or None in types[1]:  # (a value of unknown type, of an unknown op: the written one prints)
        return None
    try:
        key = (op.name, id(props) if shared else tuple(props.items()),
               id(attributes) if shared else tuple(attributes.items()), types, len(op.operands), shared)
        hit = None if own else _TEMPLATES.get(key)
    except TypeError:
        return None
    if hit is not None:
        return hit[0]
    rec = _Recorder(pr, op)
    rec.parts = []
    try:
        if decl.print is not None:
            decl.print(rec, op)
        else:
            FormatPrinter(compiled_format(decl), op, rec).run()
    except Exception:  # noqa: BLE001 - any trouble: print this op the ordinary way
        return None
    text = "".join(rec.parts)
    if "\n" in text:
        return None
    if len(_TEMPLATES) >= _TEMPLATE_LIMIT:
        _TEMPLATES.clear()
    hit = _PLACEHOLDER.split(text)
    hit[1::2] = [int(i) for i in hit[1::2]]  # text, operand index, text, ...
    if own:
        if recipe.print_template is None:
            recipe.print_template = (types, hit)
        return hit
    # (a shared key holds its mappings, so that their ids are not reused while the entry lives)
    _TEMPLATES[key] = (hit, (props, attributes) if shared else None)
    return hit


def _same_types(op: Operation, types: tuple) -> bool:
    """Are ``op``'s operand and result value types ``types`` (made by ``_template``)?  Compared in place:
    a tuple per op would be one more allocation for every op printed."""
    ins, outs = types
    operands, results = op.operands, op.results
    if len(operands) != len(ins) or len(results) != len(outs):
        return False
    for i, v in enumerate(operands):
        t = v.type if v is not None else None
        if t is not ins[i] and t != ins[i]:
            return False
    for i, r in enumerate(results):
        if r.type is not outs[i] and r.type != outs[i]:
            return False
    return True


def print_declared(pr, op: Operation, indent: str, decl: OpDecl) -> None:
    """Print ``op`` in its custom form: results, name, then its format or hand-written printer."""
    name = op.name
    if name.startswith("func.") and name[5:] in FUNC_DEFAULT_OPS:
        parent = op.parent_op
        if parent is not None and parent.name == "func.func":
            name = name[5:]  # func is the default dialect inside a function body
    elif name.startswith("builtin."):
        name = name[8:]  # (MLIR prints the builtin ops without their dialect)
    if not op.regions and pr.names is not None:
        pieces = _template(pr, op, decl)
        if pieces is not None:
            parts = [indent, pr.results(op), name]
            for k, piece in enumerate(pieces):
                parts.append(piece if k % 2 == 0 else pr.operand(op, piece))
            parts.append(pr.loc(op.location_text))
            pr.out.append("".join(parts))
            return
    w = OpWriter(pr, indent)
    w.write(pr.results(op) + name)
    mark = len(pr.out.pending), len(pr.out.chunks)
    try:
        if decl.print is not None:
            decl.print(w, op)
        else:
            FormatPrinter(compiled_format(decl), op, w).run()
    except PrintGeneric:
        if (len(pr.out.pending), len(pr.out.chunks)) != mark:
            raise  # only a printer that fails before its first line break can fall back
        print_generic(pr, op, indent)
        return
    w.write(pr.loc(op.location_text))
    w.finish()
