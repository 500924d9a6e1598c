"""StableHLO's verifiers of the collectives (replica groups, channel ids, gather/scatter/split
dimensions, reduction regions): MLIR's message at MLIR's line, checked against jaxlib 0.12 too."""
from __future__ import annotations

import pytest
from stablehlo_verify_cases import check, jaxlib, module, ours


def _all_gather(groups: str, result: str = "tensor<8x4xf32>", extra: str = "") -> str:
    return module("%x: tensor<4x4xf32>", result, f"""\
        %r = "stablehlo.all_gather"(%x) {{all_gather_dim = 0 : i64, replica_groups = {groups}{extra}}}
          : (tensor<4x4xf32>) -> {result}
        return %r : {result}
        """)


def test_valid_all_gather_is_clean() -> None:
    text = _all_gather("dense<[[0, 1]]> : tensor<1x2xi64>")
    assert ours(text) == []
    assert jaxlib(text) == []


@pytest.mark.parametrize(("groups", "message"), [
    ("dense<[0, 1]> : tensor<2xi64>", "replica groups should be a rank 2 tensor"),
    ("dense<[[0, 0]]> : tensor<1x2xi64>", "replica id #0 seen more than once"),
    ("dense<[[0, -1]]> : tensor<1x2xi64>", "Invalid replica id -1"),
    ("dense<[[0, 2]]> : tensor<1x2xi64>", "replica id #1 not seen in replica groups"),
])
def test_all_gather_replica_groups(groups: str, message: str) -> None:
    check(_all_gather(groups), message)


def test_all_gather_result_size_is_a_multiple() -> None:
    check(_all_gather("dense<[[0, 1]]> : tensor<1x2xi64>", "tensor<6x4xf32>"),
          "result gather dimension has size 6, expected to be a multiple of operand gather dimension size 4")


def _all_reduce(extra: str, region_type: str = "tensor<f32>") -> str:
    return module("%x: tensor<4xf32>", "tensor<4xf32>", f"""\
        %r = "stablehlo.all_reduce"(%x) ({{
          ^bb0(%a: {region_type}, %b: {region_type}):
            %s = stablehlo.add %a, %b : {region_type}
            stablehlo.return %s : {region_type}
        }}) {{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>{extra}}} : (tensor<4xf32>) -> tensor<4xf32>
        return %r : tensor<4xf32>
        """)


def test_all_reduce_channel_id_with_global_device_ids() -> None:
    assert ours(_all_reduce(", channel_handle = #stablehlo.channel_handle<handle = 1, type = 0>, "
                            "use_global_device_ids")) == []
    check(_all_reduce(", use_global_device_ids"),
          "channel_id must be positive when useGlobalDeviceIds is set but got: 0")


def test_all_reduce_region_element_type() -> None:
    check(_all_reduce("", "tensor<i32>"),
          "The element-type of reduction-region's result type at index 0 is expected to be promotable from the op's "
          "corresponding init-value element-type: 'tensor<i32>' vs 'tensor<f32>'")


def _reduce_scatter(dim: int, result: str) -> str:
    return module("%x: tensor<4x8xf32>", result, f"""\
        %r = "stablehlo.reduce_scatter"(%x) ({{
          ^bb0(%a: tensor<f32>, %b: tensor<f32>):
            %s = stablehlo.add %a, %b : tensor<f32>
            stablehlo.return %s : tensor<f32>
        }}) {{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, scatter_dimension = {dim} : i64}}
          : (tensor<4x8xf32>) -> {result}
        return %r : {result}
        """)


@pytest.mark.parametrize(("dim", "result", "message"), [
    (2, "tensor<4x4xf32>", "scatter dim should be less than operand/result rank"),
    (1, "tensor<4x3xf32>", "operand scatter dimension has size 8, expected to be a multiple of result scatter "
                           "dimension size 3"),
    (1, "tensor<2x4xf32>", "non scatter dimensions should be same for operand (4) and result (2)"),
    (-1, "tensor<4x4xf32>", "'stablehlo.reduce_scatter' op attribute 'scatter_dimension' failed to satisfy "
                            "constraint: 64-bit signless integer attribute whose value is non-negative"),
])
def test_reduce_scatter_dimension(dim: int, result: str, message: str) -> None:
    check(_reduce_scatter(dim, result), message)


