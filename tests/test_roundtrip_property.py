"""Property: printing is idempotent, ``str(parse(str(parse(x)))) == str(parse(x))``.

Over generated sdy-rich modules (a small local generator; the public ``shardy_py.strategies``
comes later) and over every chunk of the conformance corpus (``$SHARDY_CONFORMANCE``).
"""
from __future__ import annotations

import re

import pytest
from conftest import conformance_path, load_manifest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import shardy_py

AXES = ["a", "b", "c", "x:y", 'q"t']


def quote(name: str) -> str:
    return '"' + name.replace('"', "\\22") + '"'


def ws() -> st.SearchStrategy[str]:
    """Whitespace the printer must normalise away."""
    return st.sampled_from(["", " ", "  ", "\n  "])


@st.composite
def axis_ref(draw, names=AXES):
    name = quote(draw(st.sampled_from(names)))
    if draw(st.booleans()):
        return name
    pre = draw(st.sampled_from([1, 2, 4]))
    return f"{name}{draw(ws())}:({pre}){draw(st.sampled_from([2, 4]))}"


@st.composite
def dim_sharding(draw):
    axes = draw(st.lists(axis_ref(), max_size=3))
    s = ", ".join(axes)
    if draw(st.booleans()):
        s = f"{s}, ?" if axes else "?"
    prio = draw(st.sampled_from(["", "", "p0", "p1", "p12"]))
    return f"{{{draw(ws())}{s}{draw(ws())}}}{prio}"


@st.composite
def sharding_body(draw, rank: int):
    mesh = draw(st.sampled_from(["@m", '@"m-1"', 'mesh<["a"=2]>', "mesh<[], device_ids=[3]>"]))
    dims = [draw(dim_sharding()) for _ in range(rank)]
    extras = []
    if draw(st.booleans()):
        extras.append(f"replicated={{{', '.join(draw(st.lists(axis_ref(), min_size=1, max_size=2)))}}}")
    if draw(st.booleans()):
        kind = draw(st.sampled_from(["", "sum", "max", "min"]))
        extras.append(f"unreduced={kind}{{{', '.join(draw(st.lists(axis_ref(), min_size=1, max_size=2)))}}}")
    extras = draw(st.permutations(extras))
    tail = "".join(f",{draw(ws())}{e}" for e in extras)
    return f"<{mesh},{draw(ws())}[{', '.join(dims)}]{tail}>"


@st.composite
def op_line(draw, value: str, idx: int):
    """One op consuming ``value`` (a tensor<8x8xf32>), defining %idx."""
    kind = draw(st.sampled_from(["constraint", "reshard", "add", "unknown", "edge", "barrier", "all_reduce",
                                 "all_gather", "all_to_all"]))
    t = "tensor<8x8xf32>"
    s = draw(sharding_body(2))
    if kind == "constraint":
        return f"%{idx} = sdy.sharding_constraint {value} {s} : {t}"
    if kind == "reshard":
        return f"%{idx} = sdy.reshard {value} {s} : {t}"
    if kind == "add":
        return f"%{idx} = stablehlo.add {value}, {value} {{sdy.sharding = #sdy.sharding_per_value<[{s}]>}} : {t}"
    if kind == "unknown":
        return f"%{idx} = foo.op  {value} [1,2] {{z = 1, sdy.sharding = #sdy.sharding_per_value<[{s}]>}} : {t}"
    if kind == "edge":
        return f"%{idx} = sdy.data_flow_edge {value} sharding={s} : {t}"
    if kind == "barrier":
        d = draw(st.sampled_from(["NONE", "FORWARD", "BACKWARD", "BOTH"]))
        return f"%{idx} = sdy.propagation_barrier {value} allowed_direction={d} : {t}"
    if kind == "all_reduce":
        red = draw(st.sampled_from(["", "sum ", "max ", "min "]))
        return f'%{idx} = sdy.all_reduce {red}{{"a"}} {value} out_sharding={s} : {t}'
    if kind == "all_gather":
        return f'%{idx} = sdy.all_gather [{{"a"}}, {{}}] {value} out_sharding={s} : {t}'
    return f'%{idx} = sdy.all_to_all [{{"a"}}: 0->1] {value} out_sharding={s} : {t}'


@st.composite
def module_text(draw):
    t = "tensor<8x8xf32>"
    lines = ['sdy.mesh @m = <["a"=2, "b"=2, "c"=4, "x:y"=2, "q\\22t"=2]>',
             'sdy.mesh @"m-1" = <["a"=2], device_ids=[1, 0]>']
    arg_attr = ""
    if draw(st.booleans()):
        arg_attr = f" {{sdy.sharding = #sdy.sharding{draw(sharding_body(2))}}}"
    lines.append(f"func.func @main(%arg0: {t}{arg_attr}) -> {t} {{")
    value = "%arg0"
    n = draw(st.integers(0, 5))
    for i in range(n):
        lines.append("  " + draw(op_line(value, i)))
        value = f"%{i}"
    if draw(st.booleans()):
        ins, outs = draw(sharding_body(2)), draw(sharding_body(2))
        lines += [f'  %{n} = sdy.manual_computation({value}) in_shardings=[{ins}] out_shardings=[{outs}] '
                  f'manual_axes={{"b"}} (%arg1: {t}) {{',
                  f"    %{n + 1} = stablehlo.multiply %arg1, %arg1 : {t}",
                  f"    sdy.return %{n + 1} : {t}",
                  f"  }} : ({t}) -> {t}"]
        value = f"%{n}"
    lines += [f"  return {value} : {t}", "}"]
    return "\n".join(lines) + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(module_text())
def test_printing_generated_modules_is_idempotent(text):
    once = str(shardy_py.parse(text))
    assert str(shardy_py.parse(once)) == once


@settings(max_examples=200, deadline=None)
@given(sharding_body(3))
def test_printing_generated_shardings_is_idempotent(body):
    once = str(shardy_py.parse_attribute(f"#sdy.sharding{body}"))
    assert str(shardy_py.parse_attribute(once)) == once
    assert ", unreduced=sum" not in once and "unreduced=sum{" not in once


SPLIT = re.compile(r"^// -----.*$", re.M)


def _chunks():
    root = conformance_path()
    if root is None:
        return []
    out = []
    texts: dict[str, list[str]] = {}
    for e in load_manifest(root):
        if e["file"] not in texts:
            texts[e["file"]] = SPLIT.split((root / e["file"]).read_text())
        out.append((e["file"], e["chunk"], e["expect"], texts[e["file"]][e["chunk"]]))
    return out


_CHUNKS = _chunks()
_CHUNK_FILES = sorted({c[0] for c in _CHUNKS})


@pytest.mark.parametrize("file", _CHUNK_FILES or ["<no corpus>"])
def test_printing_conformance_chunks_is_idempotent(conformance_dir, file):
    """Every chunk (valid, invalid or skip) that parses prints idempotently; only
    chunks annotated invalid may fail to parse (the *_parsing_failure.mlir cases)."""
    for f, chunk, expect, text in _CHUNKS:
        if f != file:
            continue
        try:
            once = str(shardy_py.parse(text))
        except shardy_py.ParseError:
            assert expect == "invalid", f"{f} chunk {chunk} ({expect}) does not parse"
            continue
        assert str(shardy_py.parse(once)) == once, f"{f} chunk {chunk}"
