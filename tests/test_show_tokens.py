"""``show`` on values without tiles: tokens (JAX's host callbacks), unranked tensors and tuples are
described in words, and ``show`` exits 0 on every module the verifier accepts."""
from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

import shardy_py
from shardy_py.cli import main
from shardy_py.show import module_pictures
from shardy_py.verify import verify

# JAX lowers host callbacks with ordered effects to custom calls that take and return tokens,
# sharded on a maximal mesh; unordered ones on 8 devices put the callback on device 0.
JAX_SCRIPT = r"""
import os, sys
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=" + sys.argv[1]
import jax, numpy as np
from jax.experimental import io_callback
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
n = int(sys.argv[1])
mesh = Mesh(np.array(jax.devices()).reshape(n), ("x",))
ordered = n == 1
@jax.jit
def f(x):
    y = io_callback(lambda v: v, jax.ShapeDtypeStruct(x.shape, x.dtype), x, ordered=ordered)
    jax.debug.print("y {}", y, ordered=ordered)
    return y * 2
x = jax.device_put(np.ones((8, 16), np.float32), NamedSharding(mesh, P("x")))
print(f.lower(x).as_text())
"""


def _jax_module(devices: int) -> str:
    pytest.importorskip("jax")
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    r = subprocess.run([sys.executable, "-c", JAX_SCRIPT, str(devices)], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout


@pytest.fixture(scope="module")
def jax_token_module() -> str:
    return _jax_module(1)


@pytest.fixture(scope="module")
def jax_maximal_module() -> str:
    return _jax_module(8)


def _show(text: str, capsys, monkeypatch, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status = main(["show", "-", "--width", "80", "--color", "never", *args])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_jax_host_callback_tokens_are_described_and_show_exits_0(jax_token_module, capsys, monkeypatch):
    module = shardy_py.parse(jax_token_module)
    assert verify(module) == []
    assert "!stablehlo.token" in jax_token_module
    status, out, err = _show(jax_token_module, capsys, monkeypatch)
    assert (status, err) == (0, "")
    token = out[out.index("%0#0: !stablehlo.token"):].split("\n\n")[0].splitlines()
    assert token == ["%0#0: !stablehlo.token  (result 0 of stablehlo.custom_call)",
                     "  #sdy.sharding<@maximal_mesh_0, []>",
                     "  mesh @maximal_mesh_0 = <[], device_ids=[0]>",
                     "  token, on device 0"]


def test_jax_maximal_sharding_of_a_callback_is_drawn_on_its_device(jax_maximal_module, capsys, monkeypatch):
    assert verify(shardy_py.parse(jax_maximal_module)) == []
    status, out, err = _show(jax_maximal_module, capsys, monkeypatch)
    assert (status, err) == (0, "")
    assert "  maximal sharding: the whole tensor lives on device 0 only" in out.splitlines()


EDGE_MODULE = """module {
  sdy.mesh @mesh = <["x"=2, "y"=3]>
  sdy.mesh @empty = <[]>
  sdy.mesh @maximal = <[], device_ids=[5]>
  func.func @main(%arg0: !stablehlo.token {sdy.sharding = #sdy.sharding<@mesh, []>},
                  %arg1: tensor<*xf32> {sdy.sharding = #sdy.sharding<@maximal, []>},
                  %arg2: !stablehlo.token {sdy.sharding = #sdy.sharding<@empty, []>},
                  %arg3: tuple<tensor<4xf32>, tensor<2xf32>> {sdy.sharding = #sdy.sharding<@maximal, []>},
                  %arg4: tuple<tensor<8xf32>> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> !stablehlo.token {
    %0 = sdy.sharding_constraint %arg0 <@maximal, []> : !stablehlo.token
    return %0 : !stablehlo.token
  }
}
"""


def test_values_without_tiles_are_described_in_words():
    module = shardy_py.parse(EDGE_MODULE)
    assert verify(module) == []
    pictures = {p.title: p for p in module_pictures(module)}
    assert {title: (p.description, p.error) for title, p in pictures.items() if p.layout is None} == {
        "%arg0": ("token, on every device of the mesh (6 devices), not split", None),
        "%arg1": ("unranked tensor tensor<*xf32>, on device 5", None),
        "%arg2": ("token, on an empty mesh (no devices named)", None),
        "%arg3": ("tuple<tensor<4xf32>, tensor<2xf32>>, on device 5", None),
        "%0": ("token, on device 5", None),
    }


def test_a_one_element_tuple_is_drawn_as_its_element():
    module = shardy_py.parse(EDGE_MODULE)
    picture = next(p for p in module_pictures(module) if p.title == "%arg4")
    assert picture.error is None
    assert picture.layout.cells == {(0,): (0, 1, 2), (1,): (3, 4, 5)}


def test_show_exits_0_on_values_without_tiles_in_text_and_html(capsys, monkeypatch):
    status, out, err = _show(EDGE_MODULE, capsys, monkeypatch)
    assert (status, err) == (0, "")
    assert "  token, on device 5" in out.splitlines()
    status, out, err = _show(EDGE_MODULE, capsys, monkeypatch, "--html")
    assert (status, err) == (0, "")
    assert "<div>token, on device 5</div>" in out


# Shardy's verifier accepts (b/415376816) a manual computation whose body uses another mesh.
OTHER_MESH_IN_BODY = """module {
  sdy.mesh @meshA = <["a"=4]>
  sdy.mesh @meshB = <["b"=4]>
  func.func @main(%arg0: tensor<16x32xf32>) -> tensor<16x32xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@meshA, [{}, {}]>]
        out_shardings=[<@meshA, [{}, {}]>] manual_axes={"a"} (%arg1: tensor<16x32xf32>) {
      %1 = stablehlo.add %arg1, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@meshB, [{"b"}, {}]>]>}
        : tensor<16x32xf32>
      sdy.return %1 : tensor<16x32xf32>
    } : (tensor<16x32xf32>) -> tensor<16x32xf32>
    return %0 : tensor<16x32xf32>
  }
}
"""

# XLA has no HloSharding for unreduced axes inside manual axes; show places such a value's tiles
# as it places replicated ones (every device of the group holds a partial value of the tile).
UNREDUCED_IN_MANUAL = """module {
  sdy.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}]>]
        out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg1: tensor<4xf32>) {
      %1 = stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}], unreduced={"y"}>]>}
        : tensor<4xf32>
      sdy.return %1 : tensor<4xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
"""


def test_a_manual_computation_body_on_another_mesh_is_drawn_on_that_mesh(capsys, monkeypatch):
    module = shardy_py.parse(OTHER_MESH_IN_BODY)
    assert verify(module) == []
    picture = next(p for p in module_pictures(module) if p.title == "%1")
    assert picture.error is None
    assert picture.layout.manual_axes == ()
    assert picture.layout.cells == {(0, 0): (0,), (1, 0): (1,), (2, 0): (2,), (3, 0): (3,)}
    assert _show(OTHER_MESH_IN_BODY, capsys, monkeypatch)[::2] == (0, "")


def test_unreduced_axes_inside_manual_axes_are_drawn_like_replicated_ones(capsys, monkeypatch):
    module = shardy_py.parse(UNREDUCED_IN_MANUAL)
    assert verify(module) == []
    picture = next(p for p in module_pictures(module) if p.title == "%1")
    assert picture.error is None
    assert picture.layout.manual_axes == ("x",)
    assert picture.layout.cells == {(0,): (0, 1, 2, 3)}
    assert _show(UNREDUCED_IN_MANUAL, capsys, monkeypatch)[::2] == (0, "")


def _corpus_modules():
    root = os.environ.get("SHARDY_CONFORMANCE")
    if not root:
        pytest.skip("SHARDY_CONFORMANCE is not set (the path of ../shared/conformance)")
    import re
    from pathlib import Path

    files = sorted(Path(root, "ir").glob("*.mlir")) + sorted(Path(root, "transforms").rglob("*.mlir"))
    for path in files:
        for index, chunk in enumerate(re.split(r"^// -----.*$", path.read_text(), flags=re.M)):
            yield f"{path.name}#{index}", chunk


def test_every_module_of_shardys_tests_that_verifies_is_drawn_without_an_error():
    from shardy_py.errors import ParseError

    drawn, failures = 0, []
    for name, text in _corpus_modules():
        try:
            module = shardy_py.parse(text, name)
        except ParseError:
            continue
        if verify(module):
            continue
        drawn += 1
        failures += [f"{name}: {p.error}" for p in module_pictures(module) if p.error]
    assert failures == []
    assert drawn > 900  # 919 chunks of ir/ and transforms/ verify at SHARDY_COMMIT
