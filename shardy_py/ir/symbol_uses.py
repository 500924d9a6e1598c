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
    yield from _symbols(value)[0]


#: ``_symbols`` of attributes that hold nothing mutable (frozen attributes all the way down, tuples, no
#: list or dict), by ``id``; the entry holds the attribute, so that its id is not reused while it is there.
_FROZEN_SYMBOLS: dict[int, tuple[object, tuple[str, ...]]] = {}
_NO_SYMBOLS: tuple[tuple[str, ...], bool] = ((), True)


def _symbols(value) -> tuple[tuple[str, ...], bool]:
    """(the symbol names ``value`` refers to, in order; whether ``value`` holds nothing mutable)."""
    if isinstance(value, OpaqueAttr):
        return tuple(symbols_in_text(value.text)), True
    if isinstance(value, SymbolRefAttr):
        return (value.root, *value.nested), True
    if isinstance(value, TensorShardingAttr):
        return ((value.mesh_or_ref,) if isinstance(value.mesh_or_ref, str) else ()), True
    if isinstance(value, dict):
        return _symbols_of_all(value.values())[0], False
    if isinstance(value, list):
        return _symbols_of_all(value)[0], False
    if isinstance(value, tuple):
        return _symbols_of_all(value)
    if isinstance(value, Attr) and attrs.has(type(value)):
        hit = _FROZEN_SYMBOLS.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1], True
        names, frozen = _symbols_of_all(v for v in (getattr(value, f.name) for f in attrs.fields(type(value)))
                                        if isinstance(v, (Attr, list, tuple, dict)))
        if frozen:  # (attributes are frozen: only a list or dict inside could change)
            if len(_FROZEN_SYMBOLS) > 1 << 18:
                _FROZEN_SYMBOLS.clear()
            _FROZEN_SYMBOLS[id(value)] = (value, names)
        return names, frozen
    return _NO_SYMBOLS


def _symbols_of_all(values) -> tuple[tuple[str, ...], bool]:
    names: list[str] = []
    frozen = True
    for v in values:
        if v is None or type(v) is str or type(v) is int:
            continue
        found, f = _symbols(v)
        names.extend(found)
        frozen = frozen and f
    return tuple(names), frozen


def op_symbol_uses(op: Operation) -> Iterator[str]:
    """The symbol names ``op`` itself refers to: in its properties, its discardable attributes, the
    attributes of its entry block's arguments (a function's ``arg_attrs``) and, for an op kept as
    text, its text."""
    return iter(_op_symbols(op))


def _op_symbols(op: Operation) -> list[str]:
    out: list[str] = []
    props = op.properties_view
    for key, value in props.items():
        if key == "callee" and isinstance(value, str):  # func.call read from its custom syntax
            out.append(_unquote(value[1:] if value.startswith("@") else value))
        elif value is not None and type(value) is not str:
            out.extend(_symbols(value)[0])
    attributes = op.attributes_view
    if attributes:
        out.extend(_symbols(attributes)[0])
    if op.regions and op.regions[0].blocks:
        for arg in op.regions[0].blocks[0].arguments:
            if arg.attributes:
                out.extend(_symbols(arg.attributes)[0])
    pieces = op._pieces
    if pieces:
        for piece in pieces:
            if isinstance(piece, str):
                out.extend(symbols_in_text(piece))
    return out


def nested_symbol_uses(ops: Iterable[Operation]) -> set[str]:
    """The symbol names referenced by ``ops`` and every op nested in them."""
    names: set[str] = set()
    for top in ops:
        for op in top.walk():
            names.update(_op_symbols(op))
    return names
