"""Variants of a module's user shardings, written in one line (``cost FILE --variant SPEC``):

    SPEC   := [LABEL ':'] ITEM (';' ITEM)*
    ITEM   := TARGET '=' VALUE
    TARGET := %name | @func:%name | result N | @func:result N      (an argument, an op result, a
                                                                    constraint, a function result)
    VALUE  := first                  this sharding wins (``shardy_py.give_precedence``)
            | pN | none              priority N on its sharded dimensions, or none (``set_priority``)
            | [@mesh] [E, E, ...]    a PartitionSpec (``shardy_py.mark_sharding``): each E is None,
                                     ?, an axis or (axis, axis, ...), optionally followed by :pN

``%w=p0; %idx=p1`` makes the weights' sharding win over the indices'; ``indices first: %idx=first``
is labelled; ``%x=[data, None]`` shards ``%x`` on its first dimension along ``data``, ``%x=[(data,
model):p1, ?]`` on both axes with priority p1 and the second dimension open.  Values are named as
the file writes them.
"""
from __future__ import annotations

import re

from shardy_py.ir.module import Module


class VariantError(ValueError):
    """A variant spec that cannot be read or applied."""


_TARGET = re.compile(r"^(?:@([\w$.\-]+):)?\s*(%[\w$.\-#]+|result\s*\d+)$")
_ENTRY = re.compile(r"^(None|\?|\(([^()]*)\)|[\w$.\-]+)\s*(?::\s*p(\d+))?$")


def split_label(spec: str) -> tuple[str | None, str]:
    """``(label, items)`` of a spec: the text before the first ``:`` is a label when it is not a
    value name (does not start with ``%``, ``@`` or ``result``) and holds no ``=``."""
    head, sep, rest = spec.partition(":")
    if sep and "=" not in head and not head.strip().startswith(("%", "@", "result")):
        return head.strip() or None, rest
    return None, spec


def parse_items(text: str) -> list[tuple[str | None, str, str]]:
    """``(func, value name, value text)`` per item of ``text`` (``;``-separated)."""
    items = []
    for item in (p.strip() for p in text.split(";")):
        if not item:
            continue
        target, sep, value = item.partition("=")
        if not sep or not value.strip():
            raise VariantError(f"'{item}': write TARGET=VALUE (%name=p0, %name=first, %name=[x, None])")
        m = _TARGET.match(target.strip())
        if m is None:
            raise VariantError(f"'{target.strip()}' is not a value: write %name, @func:%name or result N")
        name = re.sub(r"^result\s*", "result ", m.group(2))
        items.append((m.group(1), name, value.strip()))
    if not items:
        raise VariantError("the variant changes nothing: give at least one TARGET=VALUE")
    return items


def parse_partition_spec(text: str) -> tuple[str | None, list, list]:
    """``(mesh name or None, partition spec, priorities)`` of ``[@mesh] [E, ...]``."""
    from shardy_py.builder import UNCONSTRAINED

    m = re.match(r"^(?:@([\w$.\-]+)\s*)?\[(.*)\]$", text.strip(), re.S)
    if m is None:
        raise VariantError(f"'{text}' is not p0.., none, first or a PartitionSpec like [x, None]")
    spec, priority = [], []
    body = m.group(2).strip()
    for part in _split_top(body) if body else []:
        e = _ENTRY.match(part.strip())
        if e is None:
            raise VariantError(f"'{part.strip()}' is not None, ?, an axis or (axis, ...), optionally with :pN")
        word = e.group(1)
        if word == "None":
            spec.append(None)
        elif word == "?":
            spec.append(UNCONSTRAINED)
        elif word.startswith("("):
            spec.append(tuple(a.strip() for a in e.group(2).split(",") if a.strip()))
        else:
            spec.append(word)
        priority.append(int(e.group(3)) if e.group(3) is not None else None)
    return m.group(1), spec, priority


def _split_top(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _mesh_name(module: Module, value, func: str | None, explicit: str | None) -> str:
    if explicit is not None:
        return explicit
    from shardy_py.builder import _find_value, func_result
    from shardy_py.ir.module import sharding_of
    from shardy_py.passes.func_calls import result_sharding

    found = func_result(module, value, func)
    current = result_sharding(*found) if found is not None else sharding_of(_find_value(module, value, func))
    if current is not None and current.mesh_name is not None:
        return current.mesh_name
    meshes = [n for n, m in module.meshes.items() if not m.is_maximal]
    if len(meshes) == 1:
        return meshes[0]
    raise VariantError(f"say which mesh {value} is sharded on: @mesh[...] (the module has "
                       f"{len(meshes)} meshes)")


def _apply_item(module: Module, func: str | None, name: str, text: str) -> None:
    from shardy_py.builder import ShardingSpecError, _find_value, mark_sharding, named_sharding
    from shardy_py.priorities import PrecedenceError, give_precedence, set_priority

    try:
        if text == "first":
            give_precedence(module, name, func=func)
        elif text == "none":
            set_priority(module, name, None, func=func)
        elif re.fullmatch(r"p\d+", text):
            set_priority(module, name, int(text[1:]), func=func)
        else:
            mesh, spec, priority = parse_partition_spec(text)
            mesh = _mesh_name(module, name, func, mesh)
            prio = priority if any(p is not None for p in priority) else None
            target = None if name.startswith("result") else _find_value(module, name, func)
            owner = getattr(target, "owner", None)
            if owner is not None and getattr(owner, "name", "") == "sdy.sharding_constraint":
                owner.properties["sharding"] = named_sharding(mesh, spec, priority=prio, module=module,
                                                              rank=target.type.rank)
            else:
                mark_sharding(module, name, mesh, spec, priority=prio, func=func)
    except (ShardingSpecError, PrecedenceError) as e:
        raise VariantError(f"{name}={text}: {e}") from None


def apply_variant(module: Module, spec: str) -> tuple[str, Module]:
    """``(label, a copy of module with the variant's changes)``; the label is the spec's own, else
    its items.  Raises ``VariantError`` for a spec that cannot be read or applied."""
    from shardy_py.ir.clone import clone_module

    label, text = split_label(spec)
    items = parse_items(text)
    copy = clone_module(module)
    for func, name, value in items:
        _apply_item(copy, func, name, value)
    return label or "; ".join(f"{'@' + f + ':' if f else ''}{n}={v}" for f, n, v in items), copy