def _all_to_all(split_count: int, result: str, groups: str = "dense<[[0, 1]]> : tensor<1x2xi64>") -> str:
    return module("%x: tensor<4x8xf32>", result, f"""\
        %r = "stablehlo.all_to_all"(%x) {{split_dimension = 1 : i64, concat_dimension = 0 : i64,
          split_count = {split_count} : i64, replica_groups = {groups}}} : (tensor<4x8xf32>) -> {result}
        return %r : {result}
        """)


def test_all_to_all_shapes() -> None:
    assert ours(_all_to_all(2, "tensor<8x4xf32>")) == []
    check(_all_to_all(2, "tensor<4x8xf32>"),
          "'stablehlo.all_to_all' op inferred type(s) 'tensor<8x4xf32>' are incompatible with return type(s) of "
          "operation 'tensor<4x8xf32>'")
    check(_all_to_all(3, "tensor<12x2xf32>", "dense<[[0, 1, 2]]> : tensor<1x3xi64>"),
          "split dimension has size 8, expected to be a multiple of split_count 3")
    check(_all_to_all(4, "tensor<16x2xf32>"), "group size of replica_groups must be 4")


def _collective_permute(pairs: str) -> str:
    return module("%x: tensor<4xf32>", "tensor<4xf32>", f"""\
        %r = "stablehlo.collective_permute"(%x) {{source_target_pairs = {pairs}}} : (tensor<4xf32>) -> tensor<4xf32>
        return %r : tensor<4xf32>
        """)


@pytest.mark.parametrize(("pairs", "message"), [
    ("dense<[[0, 1], [0, 2]]> : tensor<2x2xi64>", "duplicate sources not allowed."),
    ("dense<[[0, 1], [2, 1]]> : tensor<2x2xi64>", "duplicate targets not allowed."),
    ("dense<[[0, -1]]> : tensor<1x2xi64>", "replica ids in source_target_pairs must be >= 0."),
    ("dense<[[0, 1, 2]]> : tensor<1x3xi64>", "expect source_target_pairs attribute of shape (N, 2), but got (1, 3)"),
])
def test_collective_permute_pairs(pairs: str, message: str) -> None:
    check(_collective_permute(pairs), message)


def test_collective_broadcast_dynamic_root() -> None:
    text = module("%x: tensor<4xf32>, %root: tensor<2xi32>", "tensor<4xf32>", """\
        %r = "stablehlo.collective_broadcast"(%x, %root) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>,
          has_dynamic_root} : (tensor<4xf32>, tensor<2xi32>) -> tensor<4xf32>
        return %r : tensor<4xf32>
        """)
    check(text, "last operand of collective_broadcast with has_dynamic_root=true must have the same number of "
                "elements as data operands (1), but got 2")


def _mesh_axes_gather(mesh: str) -> str:
    groups = (f"#stablehlo.replica_group_mesh_axes<mesh = @{mesh}, axes = [#stablehlo.axis_ref<name = \"a\">]>")
    return "func.func private @m()\n" + module("%x: tensor<4x4xf32>", "tensor<8x4xf32>", f"""\
        %r = "stablehlo.all_gather"(%x) {{all_gather_dim = 0 : i64, replica_groups = {groups}}}
          : (tensor<4x4xf32>) -> tensor<8x4xf32>
        return %r : tensor<8x4xf32>
        """)


def test_mesh_axes_replica_groups_name_a_symbol() -> None:
    assert ours(_mesh_axes_gather("m")) == []
    assert ours(_mesh_axes_gather("nowhere")) == [
        (3, "'stablehlo.all_gather' op replica_groups: mesh symbol 'nowhere' not found")]
    assert jaxlib(_mesh_axes_gather("nowhere"))[:1] == [
        (3, "'stablehlo.all_gather' op replica_groups: mesh symbol 'nowhere' not found")]
