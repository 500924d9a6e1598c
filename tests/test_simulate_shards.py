"""Global tensors cut into the pieces devices hold and put back (``simulate_shards``): padding where the
shards do not divide, device_ids, sub-axes, replicated and unreduced axes."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import shardy_py
from shardy_py.interpreter.simulate_shards import assemble, mesh_devices, mesh_position, split


def _mesh(text: str):
    return shardy_py.parse_attribute(text)


def _sharding(text: str):
    return shardy_py.parse_attribute(text)


def test_rows_that_do_not_divide_are_padded_with_zeros_on_the_last_device():
    mesh = _mesh('#sdy.mesh<["x"=4]>')
    pieces = split(np.arange(10, dtype=np.int32), _sharding('#sdy.sharding<@m, [{"x"}]>'), mesh)
    assert {d: p.tolist() for d, p in pieces.items()} == {0: [0, 1, 2], 1: [3, 4, 5], 2: [6, 7, 8], 3: [9, 0, 0]}


def test_device_ids_decide_which_device_holds_which_slice():
    mesh = _mesh('#sdy.mesh<["x"=2, "y"=2], device_ids=[3, 1, 0, 2]>')
    pieces = split(np.arange(4, dtype=np.int32).reshape(2, 2), _sharding('#sdy.sharding<@m, [{"x"}, {"y"}]>'), mesh)
    assert {d: p.tolist() for d, p in pieces.items()} == {3: [[0]], 1: [[1]], 0: [[2]], 2: [[3]]}
    assert mesh_devices(mesh) == [3, 1, 0, 2]
    assert mesh_position(mesh, 0) == {"x": 1, "y": 0}
    assert mesh_position(mesh, 7) is None


def test_a_sub_axis_splits_along_its_part_of_the_axis():
    mesh = _mesh('#sdy.mesh<["x"=4]>')
    pieces = split(np.arange(4, dtype=np.int32), _sharding('#sdy.sharding<@m, [{"x":(2)2}]>'), mesh)
    assert {d: p.tolist() for d, p in pieces.items()} == {0: [0, 1], 1: [2, 3], 2: [0, 1], 3: [2, 3]}


def test_unreduced_axes_give_the_value_to_index_zero_and_zeros_to_the_others():
    mesh = _mesh('#sdy.mesh<["x"=2, "y"=2]>')
    s = _sharding('#sdy.sharding<@m, [{"x"}], unreduced={"y"}>')
    pieces = split(np.array([1.0, 2.0], np.float32), s, mesh)
    assert {d: p.tolist() for d, p in pieces.items()} == {0: [1.0], 1: [0.0], 2: [2.0], 3: [0.0]}
    back = assemble({0: np.array([1.0], np.float32), 1: np.array([4.0], np.float32), 2: np.array([2.0], np.float32),
                     3: np.array([5.0], np.float32)}, (2,), s, mesh)
    assert back.value.tolist() == [5.0, 7.0]


def test_max_unreduced_axes_give_every_device_the_value_and_take_the_largest():
    mesh = _mesh('#sdy.mesh<["y"=2]>')
    s = _sharding('#sdy.sharding<@m, [{}], unreduced=max{"y"}>')
    assert {d: p.tolist() for d, p in split(np.array([3], np.int32), s, mesh).items()} == {0: [3], 1: [3]}
    assert assemble({0: np.array([3], np.int32), 1: np.array([8], np.int32)}, (1,), s, mesh).value.tolist() == [8]


def test_replicas_that_disagree_are_measured():
    mesh = _mesh('#sdy.mesh<["x"=2]>')
    s = _sharding('#sdy.sharding<@m, [{}]>')
    back = assemble({0: np.array([1.0, 2.0]), 1: np.array([1.0, 2.5])}, (2,), s, mesh)
    assert back.value.tolist() == [1.0, 2.0]
    assert back.replica_difference == 0.5


SHARDINGS = ['[{"x"}, {}]', '[{}, {"y"}]', '[{"x", "y"}, {}]', '[{"y"}, {"x"}]', '[{"x":(1)2}, {"y"}]',
             '[{"x":(2)2, "y"}, {}]', '[{}, {}]', '[{"y", "x"}, {}]']


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 13), cols=st.integers(1, 7), sharding=st.sampled_from(SHARDINGS),
       ids=st.permutations(list(range(8))))
def test_assemble_gives_back_what_split_cut(rows, cols, sharding, ids):
    mesh = _mesh(f'#sdy.mesh<["x"=4, "y"=2], device_ids={list(ids)}>')
    s = _sharding(f"#sdy.sharding<@m, {sharding}>")
    value = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)
    back = assemble(split(value, s, mesh), value.shape, s, mesh)
    assert np.array_equal(back.value, value)
    assert back.replica_difference == 0.0
