"""Verifier rules C42-C73: the sdy collectives."""
from __future__ import annotations

import pytest
from verify_helpers import diagnostics, errors

HEAD = 'sdy.mesh @mesh = <["x"=2, "y"=2, "z"=4]>\nsdy.mesh @other = <["a"=2]>\n'
IN = '<@mesh, [{"y"}, {"x"}]>'


def coll(op: str, in_sharding: str | None = IN, t: str = "tensor<16x8xf32>") -> str:
    arg = f" {{sdy.sharding = #sdy.sharding{in_sharding}}}" if in_sharding else ""
    return HEAD + f"func.func @f(%arg0: {t}{arg}) -> {t} {{\n  %0 = {op} : {t}\n  return %0 : {t}\n}}"


@pytest.mark.parametrize("op, in_sharding", [
    ('sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {}]>', IN),
    ('sdy.all_slice [{}, {"z"}] %arg0 out_sharding=<@mesh, [{"y"}, {"x", "z"}]>', IN),
    ('sdy.all_slice [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"y"}, {}]>', None),
    ('sdy.all_to_all [{"x"}: 1->0] %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]>', IN),
    ('sdy.collective_permute %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]>', IN),
    ('sdy.all_reduce {"z"} %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]>', IN),
    ('sdy.all_reduce max {"z"} %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]>', '<@mesh, [{"y"}, {"x"}], unreduced=max{"z"}>'),  # noqa: E501
    ('sdy.reduce_scatter [{}, {"z"}] %arg0 out_sharding=<@mesh, [{"y"}, {"x", "z"}]>', IN),
    ('sdy.sharded_to_unreduced [{}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {}], unreduced={"x"}>', IN),
    ('sdy.replicated_to_unreduced {"z"} %arg0 out_sharding=<@mesh, [{"y"}, {"x"}], unreduced={"z"}>', IN),
])
def test_valid_collectives(op, in_sharding):
    assert errors(coll(op, in_sharding)) == []


@pytest.mark.parametrize("op, in_sharding, want", [
    ('sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {}]>', None,
     "'sdy.all_gather' op its operand has no sharding; this collective needs a sharded operand"),
    ('sdy.all_gather [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"y"}, {}]>', IN,
     "'sdy.all_gather' op gathering axis \"y\" is not a suffix of the operand's sharding [\"x\"] on dimension 1"),
    ('sdy.all_gather [{}] %arg0 out_sharding=<@mesh, [{"y"}, {}]>', IN,
     "'sdy.all_gather' op has axes for 1 dimension(s) but out_sharding has rank 2"),
    ('sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]>', IN,
     "'sdy.all_gather' op out_sharding has [\"x\"] on dimension 1 but the collective produces []"),
    ('sdy.all_gather [{"x"}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {}]>', IN,
     "'sdy.all_gather' op axis \"x\" in the axes of dimension 1 is used more than once; each axis ref may appear only "
     "once per sharding"),
    ('sdy.all_to_all [] %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]>', IN,
     "'sdy.all_to_all' op needs at least one parameter {axes}: src->tgt"),
    ('sdy.all_to_all [{"x"}: 1->2] %arg0 out_sharding=<@mesh, [{"y", "x"}, {}]>', IN,
     "'sdy.all_to_all' op target dimension 2 is out of range for a tensor of rank 2"),
    ('sdy.collective_permute %arg0 out_sharding=<@mesh, [{"z"}, {"y"}]>', IN,
     "'sdy.collective_permute' op dimension 0 is split 4 ways in out_sharding but 2 ways in the operand; a collective "
     "permute must keep the sharded size of each dimension"),
    ('sdy.all_reduce {"x"} %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]>', IN,
     "'sdy.all_reduce' op reduction axis \"x\" overlaps an axis that shards or replicates the operand"),
    ('sdy.all_reduce {"z"} %arg0 out_sharding=<@mesh, [{"y"}, {}]>', IN,
     "'sdy.all_reduce' op out_sharding #sdy.sharding<@mesh, [{\"y\"}, {}]> must shard the dimensions exactly like the "
     "operand sharding #sdy.sharding<@mesh, [{\"y\"}, {\"x\"}]>"),
    ('sdy.all_reduce {"z"} %arg0 out_sharding=<@mesh, [{"y"}, {"x"}], unreduced={"z"}>', IN,
     "'sdy.all_reduce' op reduction axis \"z\" overlaps an unreduced axis of out_sharding"),
    ('sdy.all_reduce {"z"} %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]>', '<@mesh, [{"y"}, {"x"}], unreduced=max{"z"}>',
     "'sdy.all_reduce' op cannot reduce 'max' unreduced axes. Expected 'sum'."),
    ('sdy.sharded_to_unreduced [{}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {}]>', IN,
     "'sdy.sharded_to_unreduced' op out_sharding unreduced axes are [] but should be the operand's unreduced axes plus "
     "the converted axes: [\"x\"]"),
    ('sdy.replicated_to_unreduced {} %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]>', IN,
     "'sdy.replicated_to_unreduced' op needs at least one axis to make unreduced"),
    ('sdy.replicated_to_unreduced {"z"} %arg0 out_sharding=<@mesh, [{"y"}, {}], unreduced=max{"x", "z"}>',
     '<@mesh, [{"y"}, {}], unreduced={"x"}>',
     "'sdy.replicated_to_unreduced' op cannot change reduction_op of existing unreduced axes"),
])
def test_invalid_collectives(op, in_sharding, want):
    assert errors(coll(op, in_sharding)) == ["4: " + want]


def test_mesh_mismatch_note_points_at_operand():
    [d] = diagnostics(coll('sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@other, [{"a"}, {}]>'))
    assert (d.line, d.message) == (4, "'sdy.all_gather' op out_sharding mesh #sdy.mesh<[\"a\"=2]> differs from the "
                                      "operand's mesh; a collective must keep the mesh")
    assert [(n[0], n[2]) for n in d.notes] == [(3, 'the operand\'s mesh is #sdy.mesh<["x"=2, "y"=2, "z"=4]>')]


def test_interface_checks_come_before_symbol_checks():
    # C43 fires although the out_sharding names an undefined mesh (checked only later).
    assert errors(coll('sdy.all_gather [{}, {"x"}] %arg0 out_sharding=<@nope, [{}, {}]>', None)) == [
        "4: 'sdy.all_gather' op its operand has no sharding; this collective needs a sharded operand"]


@pytest.mark.parametrize("op", [
    'sdy.replicated_to_unreduced {"z"} %arg0 out_sharding=<@mesh, [{"y"}, {"x"}], unreduced=max{"z"}>',
    'sdy.replicated_to_unreduced {"z"} %arg0 out_sharding=<@mesh, [{"y"}, {"x"}], unreduced=min{"z"}>',
    'sdy.sharded_to_unreduced [{}, {"x"}] %arg0 out_sharding=<@mesh, [{"y"}, {}], unreduced=max{"x"}>',
])
def test_unreduced_axes_made_by_a_collective_take_any_reduction_kind(op):
    """jaxlib 0.12 accepts max/min here; the test files' commit required sum
    (ir/collective_verification.mlir:1104 and :1114, pinned in test_conformance_pins_jaxlib012.py)."""
    assert errors(coll(op)) == []
