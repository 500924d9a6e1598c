"""Writing drawn ops as MLIR text for the differential rule tests, and the check they share.

Ops are written in MLIR's generic form (``"stablehlo.x"(%arg0) {...} : (...) -> ...``), so both
sides read exactly the same op and print it their own way; ``check`` then compares our module after
``-sdy-populate-op-sharding-rules`` with jaxlib 0.12's, normal and conservative.
"""
from __future__ import annotations

from cpp_oracle import FAILED, ours
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from rules_oracle import jaxlib_populate_isolated, populate_flag

import shardy_py

DRAWN = settings(max_examples=80, deadline=None, database=None, suppress_health_check=list(HealthCheck))
SIZES = st.sampled_from([1, 2, 3, 4, 6, 8])
F32 = "tensor<f32>"


def tensor(shape, element: str = "f32") -> str:
    """``tensor<4x8xf32>`` of ``shape``."""
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def i64s(values) -> str:
    """``array<i64: 1, 2>`` (``array<i64>`` when empty)."""
    return "array<i64" + (": " + ", ".join(map(str, values)) if values else "") + ">"


def function(operands: list[str], results: str | list[str], op: str, prelude: tuple[str, ...] = ()) -> str:
    """``@main`` taking ``operands`` (types, ``%arg0, ...``), running the ``prelude`` lines then
    ``%0 = op``, and returning every result of ``%0`` (types ``results``)."""
    results = [results] if isinstance(results, str) else results
    args = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(operands))
    value = "%0" if len(results) == 1 else f"%0:{len(results)}"
    names = ["%0"] if len(results) == 1 else [f"%0#{i}" for i in range(len(results))]
    body = "".join(f"  {line}\n" for line in prelude)
    types = ", ".join(results)
    signature = types if len(results) == 1 else f"({types})"
    return (f"func.func @main({args}) -> {signature} {{\n{body}  {value} = {op}\n"
            f"  return {', '.join(names)} : {types}\n}}\n")


def generic(name: str, operands: list[str], results: str | list[str], attributes: str = "",
            regions: tuple[str, ...] = (), names: list[str] | None = None) -> str:
    """The generic form of op ``name`` on ``names`` (default ``%arg0, %arg1, ...``) of types ``operands``."""
    results = [results] if isinstance(results, str) else results
    names = names if names is not None else [f"%arg{i}" for i in range(len(operands))]
    attrs = f" {{{attributes}}}" if attributes else ""
    region = f" ({', '.join(regions)})" if regions else ""
    out = results[0] if len(results) == 1 else f"({', '.join(results)})"
    return f'"{name}"({", ".join(names)}){region}{attrs} : ({", ".join(operands)}) -> {out}'


def add_body() -> str:
    """A reduction body adding two f32 scalars."""
    return ("{\n  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
            '    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n'
            '    "stablehlo.return"(%s) : (tensor<f32>) -> ()\n  }')


def compare_body(pairs: int = 1) -> str:
    """A comparator on ``pairs`` pairs of f32 scalars: the first pair's ``a > b``."""
    args = ", ".join(f"%a{i}: tensor<f32>, %b{i}: tensor<f32>" for i in range(pairs))
    return (f"{{\n  ^bb0({args}):\n"
            '    %p = "stablehlo.compare"(%a0, %b0) {comparison_direction = #stablehlo<comparison_direction GT>} '
            ": (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
            '    "stablehlo.return"(%p) : (tensor<i1>) -> ()\n  }')


@st.composite
def shapes(draw, min_rank: int = 0, max_rank: int = 4) -> tuple[int, ...]:
    """A static shape of rank ``min_rank..max_rank``."""
    return tuple(draw(st.lists(SIZES, min_size=min_rank, max_size=max_rank)))


def check(text: str) -> None:
    """Our populated module is jaxlib's, normal and conservative (and our plain print is MLIR's).
    jaxlib runs in a subprocess (``jaxlib_populate_isolated``): 0.12 can segfault in-process."""
    want = jaxlib_populate_isolated(text)
    assert "plain" in want, f"jaxlib does not read the drawn op ({want['error']})\n{text}"
    assert str(shardy_py.parse(text)) == want["plain"], text
    for conservative in (False, True):
        flag = populate_flag(conservative)
        assert ours(text, flag[1:]) == want.get(conservative, FAILED), f"{flag}\n{text}"
