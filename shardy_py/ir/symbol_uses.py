"""Symbol uses as MLIR counts them (``SymbolTable::getSymbolUses``): every symbol reference anywhere
in an op's attributes or properties is a use, whatever the op and the attribute (``func.call``'s
``callee``, ``stablehlo.composite``'s ``decomposition = @fn``, a custom call's
``called_computations``, the ``@mesh`` of a sharding, a reference in a discardable attribute of
another dialect, ...).  Passes that erase symbols ask here, so that no pass removes a symbol that is
still referenced (symbol-dce, dropping meshes)."""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

import attrs

from shardy_py.ir.attrs import Attr, OpaqueAttr, TensorShardingAttr
from shardy_py.ir.builtin_attrs import SymbolRefAttr
from shardy_py.ir.ops import Operation

#: A string literal (skipped: ``"a@b"`` names no symbol) or a symbol reference ``@name`` / ``@"any"``.
_STRING_OR_SYMBOL = re.compile(r'"(?:[^"\\]|\\.)*"|@("(?:[^"\\]|\\.)*"|[A-Za-z_$.\-0-9]+)')
_ESCAPE = re.compile(r"\\([0-9A-Fa-f]{2}|.)")


def _unquote(name: str) -> str:
    if len(name) >= 2 and name[0] == '"' and name[-1] == '"':
        return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)) if len(m.group(1)) == 2 else m.group(1), name[1:-1])
    return name


def symbols_in_text(text: str) -> Iterator[str]:
    """The symbol names referenced in attribute text (``@fn``, ``@"a b"``, ``@outer::@inner`` gives
    ``outer`` and ``inner``), string literals skipped."""
    if "@" not in text:
        return
    for m in _STRING_OR_SYMBOL.finditer(text):
        if m.group(1) is not None:
            yield _unquote(m.group(1))


def symbols_in_attr(value) -> Iterator[str]:
    """The symbol names an attribute value refers to (nested arrays, dictionaries and attributes
    walked); plain strings are names of no symbol."""
    if isinstance(value, OpaqueAttr):
        yield from symbols_in_text(value.text)
    elif isinstance(value, SymbolRefAttr):
        yield value.root
        yield from value.nested
    elif isinstance(value, TensorShardingAttr):
        if isinstance(value.mesh_or_ref, str):
            yield value.mesh_or_ref
    elif isinstance(value, dict):
        for v in value.values():
            yield from symbols_in_attr(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from symbols_in_attr(v)
    elif isinstance(value, Attr) and attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            v = getattr(value, field.name)
            if isinstance(v, (Attr, list, tuple, dict)):
                yield from symbols_in_attr(v)


def op_symbol_uses(op: Operation) -> Iterator[str]:
    """The symbol names ``op`` itself refers to: in its properties, its discardable attributes, the
    attributes of its entry block's arguments (a function's ``arg_attrs``) and, for an op kept as
    text, its text."""
    props = op.properties_view
    for key, value in props.items():
        if key == "callee" and isinstance(value, str):  # func.call read from its custom syntax
            yield _unquote(value[1:] if value.startswith("@") else value)
        else:
            yield from symbols_in_attr(value)
    yield from symbols_in_attr(op.attributes_view)
    if op.regions and op.regions[0].blocks:
        for arg in op.regions[0].blocks[0].arguments:
            if arg.attributes:
                yield from symbols_in_attr(arg.attributes)
    pieces = op._pieces
    if pieces:
        for piece in pieces:
            if isinstance(piece, str):
                yield from symbols_in_text(piece)


def nested_symbol_uses(ops: Iterable[Operation]) -> set[str]:
    """The symbol names referenced by ``ops`` and every op nested in them."""
    names: set[str] = set()
    for top in ops:
        for op in top.walk():
            names.update(op_symbol_uses(op))
    return names
