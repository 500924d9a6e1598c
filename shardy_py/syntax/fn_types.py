"""Small readers of type and attribute texts that the generic form carries inside properties:
a ``function_type`` split into its inputs and results, an ``arg_attrs`` array of dictionaries."""
from __future__ import annotations

from shardy_py.ir.types import Type, parse_type

_PAIRS = {"(": ")", "[": "]", "{": "}", "<": ">"}


def split_top(text: str, sep: str = ",") -> list[str]:
    """``text`` split at ``sep`` outside brackets and strings (pieces stripped; ``[]`` for blank text)."""
    out, depth, start, i, n = [], 0, 0, 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c in "([{<":
            depth += 1
        elif c in ")]}>" and not (c == ">" and i and text[i - 1] == "-"):
            depth -= 1
        elif c == sep and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
        i += 1
    tail = text[start:].strip()
    if tail or out:
        out.append(tail)
    return out


def split_function_type(text: str) -> tuple[list[Type], list[Type]]:
    """``(A, B) -> C`` or ``(A) -> (B, C)`` as (inputs, results); ValueError when it is not one."""
    text = text.strip()
    if not text.startswith("("):
        raise ValueError(f"expected a function type like (A) -> B, found '{text[:40]}'")
    depth = 0
    i = -1
    for i, c in enumerate(text):  # noqa: B007  (i is where the inputs close)
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                break
    else:
        raise ValueError("unbalanced parentheses in a function type")
    ins = [parse_type(t) for t in split_top(text[1:i])]
    rest = text[i + 1:].strip()
    if not rest.startswith("->"):
        raise ValueError(f"expected '->' in the function type '{text[:60]}'")
    rest = rest[2:].strip()
    if rest.startswith("(") and rest.endswith(")") and not _is_function_type(rest):
        outs = [parse_type(t) for t in split_top(rest[1:-1])]
    else:
        outs = [parse_type(rest)]
    return ins, outs


def _is_function_type(text: str) -> bool:
    depth = 0
    for i, c in enumerate(text):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return text[i + 1:].strip().startswith("->")
    return False


def split_dict_array(p, text: str, n: int) -> list[dict]:
    """The dictionaries of ``[{...}, {...}]`` (``n`` of them), each parsed as an attribute dictionary."""
    from shardy_py.syntax.parser import ModuleParser

    text = text.strip()
    items = split_top(text[1:-1]) if text.startswith("[") else []
    out = []
    for item in items:
        sub = ModuleParser(item)
        out.append(sub.attr_dict(0, len(item))[0] if item.strip() not in ("", "{}") else {})
    while len(out) < n:
        out.append({})
    return out
