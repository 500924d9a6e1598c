"""``shardy_py.ir.rewrite``: the op-tree edits the shard-dialect conversion is built on."""
from __future__ import annotations

import pytest

import shardy_py
from shardy_py.interop.shard_common import parse_op
from shardy_py.ir import rewrite

TEXT = """func.func @f(%arg0: tensor<4xf32>, %01: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.abs %arg0 : tensor<4xf32>
  %1 = stablehlo.add %0, %0 {note = "%0"} : tensor<4xf32>
  %2 = stablehlo.add %01, %1 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


def body(m: shardy_py.Module):
    return m.funcs["f"].regions[0].blocks[0]


def test_insert_after_places_the_op_and_sets_its_block():
    m = shardy_py.parse(TEXT)
    first = body(m).ops[0]
    op = rewrite.insert_after(first, parse_op("%9 = stablehlo.negate %arg0 : tensor<4xf32>"))
    assert body(m).ops[1] is op and op.parent is body(m)
    assert str(m).splitlines()[3] == "    %9 = stablehlo.negate %arg0 : tensor<4xf32>"


def test_insert_before_places_the_op_first():
    m = shardy_py.parse(TEXT)
    op = rewrite.insert_before(body(m).ops[0], parse_op("%9 = stablehlo.negate %arg0 : tensor<4xf32>"))
    assert body(m).ops[0] is op


def test_an_op_can_be_in_one_block_only():
    m = shardy_py.parse(TEXT)
    with pytest.raises(ValueError, match="already in a block"):
        rewrite.insert_op(body(m), 0, body(m).ops[1])


def test_erase_op_takes_it_out():
    m = shardy_py.parse(TEXT)
    op = body(m).ops[2]
    rewrite.erase_op(op)
    assert op.parent is None and "%2 = " not in str(m)


def test_replace_op_keeps_the_result_values_and_their_users():
    m = shardy_py.parse(TEXT)
    old = body(m).ops[0]
    result = old.results[0]
    new = rewrite.replace_op(old, parse_op("%0 = stablehlo.negate %arg0 : tensor<4xf32>"))
    assert new.results == [result] and result.owner is new
    assert body(m).ops[1].operands[0] is result
    assert str(m).splitlines()[2] == "    %0 = stablehlo.negate %arg0 : tensor<4xf32>"


def test_value_users_lists_each_user_once_in_order():
    m = shardy_py.parse(TEXT)
    users = rewrite.value_users(m.funcs["f"])
    v0 = body(m).ops[0].results[0]
    assert [op.name for op in users[v0]] == ["stablehlo.add", "func.return"]


def test_replace_uses_rewrites_whole_names_outside_strings():
    m = shardy_py.parse(TEXT)
    old = body(m).ops[0].results[0]
    new = body(m).arguments[0]
    rewrite.replace_uses(old, new, rewrite.value_users(m.funcs["f"])[old])
    assert str(m).splitlines()[3:6] == [
        '    %1 = stablehlo.add %arg0, %arg0 {note = "%0"} : tensor<4xf32>',
        "    %2 = stablehlo.add %01, %1 : tensor<4xf32>",
        "    return %arg0 : tensor<4xf32>",
    ]
    assert body(m).ops[1].operands == (new, new)


def test_replaced_uses_survive_a_reparse():
    m = shardy_py.parse(TEXT)
    old = body(m).ops[0].results[0]
    rewrite.replace_uses(old, body(m).arguments[1], rewrite.value_users(m.funcs["f"])[old])
    again = shardy_py.parse(str(m))
    assert [v.name for v in body(again).ops[1].operands] == ["%01", "%01"]


def test_set_operand_of_a_modelled_op():
    m = shardy_py.parse(TEXT)
    ret = body(m).ops[-1]
    rewrite.set_operand(ret, 0, body(m).ops[2].results[0])
    assert str(m).splitlines()[-3] == "    return %2 : tensor<4xf32>"


def test_set_operand_refuses_ops_that_keep_their_text():
    m = shardy_py.parse(TEXT)
    with pytest.raises(ValueError, match="replace_uses"):
        rewrite.set_operand(body(m).ops[1], 0, body(m).arguments[0])


def test_block_edits_apply_every_edit_in_one_pass():
    m = shardy_py.parse(TEXT)
    ops = body(m).ops
    edits = rewrite.BlockEdits()
    edits.prepend(body(m), rewrite.opaque_op("test.first", "%arg0", "tensor<4xf32>", [("%p", ops[0].results[0].type)],
                                             [body(m).arguments[0]]))
    edits.insert_after(ops[0], rewrite.opaque_op("test.after", "", attributes={"k": shardy_py.OpaqueAttr("1")}))
    edits.insert_before(ops[2], rewrite.opaque_op("test.before", ""))
    edits.erase(ops[2])
    edits.replace(ops[0], rewrite.opaque_op("stablehlo.negate", "%arg0", "tensor<4xf32>"))
    assert [op.name for op in body(m).ops] == ["stablehlo.abs", "stablehlo.add", "stablehlo.add", "func.return"]
    edits.apply()
    assert str(m).splitlines()[2:8] == [
        "    %p = test.first %arg0 : tensor<4xf32>",
        "    %0 = stablehlo.negate %arg0 : tensor<4xf32>",
        "    test.after {k = 1}",
        '    %1 = stablehlo.add %0, %0 {note = "%0"} : tensor<4xf32>',
        "    test.before",
        "    return %0 : tensor<4xf32>",
    ]
    assert all(op.parent is body(m) for op in body(m).ops) and ops[2].parent is None


def test_block_edits_replace_moves_the_results_at_once():
    m = shardy_py.parse(TEXT)
    old = body(m).ops[0]
    new = rewrite.opaque_op("stablehlo.negate", "%arg0", "tensor<4xf32>")
    edits = rewrite.BlockEdits()
    edits.replace(old, new)
    assert old.results[0].owner is new and body(m).ops[0] is old
