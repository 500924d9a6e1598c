"""``HloSharding.iota_tile``: the one-step construction of common shapes gives exactly what the
general normalisation (``HloSharding.subgroup`` of a canonical ``TileAssignment.iota``) gives,
XLA's C++ prints the same text, and arguments that describe no iota are refused."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shardy_py.hlo import HloSharding, HloShardingError, TileAssignment, clear_caches
from shardy_py.hlo.sharding import _direct_iota_tile

SUBGROUP_TYPES = ("replicated", "manual", "unreduced")


def general(dims, reshape_dims, perm, types) -> HloSharding:
    """The general path, bypassing the one-step construction and the memo."""
    return HloSharding.subgroup(TileAssignment.iota(dims, reshape_dims, perm), types)


def assert_same(ours: HloSharding, expected: HloSharding) -> None:
    assert str(ours) == str(expected)
    assert ours.kind == expected.kind
    assert ours.replicate_on_last_tile_dim == expected.replicate_on_last_tile_dim
    assert ours.subgroup_types == expected.subgroup_types
    if expected.is_tiled:
        assert ours.assignment.dims == expected.assignment.dims
        assert (ours.assignment.reshape_dims, ours.assignment.perm) == \
            (expected.assignment.reshape_dims, expected.assignment.perm)
        assert np.array_equal(ours.tile_assignment, expected.tile_assignment)


@st.composite
def iota_tile_args(draw):
    """Valid ``iota_tile`` arguments: 1-3 reshape dims (often 2, transposed), tile dims that split
    the same device count, and no subgroup, a replicated last dim, or a few subgroup dims."""
    reshape = draw(st.lists(st.sampled_from([1, 2, 3, 4, 6, 8, 16]), min_size=1, max_size=3))
    perm = draw(st.permutations(range(len(reshape))))
    n = math.prod(reshape)
    factors = [f for f in range(1, n + 1) if n % f == 0]
    dims, left = [], n
    for _ in range(draw(st.integers(0, 3))):
        d = draw(st.sampled_from([f for f in factors if left % f == 0]))
        dims.append(d)
        left //= d
    dims.append(left)
    types = draw(st.one_of(
        st.just(()), st.just(("replicated",)),
        st.lists(st.sampled_from(SUBGROUP_TYPES), min_size=1, max_size=len(dims)).map(tuple)))
    return dims, reshape, list(perm), types


@settings(max_examples=600, deadline=None)
@given(iota_tile_args())
def test_iota_tile_equals_the_general_normalisation(args):
    dims, reshape, perm, types = args
    clear_caches()
    assert_same(HloSharding.iota_tile(dims, reshape, perm, types), general(dims, reshape, perm, types))


@pytest.mark.parametrize(("args", "text"), [
    (([16, 16, 4096], [65536, 16], [1, 0], ("replicated",)),
     "{devices=[16,16,4096]<=[65536,16]T(1,0) last_tile_dim_replicate}"),
    (([1024, 1024], [1048576], None, ()), "{devices=[1024,1024]<=[1048576]}"),
    (([4, 2], [2, 4], [1, 0], ()), "{devices=[4,2]<=[2,4]T(1,0)}"),
    (([2, 4], [8], [0], ("replicated",)), "{devices=[2,4]<=[8] last_tile_dim_replicate}"),
    (([2, 3, 2], [2, 6], [1, 0], ("replicated",)), "{devices=[2,3,2]<=[2,6]T(1,0) last_tile_dim_replicate}"),
    (([4, 3], [3, 4], [1, 0], ("replicated",)), "{devices=[4,3]<=[3,4]T(1,0) last_tile_dim_replicate}"),
])
def test_common_shapes_are_built_in_one_step(args, text):
    dims, reshape, perm, types = args
    direct = _direct_iota_tile(tuple(dims), tuple(reshape), None if perm is None else tuple(perm), types)
    assert direct is not None
    assert str(direct) == text
    assert_same(direct, general(dims, reshape, perm, types))


@pytest.mark.parametrize(("args", "text"), [
    # an identity transpose is canonicalised away
    (([4, 2], [2, 4], [0, 1], ()), "{devices=[4,2]<=[8]}"),
    # a size-1 reshape dim is dropped
    (([2, 4], [2, 1, 4], [2, 1, 0], ()), "{devices=[2,4]<=[2,4]T(1,0)}"),
    # the replicated group (6) is not a divisor of the minor reshape dim (4): its devices are sorted
    (([2, 6], [4, 3], [1, 0], ("replicated",)), "{devices=[2,6]0,1,3,4,6,9,2,5,7,8,10,11 last_tile_dim_replicate}"),
    # a size-1 replicated dim is dropped
    (([8, 1], [8], [0], ("replicated",)), "{devices=[8]<=[8]}"),
    # nothing but replication
    (([1, 8], [8], [0], ("replicated",)), "{replicated}"),
    # other subgroup types
    (([2, 4], [8], [0], ("manual",)), "{devices=[2,4]<=[8] last_tile_dims={manual}}"),
])
def test_other_shapes_go_through_the_general_normalisation(args, text):
    dims, reshape, perm, types = args
    assert _direct_iota_tile(tuple(dims), tuple(reshape), tuple(perm), types) is None
    clear_caches()
    h = HloSharding.iota_tile(dims, reshape, perm, types)
    assert str(h) == text
    assert_same(h, general(dims, reshape, perm, types))


def test_numpy_ints_give_python_int_dims():
    h = HloSharding.iota_tile(np.array([4, 2]), np.array([2, 4]), np.array([1, 0]))
    assert str(h) == "{devices=[4,2]<=[2,4]T(1,0)}"
    assert all(type(d) is int for d in h.assignment.dims + h.assignment.reshape_dims + h.assignment.perm)


@pytest.mark.parametrize(("args", "message"), [
    (([4, 2], [2, 2], [1, 0]), r"the iota reshape dims \[2, 2\] hold 4 devices, the tile dims \[4, 2\] 8"),
    (([4, 2], [2, 4], [1, 1]), r"the iota transpose \[1, 1\] is not a permutation of the 2 reshape dims"),
    (([-2, -4], [8], [0]), r"iota dims must be positive: tile dims \[-2, -4\], reshape dims \[8\]"),
    (([8], [-2, -4], [1, 0]), r"iota dims must be positive: tile dims \[8\], reshape dims \[-2, -4\]"),
    (([0, 2], [2], [0]), r"iota dims must be positive"),
])
def test_arguments_that_describe_no_iota_are_refused(args, message):
    clear_caches()
    with pytest.raises(HloShardingError, match=message):
        HloSharding.iota_tile(*args)


def test_repeated_calls_return_the_memoised_sharding():
    clear_caches()
    first = HloSharding.iota_tile([16, 16, 4096], [65536, 16], [1, 0], ["replicated"])
    assert HloSharding.iota_tile((16, 16, 4096), (65536, 16), (1, 0), ("replicated",)) is first


class TestAgainstXla:
    """XLA's ``HloSharding.iota_tile`` in jaxlib prints the same text."""

    xc = pytest.importorskip("jax._src.lib").xla_client

    @settings(max_examples=300, deadline=None)
    @given(iota_tile_args())
    def test_text_equals_xla(self, args):
        dims, reshape, perm, types = args
        xla_types = [getattr(self.xc.OpSharding.Type, t.upper()) for t in types]
        clear_caches()
        assert str(HloSharding.iota_tile(dims, reshape, perm, types)) == \
            str(self.xc.HloSharding.iota_tile(dims, reshape, perm, xla_types))
