"""Ops built from recipes (``shardy_py.syntax.op_recipes``) equal ops parsed in full, field by field."""
from __future__ import annotations

from pathlib import Path

from conftest import corpus_chunks
from hypothesis import given, settings

import shardy_py
from shardy_py.ir.ops import Location, Operation
from shardy_py.strategies import module_texts
from shardy_py.syntax.parser import parse_module

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.mlir"))


def _value_ref(v) -> object:
    return None if v is None else (v.name, str(v.type), v.index, v.loc)


def _dump(op: Operation) -> list:
    """Everything the parser sets on ``op`` and its nested ops, comparable with ``==``."""
    out = []
    for o in op.walk():
        out.append((
            o.name, o.generic_form, o.loc, o.result_groups, [_value_ref(r) for r in o.results],
            o.operand_names, [_value_ref(v) for v in o.operands], [str(t) for t in o.operand_types],
            {k: (v if isinstance(v, Location) else repr(v)) for k, v in o.properties.items()},
            {k: repr(v) for k, v in o.attributes.items()}, o.attribute_locs, o.location_text,
            None if o._pieces is None else [p if isinstance(p, (str, tuple)) else repr(p) for p in o._pieces],
        ))
    return out


def _parse_both(text: str):
    try:
        full = parse_module(text, fast_paths=False)
    except shardy_py.ParseError as e:
        full = e
    try:
        fast = shardy_py.parse(text)
    except shardy_py.ParseError as e:
        fast = e
    return full, fast


def _assert_same(text: str) -> None:
    full, fast = _parse_both(text)
    if isinstance(full, shardy_py.ParseError):
        assert isinstance(fast, shardy_py.ParseError), text
        assert (fast.line, fast.column, fast.message) == (full.line, full.column, full.message)
        return
    assert _dump(fast.op) == _dump(full.op)
    assert str(fast) == str(full)


def test_repeated_shape_takes_its_own_names_and_columns() -> None:
    text = ('module {\n'
            '  sdy.mesh @m = <["x"=2]>\n'
            '  func.func @f(%arg0: tensor<8xf32>, %a: tensor<8xf32>) -> tensor<8xf32> {\n'
            '    %0 = stablehlo.add %arg0, %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}]>]>}'
            ' : tensor<8xf32>\n'
            '    %long = stablehlo.add %0, %a {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}]>]>}'
            ' : tensor<8xf32>\n'
            '    return %long : tensor<8xf32>\n'
            '  }\n'
            '}\n')
    module = shardy_py.parse(text)
    second = next(o for o in module.op.walk() if o.results and o.results[0].name == "%long")
    assert second.operand_names == ["%0", "%a"]
    assert [v.name for v in second.operands] == ["%0", "%a"]
    assert second.attribute_locs["sdy.sharding"] == Location(5, 35)
    # printed as MLIR prints it: values renumbered (%a -> %arg1, %long -> %1)
    assert str(module) == text.replace("%a:", "%arg1:").replace("%0, %a", "%0, %arg1").replace("%long", "%1")


def test_examples_build_like_a_full_parse() -> None:
    assert EXAMPLES
    for path in EXAMPLES:
        _assert_same(path.read_text())


def test_conformance_chunks_build_like_a_full_parse(conformance_dir: Path) -> None:
    for chunk in corpus_chunks(conformance_dir):
        _assert_same(chunk)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(module_texts())
def test_drawn_modules_build_like_a_full_parse(text: str) -> None:
    _assert_same(text)
