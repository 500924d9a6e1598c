"""``is_sharding_equivalent_across_reshapes`` (``isShardingEquivalentAcrossReshapes``, ir/utils.cc):
whether two shardings of reshapes of one tensor put every element on the same devices.  Against
jaxlib 0.12 it is checked through the two rewrites that use it (tests/test_passes_optimize_collectives.py
and the reshard CSE in tests/test_passes_canonicalize_jaxlib.py)."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import shardy_py
from shardy_py.ir.types import RankedTensorType
from shardy_py.passes.export.sharding_across_reshapes import is_sharding_equivalent_across_reshapes

MESHES = {
    "xy": shardy_py.parse_attribute('#sdy.mesh<["x"=2, "y"=2]>'),
    "a4": shardy_py.parse_attribute('#sdy.mesh<["a"=4]>'),
    "a8": shardy_py.parse_attribute('#sdy.mesh<["a"=8]>'),
}


def equivalent(mesh: str, s1: str, shape1, s2: str, shape2, allow_non_divisible: bool = False) -> bool:
    a = shardy_py.parse_attribute(f"#sdy.sharding<@m, {s1}>")
    b = shardy_py.parse_attribute(f"#sdy.sharding<@m, {s2}>")
    t1, t2 = RankedTensorType.get(shape1, "f32"), RankedTensorType.get(shape2, "f32")
    return is_sharding_equivalent_across_reshapes(a, t1, b, t2, lambda s: MESHES[mesh], allow_non_divisible)


def test_splitting_a_dimension_between_its_axes_keeps_the_layout():
    assert equivalent("xy", '[{"x", "y"}, {}]', (4, 4), '[{"x"}, {"y"}, {}]', (2, 2, 4))


def test_swapping_the_axes_of_split_dimensions_changes_the_layout():
    assert not equivalent("xy", '[{"x", "y"}, {}]', (4, 4), '[{"y"}, {"x"}, {}]', (2, 2, 4))


def test_a_larger_major_dimension_still_matches():
    """``x`` on 4 rows of 8 splits the data in halves, as ``x`` on 32 elements does."""
    assert equivalent("xy", '[{"x"}, {}]', (4, 8), '[{"x"}]', (32,))


def test_sub_axes_in_layout_order_merge_into_the_full_axis():
    assert equivalent("a4", '[{"a":(1)2}, {"a":(2)2}]', (2, 4), '[{"a"}]', (8,))
    assert equivalent("a4", '[{"a"}]', (8,), '[{"a":(1)2}, {"a":(2)2}]', (2, 4))


def test_sub_axes_in_reverse_order_do_not_merge():
    assert not equivalent("a4", '[{"a":(2)2}, {"a":(1)2}]', (2, 4), '[{"a"}]', (8,))


def test_sub_axes_merge_into_a_sub_axis():
    assert equivalent("a8", '[{}, {"a":(2)4}]', (2, 4), '[{}, {"a":(2)2}, {"a":(4)2}]', (2, 2, 2))


def test_different_replicated_axes_or_meshes_are_never_equivalent():
    a = shardy_py.parse_attribute('#sdy.sharding<@m, [{"x"}], replicated={"y"}>')
    b = shardy_py.parse_attribute('#sdy.sharding<@m, [{"x"}]>')
    t = RankedTensorType.get((8,), "f32")
    assert not is_sharding_equivalent_across_reshapes(a, t, b, t, lambda s: MESHES["xy"])
    c = shardy_py.parse_attribute('#sdy.sharding<@other, [{"x"}]>')
    assert not is_sharding_equivalent_across_reshapes(b, t, c, t, lambda s: MESHES["xy"])


def test_an_encoded_tensor_is_never_equivalent():
    a = shardy_py.parse_attribute('#sdy.sharding<@m, [{"x"}]>')
    plain = RankedTensorType.get((8,), "f32")
    encoded = RankedTensorType.get((8,), "f32", '"layout"')
    assert not is_sharding_equivalent_across_reshapes(a, plain, a, encoded, lambda s: MESHES["xy"])


def test_non_divisible_reshapes_compare_the_element_sequence_when_allowed():
    # 8x24 with "a" on the 24 and 2x4x4x6 with "a" on a 4: the same blocks of 3 elements.
    assert equivalent("a8", '[{}, {"a"}]', (8, 24), '[{}, {}, {"a"}, {}]', (2, 4, 4, 6), allow_non_divisible=True)
    # 6 elements over 8 devices vs 2x3 with "a" on the 3: different blocks.
    assert not equivalent("a8", '[{"a"}]', (6,), '[{}, {"a"}]', (2, 3), allow_non_divisible=True)


@pytest.mark.parametrize("allow", [False, True])
@given(st.sampled_from(['[{"x", "y"}, {}]', '[{"x"}, {"y"}]', '[{}, {"y", "x"}]', '[{"y"}, {}]']),
       st.sampled_from([(4, 4), (8, 2), (2, 8)]))
def test_a_sharding_is_equivalent_to_itself(allow, sharding, shape):
    assert equivalent("xy", sharding, shape, sharding, shape, allow)


@given(st.sampled_from(['[{"x", "y"}]', '[{"y", "x"}]', '[{"x"}]', '[{"y"}]', "[{}]"]),
       st.sampled_from(['[{"x"}, {"y"}]', '[{"y"}, {"x"}]', '[{"x", "y"}, {}]', '[{}, {"x"}]', "[{}, {}]"]))
def test_equivalence_is_symmetric(flat, split):
    assert equivalent("xy", flat, (16,), split, (4, 4)) == equivalent("xy", split, (4, 4), flat, (16,))
