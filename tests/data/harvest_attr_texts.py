"""Harvest attribute and type texts from MLIR test files, for the differential test against jaxlib
(``tests/test_attr_reader_jaxlib.py``).

From every ``.mlir`` file under the given directories (comment lines dropped) it takes, as written:
``dense<...> : type`` and the other elements attributes, ``array<...>``, ``#stablehlo``/``#chlo``
attributes, ``[...]`` and scalar values of attribute dictionaries (``name = value``), and
tensor/tuple/complex/vector/memref/``!stablehlo`` types; from the jaxlib oracle's generic prints
(``oracle/**/*.jsonl``, key ``generic``) every property dictionary ``<{...}>`` as one dictionary attribute.

    python tests/data/harvest_attr_texts.py /work/shared/conformance   # prints "A text" / "T text" lines
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

_STARTS = re.compile(
    r"(?P<attr>(?<![\w.])(?:dense|dense_resource|sparse|array)<|#(?:stablehlo|chlo)[.<])"
    r"|(?P<type>(?<![\w.!#])(?:tensor|tuple|complex|vector|memref)<|!stablehlo\.\w+)")
_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*"|->|[<>()\[\]{}]')
_CLOSE = {"<": ">", "(": ")", "[": "]", "{": "}"}
_ELEMENTS_TYPE = re.compile(r"\s*:\s*(?:tensor|vector)<")
_SCALAR_ENTRY = re.compile(r'\b[a-z_][\w.]* = (-?(?:0x[0-9a-fA-F]+|\d+(?:\.\d*(?:[eE][-+]?\d+)?)?)'
                           r'(?: : [a-z]\w*)?|"(?:[^"\\\n]|\\.)*"(?: : [a-z]\w*)?|@[\w.$]+(?:::@[\w.$]+)*)')
_ARRAY_ENTRY = re.compile(r"\b[a-z_][\w.]* = \[")


def balanced_end(text: str, pos: int) -> int:
    """Position after the bracket closing the one at ``pos`` (-1 when unbalanced)."""
    stack = []
    for m in _TOKENS.finditer(text, pos):
        tok = m.group()
        if tok in _CLOSE:
            stack.append(_CLOSE[tok])
        elif len(tok) == 1:
            if not stack or stack.pop() != tok:
                return -1
            if not stack:
                return m.end()
    return -1


def _with_type(text: str, end: int) -> int:
    m = _ELEMENTS_TYPE.match(text, end)
    if not m:
        return -1
    return balanced_end(text, m.end() - 1)


def harvest_text(text: str, attrs: set[str], types: set[str]) -> None:
    """Add the attribute and type texts written in ``text`` to ``attrs`` and ``types``."""
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    for m in _STARTS.finditer(text):
        if m.group("type") and m.group().startswith("!"):
            end = m.end()
            if end < len(text) and text[end] == "<":
                end = balanced_end(text, end)
        else:
            end = balanced_end(text, m.end() - 1)
        if end < 0:
            continue
        if m.group("attr"):
            if m.group().startswith(("dense", "sparse")):
                end = _with_type(text, end)
                if end < 0:
                    continue
            attrs.add(text[m.start():end])
        else:
            types.add(text[m.start():end])
    for m in _SCALAR_ENTRY.finditer(text):
        attrs.add(m.group(1))
    for m in _ARRAY_ENTRY.finditer(text):
        end = balanced_end(text, m.end() - 1)
        if end > 0:
            attrs.add(text[m.end() - 1:end])


def harvest_generic(printed: str, attrs: set[str]) -> None:
    """Add each property dictionary ``<{...}>`` of a generic print as a dictionary attribute text."""
    pos = printed.find("<{")
    while pos >= 0:
        end = balanced_end(printed, pos + 1)
        if end > 0:
            attrs.add(printed[pos + 1:end])
        pos = printed.find("<{", pos + 2)


def harvest(root: Path) -> tuple[list[str], list[str]]:
    """(attribute texts, type texts) from the corpus at ``root``, sorted."""
    attrs: set[str] = set()
    types: set[str] = set()
    for sub in ("stablehlo/tests", "transforms"):
        for f in sorted((root / sub).glob("**/*.mlir")):
            harvest_text(f.read_text(), attrs, types)
    for f in sorted(root.glob("**/oracle/**/*.jsonl")):
        for line in f.read_text().splitlines():
            rec = json.loads(line)
            if rec.get("generic"):
                harvest_generic(rec["generic"], attrs)
    return sorted(attrs), sorted(types)


if __name__ == "__main__":
    a, t = harvest(Path(sys.argv[1]))
    for x in a:
        print("A", x.replace("\n", " "))
    for x in t:
        print("T", x.replace("\n", " "))
