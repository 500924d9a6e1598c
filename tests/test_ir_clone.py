"""``ir.clone``: a copy of an op or a module is independent of the original (editing one leaves the
other as it was), prints as the original does, and keeps the original's locations."""
from __future__ import annotations

from pathlib import Path

import pytest

import shardy_py
from shardy_py.ir.attrs import OpaqueAttr
from shardy_py.ir.clone import clone, clone_module

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

FUNC = """sdy.mesh @mesh = <["x"=2]>
func.func @f(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}, %arg1: index)
    -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %0 = scf.execute_region -> index {
    scf.yield %arg1 : index
  }
  %1 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
"""


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.mlir")), ids=lambda p: p.name)
def test_a_cloned_module_prints_as_the_original(path):
    m = shardy_py.parse(path.read_text(), path.name)
    assert str(clone_module(m)) == str(m)


def test_a_cloned_module_keeps_source_file_name_and_locations():
    m = shardy_py.parse(FUNC, "f.mlir")
    c = clone_module(m)
    assert (c.source, c.filename) == (m.source, "f.mlir")
    assert [op.loc for op in c.walk()] == [op.loc for op in m.walk()]


def test_editing_a_clone_leaves_the_original_unchanged():
    m = shardy_py.parse(FUNC)
    before = str(m)
    c = clone_module(m)
    func = c.ops[1]
    # in-place edits of what an op holds: a func's argument and result attributes, an op's attributes
    func.properties["arg_attrs"][0].pop("sdy.sharding")
    func.properties["res_attrs"][0]["note"] = OpaqueAttr('"x"')
    func.regions[0].blocks[0].ops[1].attributes["note"] = OpaqueAttr('"y"')
    c.ops[0].erase()
    assert str(m) == before
    assert str(c) != before


def test_a_func_argument_dict_stays_shared_between_block_argument_and_function_type():
    """The parser gives ``arg_attrs[i]`` and the entry block's argument ``i`` one dict; so does a clone."""
    m = shardy_py.parse(FUNC)
    func = clone(m.ops[1])
    args = func.regions[0].blocks[0].arguments
    assert all(d is a.attributes for d, a in zip(func.properties["arg_attrs"], args, strict=True))


def test_an_op_printed_from_pieces_prints_its_own_regions_after_cloning():
    """``scf.execute_region`` is printed from its pieces, which hold its region: the clone's pieces
    hold the clone's region, so editing the clone's region shows in the clone only."""
    m = shardy_py.parse(FUNC)
    original = next(op for op in m.walk() if op.name == "scf.execute_region")
    copy = clone(original)
    assert copy.regions[0] is not original.regions[0]
    assert not any(p is original.regions[0] for p in copy._pieces)
    copy.regions[0].blocks[0].ops[0].attributes["note"] = OpaqueAttr('"z"')
    assert "note" in str(copy) and "note" not in str(original)


def test_a_clone_maps_uses_to_the_copied_values():
    m = shardy_py.parse(FUNC)
    mapping: dict = {}
    func = clone(m.ops[1], mapping)
    add = func.regions[0].blocks[0].ops[1]
    arg0 = func.regions[0].blocks[0].arguments[0]
    assert add.operands == (arg0, arg0)
    assert mapping[m.ops[1].regions[0].blocks[0].arguments[0]] is arg0
