"""Verifier rules B1-B7, C1-C2: meshes and mesh symbols."""
from __future__ import annotations

import pytest
from verify_helpers import errors, ok


@pytest.mark.parametrize("text", [
    'sdy.mesh @m = <["a"=2, "b"=4]>',
    'sdy.mesh @empty = <[]>',
    'sdy.mesh @maximal = <[], device_ids=[3]>',
    'sdy.mesh @m = <["a"=2, "b"=2], device_ids=[0, 2, 1, 3]>',
    'sdy.mesh @one = <["a"=1]>',
])
def test_valid_meshes(text):
    assert ok(text)


@pytest.mark.parametrize("text, want", [
    ('sdy.mesh @m = <["a"=2, "b"=0]>', '1: mesh axis "b" has size 0; axis sizes must be at least 1'),
    ('sdy.mesh @m = <["a"=2, "a"=4]>', '1: mesh axis name "a" is defined more than once'),
    ('sdy.mesh @m = <[], device_ids=[-1]>', '1: mesh device id -1 is negative; device ids must be >= 0'),
    ('sdy.mesh @m = <[], device_ids=[1, 0]>',
     '1: a mesh without axes may list at most one device id (a maximal mesh), got 2'),
    ('sdy.mesh @m = <["a"=2, "b"=2], device_ids=[0, 2, 1, 3, 4, 5]>',
     '1: mesh has 4 devices (product of its axis sizes) but device_ids lists 6 ids'),
    ('sdy.mesh @m = <["a"=2], device_ids=[2, 1]>', '1: device_ids must be a permutation of 0..1; sorted they are [1, 2]'),  # noqa: E501
    ('sdy.mesh @m = <["a"=2]>\nsdy.mesh @m = <["a"=4]>', '2: symbol @m is already defined'),
])
def test_invalid_meshes(text, want):
    assert errors(text) == [want]


def test_inline_mesh_in_sharding_is_checked_first():
    text = """
    func.func @f(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=0]>, [{"zz"}]>}) -> tensor<8xf32> {
      return %arg0 : tensor<8xf32>
    }
    """
    # The mesh error is a parse-time error in Shardy: the unknown axis is not reported.
    assert errors(text) == ['2: mesh axis "a" has size 0; axis sizes must be at least 1']


def test_mesh_rules_directly():
    from shardy_py.ir.attrs import MeshAttr, MeshAxisAttr
    from shardy_py.verify.meshes import verify_mesh_attr

    assert verify_mesh_attr(MeshAttr((MeshAxisAttr("a", 2),), (0, 1))).message == (
        "device_ids are in iota order 0..N-1; omit them")
    assert verify_mesh_attr(MeshAttr.get((MeshAxisAttr("a", 2),), (0, 1))) is None
