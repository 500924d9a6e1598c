"""How an assembly format writes an inherent attribute that is not written whole.

Each codec reads the attribute's custom spelling with the parser's ``Cursor`` and keeps the value
as the attribute MLIR stores (so the generic form, which writes the stored attribute, needs nothing
more), and prints it back the custom way:

* ``I64Array``: a DenseI64ArrayAttr written ``[1, 2]`` (stored ``array<i64: 1, 2>``);
* ``Enum``: an enum attribute written by its case keyword ``EQ`` (stored
  ``#stablehlo<comparison_direction EQ>``);
* ``TypedInt``: an integer attribute of a known type written without it (``dim = 0`` is ``0 : i64``);
* ``Bool``: ``true`` / ``false``;
* ``SymbolName`` / ``String``: a ``SymbolNameAttr`` written ``@name`` / a ``StrAttr`` written as a string
  literal, kept as the Python string (the ops of builtin, func and sdy keep them so).
"""
from __future__ import annotations

import re

from shardy_py.ir import attrs as A
from shardy_py.syntax import attr_printer as P

_INT = re.compile(r"-?\d+")
_WORD = re.compile(r"[A-Za-z_][\w]*")
_SYMBOL = re.compile(r'@(?:[A-Za-z_][\w$.]*|"(?:[^"\\]|\\.)*")')
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def ints_of(attr) -> list[int]:
    """The integers of a stored array or elements attribute (``array<i64: 1, 2>``, ``[1, 2]``)."""
    text = str(attr)
    if text.startswith("array<"):
        colon = text.find(":")
        text = text[colon + 1:-1] if colon >= 0 else ""
    return [int(x) for x in _INT.findall(text)]


def i64_array(values) -> A.OpaqueAttr:
    """The DenseI64ArrayAttr holding ``values``."""
    values = list(values)
    return A.OpaqueAttr("array<i64: " + ", ".join(str(v) for v in values) + ">" if values else "array<i64>")


def int_list(cur) -> list[int]:
    """``[1, 2, 3]`` (possibly empty) at the cursor."""
    cur.expect("[", "'[' and a list of integers")
    out: list[int] = []
    if cur.accept("]"):
        return out
    while True:
        m = cur.match(_INT)
        if not m:
            raise cur.error(f"expected an integer, found {cur.found()}")
        out.append(int(m.group()))
        if cur.accept("]"):
            return out
        cur.expect(",", "',' or ']'")


class I64Array:
    """A DenseI64ArrayAttr written ``[1, 2]``."""

    @staticmethod
    def parse(cur) -> A.OpaqueAttr:
        return i64_array(int_list(cur))

    @staticmethod
    def print(attr) -> str:
        return "[" + ", ".join(str(v) for v in ints_of(attr)) + "]"

    @staticmethod
    def starts(cur) -> bool:
        return cur.peek("[")


class Enum:
    """An enum attribute written by its case keyword (stored ``#dialect<mnemonic CASE>``)."""

    def __init__(self, dialect: str, mnemonic: str, cases: tuple[str, ...]):
        self.dialect, self.mnemonic, self.cases = dialect, mnemonic, cases

    def make(self, case: str) -> A.OpaqueAttr:
        return A.OpaqueAttr(f"#{self.dialect}<{self.mnemonic} {case}>")

    def parse(self, cur) -> A.OpaqueAttr:
        cur.ws()
        at = cur.pos
        m = cur.match(_WORD)
        if not m or m.group() not in self.cases:
            raise cur.error(f"expected one of {', '.join(self.cases)} for {self.mnemonic}, found "
                            + (repr(m.group()) if m else cur.found()), at)
        return self.make(m.group())

    @staticmethod
    def case(attr) -> str:
        """The case keyword of a stored enum attribute."""
        text = str(attr)
        return text[text.rfind(" ") + 1:-1] if text.endswith(">") else text

    def print(self, attr) -> str:
        return self.case(attr)

    def starts(self, cur) -> bool:
        cur.ws()
        m = _WORD.match(cur.text, cur.pos, cur.end)
        return bool(m and m.group() in self.cases)


class TypedInt:
    """An integer attribute of type ``type_name`` written as a bare integer."""

    def __init__(self, type_name: str):
        self.type_name = type_name

    def parse(self, cur) -> A.OpaqueAttr:
        m = cur.match(_INT)
        if not m:
            raise cur.error(f"expected an integer, found {cur.found()}")
        value = int(m.group())
        width = int(self.type_name.lstrip("sui") or 64) if self.type_name != "index" else 64
        if not -(1 << (width - 1)) <= value < (1 << width):  # (MLIR builds the attribute of that width)
            raise cur.p.error(m.start() + (m.group()[0] == "-"), "integer constant out of range for attribute")
        return A.OpaqueAttr(f"{value} : {self.type_name}")

    @staticmethod
    def print(attr) -> str:
        return str(attr).split(" : ")[0]

    @staticmethod
    def starts(cur) -> bool:
        cur.ws()
        return bool(_INT.match(cur.text, cur.pos, cur.end))


class Bool:
    """A BoolAttr: ``true`` or ``false``."""

    @staticmethod
    def parse(cur) -> A.OpaqueAttr:
        for word in ("true", "false"):
            if cur.keyword(word):
                return A.OpaqueAttr(word)
        raise cur.error(f"expected true or false, found {cur.found()}")

    @staticmethod
    def print(attr) -> str:
        return str(attr)

    @staticmethod
    def starts(cur) -> bool:
        return cur.peek("true") or cur.peek("false")


class SymbolName:
    """A ``SymbolNameAttr`` written ``@name`` (or ``@"any name"``), kept as the name."""

    @staticmethod
    def parse(cur) -> str:
        m = cur.match(_SYMBOL)
        if not m:
            raise cur.error(f"expected a symbol name like @{cur.opname.split('.')[-1]}, found {cur.found()}")
        name = m.group()[1:]
        return cur.p.unquote_at(name, m.start() + 1) if name.startswith('"') else name

    @staticmethod
    def print(name: str) -> str:
        return P.symbol_ref(name)

    @staticmethod
    def starts(cur) -> bool:
        return cur.peek("@")


class String:
    """A ``StrAttr`` written as a string literal, kept as the string; ``what`` names it in errors."""

    def __init__(self, what: str):
        self.what = what

    def parse(self, cur) -> str:
        m = cur.match(_STRING)
        if not m:
            raise cur.error(f"expected {self.what} as a string, found {cur.found()}")
        return cur.p.unquote_at(m.group(), m.start())

    @staticmethod
    def print(value: str) -> str:
        return P.quote_string(value)

    @staticmethod
    def starts(cur) -> bool:
        return cur.peek('"')


def typed(type_name: str) -> TypedInt:
    return TypedInt(type_name)


I64 = TypedInt("i64")
I32 = TypedInt("i32")
