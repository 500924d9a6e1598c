# ruff: noqa: E501  (expected MLIR text is printed on one line, however long; it must be exact)
"""``-sdy-explicit-gather-scatter-batching`` and the greedy-driver effects it brings with it
(constants hoisted and uniqued per isolated region, dead ops erased).

Expected texts are jaxlib's C++ output on the same input (re-checked against jaxlib when it is
installed); the differential tests run Shardy's own test file and JAX programs that index rows
with ``jnp.arange`` (the pattern the pass exists for) through both."""
from __future__ import annotations

import functools

import pytest

import shardy_py
from shardy_py.passes.manager import PassManager

FLAG = "sdy-explicit-gather-scatter-batching"
CPP_PIPELINE = "builtin.module(func.func(sdy-explicit-gather-scatter-batching))"


def _run(text: str) -> str:
    module = shardy_py.parse(text)
    PassManager.parse(["-" + FLAG]).run(module)
    return str(module)


ROW_GATHER = r'''func.func @main(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xi32>) -> tensor<4x1xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<4x1xi32>
  %1 = stablehlo.concatenate %0, %arg1, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %2 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x1xf32>
  return %2 : tensor<4x1xf32>
}
'''
ROW_GATHER_OUT = r'''module {
  func.func @main(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xi32>) -> tensor<4x1xf32> {
    %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x1xi32>) -> tensor<4x1xf32>
    return %0 : tensor<4x1xf32>
  }
}
'''

#: The iota is along dimension 1: not a batch index, nothing to rewrite (the module is unchanged).
IOTA_ALONG_1 = r'''func.func @main(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xi32>) -> tensor<4x1xf32> {
  %0 = stablehlo.iota dim = 1 : tensor<4x1xi32>
  %1 = stablehlo.concatenate %0, %arg1, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
  %2 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x1xf32>
  return %2 : tensor<4x1xf32>
}
'''
IOTA_ALONG_1_OUT = r'''module {
  func.func @main(%arg0: tensor<4x8xf32>, %arg1: tensor<4x1xi32>) -> tensor<4x1xf32> {
    %0 = stablehlo.iota dim = 1 : tensor<4x1xi32>
    %1 = stablehlo.concatenate %0, %arg1, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
    %2 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 1, 1>}> : (tensor<4x8xf32>, tensor<4x2xi32>) -> tensor<4x1xf32>
    return %2 : tensor<4x1xf32>
  }
}
'''

#: Constants move to the front of the function (those in a while body too) in the order met, equal
#: ones become one, and ops left without uses (the while, the transpose) are erased.
CONSTANTS = r'''func.func @main(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<i32>) {
  %0 = stablehlo.negate %arg0 : tensor<4x8xf32>
  %c = stablehlo.constant dense<1> : tensor<i32>
  %c_0 = stablehlo.constant dense<2> : tensor<i32>
  %1 = stablehlo.add %c, %c_0 : tensor<i32>
  %2 = stablehlo.transpose %arg0, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = stablehlo.while(%iterArg = %1) : tensor<i32>
    cond {
      %c_1 = stablehlo.constant dense<3> : tensor<i32>
      %4 = stablehlo.compare LT, %iterArg, %c_1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %4 = stablehlo.add %iterArg, %c_1 : tensor<i32>
      stablehlo.return %4 : tensor<i32>
    }
  %c_2 = stablehlo.constant dense<2> : tensor<i32>
  %5 = stablehlo.multiply %1, %c_2 : tensor<i32>
  return %0, %5 : tensor<4x8xf32>, tensor<i32>
}
'''
CONSTANTS_OUT = r'''module {
  func.func @main(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<i32>) {
    %c = stablehlo.constant dense<2> : tensor<i32>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.negate %arg0 : tensor<4x8xf32>
    %1 = stablehlo.add %c_0, %c : tensor<i32>
    %2 = stablehlo.multiply %1, %c : tensor<i32>
    return %0, %2 : tensor<4x8xf32>, tensor<i32>
  }
}
'''

#: A manual computation is isolated from above: its constants are uniqued inside it.
MANUAL = r'''sdy.mesh @mesh = <["a"=2]>
func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
    %2 = stablehlo.abs %arg1 : tensor<4xf32>
    %cst = stablehlo.constant dense<1.0> : tensor<4xf32>
    %3 = stablehlo.add %2, %cst : tensor<4xf32>
    sdy.return %3 : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %cst = stablehlo.constant dense<1.0> : tensor<8xf32>
  %4 = stablehlo.add %1, %cst : tensor<8xf32>
  return %4 : tensor<8xf32>
}
'''
MANUAL_OUT = r'''module {
  sdy.mesh @mesh = <["a"=2]>
  func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<8xf32>
    %0 = stablehlo.negate %arg0 : tensor<8xf32>
    %1 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"a"}]>] out_shardings=[<@mesh, [{"a"}]>] manual_axes={"a"} (%arg1: tensor<4xf32>) {
      %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<4xf32>
      %3 = stablehlo.abs %arg1 : tensor<4xf32>
      %4 = stablehlo.add %3, %cst_0 : tensor<4xf32>
      sdy.return %4 : tensor<4xf32>
    } : (tensor<8xf32>) -> tensor<8xf32>
    %2 = stablehlo.add %1, %cst : tensor<8xf32>
    return %2 : tensor<8xf32>
  }
}
'''

#: A custom call has effects only when it says so.
CUSTOM_CALLS = r'''func.func @main(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = stablehlo.custom_call @foo(%arg0) : (tensor<f32>) -> tensor<f32>
  %1 = stablehlo.custom_call @foo(%arg0) {has_side_effect = true} : (tensor<f32>) -> tensor<f32>
  %2 = stablehlo.custom_call @foo(%arg0) {has_side_effect = false} : (tensor<f32>) -> tensor<f32>
  return %arg0 : tensor<f32>
}
'''
CUSTOM_CALLS_OUT = r'''module {
  func.func @main(%arg0: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.custom_call @foo(%arg0) {has_side_effect = true} : (tensor<f32>) -> tensor<f32>
    return %arg0 : tensor<f32>
  }
}
'''

#: Manual and named computations take their effects from their bodies: unused, they are dead.
DEAD_COMPUTATIONS = r'''sdy.mesh @mesh = <["x"=1], device_ids=[0]>
func.func @main(%arg0: tensor<f32>) -> tensor<f32> {
  sdy.manual_computation() in_shardings=[] out_shardings=[] manual_axes={} () {
    sdy.return
  } : () -> ()
  %0 = sdy.named_computation<"foo">(%arg0) (%arg1: tensor<f32>) {
    sdy.return %arg1 : tensor<f32>
  } : (tensor<f32>) -> tensor<f32>
  return %arg0 : tensor<f32>
}
'''
DEAD_COMPUTATIONS_OUT = r'''module {
  sdy.mesh @mesh = <["x"=1]>
  func.func @main(%arg0: tensor<f32>) -> tensor<f32> {
    return %arg0 : tensor<f32>
  }
}
'''

CASES = {
    "row_gather": (ROW_GATHER, ROW_GATHER_OUT),
    "iota_along_1": (IOTA_ALONG_1, IOTA_ALONG_1_OUT),
    "constants": (CONSTANTS, CONSTANTS_OUT),
    "manual_computation": (MANUAL, MANUAL_OUT),
    "dead_computations": (DEAD_COMPUTATIONS, DEAD_COMPUTATIONS_OUT),
    "custom_calls": (CUSTOM_CALLS, CUSTOM_CALLS_OUT),
}


def test_a_gather_indexing_rows_with_an_iota_gets_explicit_batching_dims():
    assert _run(ROW_GATHER) == ROW_GATHER_OUT


def test_an_iota_along_another_dimension_is_no_batch_index():
    assert _run(IOTA_ALONG_1) == IOTA_ALONG_1_OUT


def test_constants_are_hoisted_and_uniqued_and_dead_ops_erased():
    assert _run(CONSTANTS) == CONSTANTS_OUT


def test_constants_of_a_manual_computation_stay_inside_it():
    assert _run(MANUAL) == MANUAL_OUT


def test_unused_manual_and_named_computations_are_erased():
    assert _run(DEAD_COMPUTATIONS) == DEAD_COMPUTATIONS_OUT


def test_only_custom_calls_with_side_effects_survive_unused():
    assert _run(CUSTOM_CALLS) == CUSTOM_CALLS_OUT


def test_a_moved_constant_keeps_its_location_unless_it_left_its_block_or_absorbed_another():
    text = r'''func.func @main(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = stablehlo.negate %arg0 : tensor<i32> loc("neg")
  %c = stablehlo.constant dense<1> : tensor<i32> loc("one")
  %c_0 = stablehlo.constant dense<2> : tensor<i32> loc("two")
  %c_1 = stablehlo.constant dense<2> : tensor<i32> loc("two again")
  %1 = stablehlo.add %0, %c : tensor<i32> loc("add")
  %2 = stablehlo.add %1, %c_0 : tensor<i32> loc("add")
  %3 = stablehlo.add %2, %c_1 : tensor<i32> loc("add")
  return %3 : tensor<i32> loc("ret")
}
'''
    module = shardy_py.parse(text)
    PassManager.parse(["-" + FLAG]).run(module)
    constants = [op for op in module.op.walk() if op.name == "stablehlo.constant"]
    assert [op.location_text for op in constants] == ['loc(unknown)', 'loc("one")']


# -- against jaxlib ---------------------------------------------------------------------------------

def _jax():
    return pytest.importorskip("jax", reason="the oracle is the C++ Shardy in jaxlib (pip install 'jax==0.10.2')")


@functools.cache
def _context():
    _jax()
    from jax._src.interpreters import mlir as jax_mlir
    ctx = jax_mlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    return ctx


def cpp(text: str) -> str:
    """jaxlib's output of the pass on ``text``."""
    from jax._src.lib.mlir import ir, passmanager
    module = ir.Module.parse(text, context=_context())
    passmanager.PassManager.parse(CPP_PIPELINE, context=_context()).run(module.operation)
    return module.operation.get_asm()


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_expected_texts_are_cpps(case):
    text, expected = CASES[case]
    assert cpp(text) == expected


def test_matches_cpp_on_shardys_test_file(conformance_dir):
    path = conformance_dir / "transforms" / "import" / "test" / "explicit_gather_scatter_batching.mlir"
    text = path.read_text()
    assert _run(text) == cpp(text)


def _programs():
    """JAX functions indexing rows with ``jnp.arange`` (gather and scatter forms) and some that do not."""
    jax = _jax()
    jnp = jax.numpy
    x, rows, cols = jnp.zeros((4, 8)), jnp.zeros((4,), jnp.int32), jnp.zeros((4, 3), jnp.int32)
    return {
        "row_gather": (lambda x, i: x[jnp.arange(4), i], (x, rows)),
        "row_gather_2d_index": (lambda x, i: x[jnp.arange(4)[:, None], i], (x, cols)),
        "row_set": (lambda x, i, v: x.at[jnp.arange(4), i].set(v), (x, rows, jnp.zeros((4,)))),
        "row_add": (lambda x, i, v: x.at[jnp.arange(4), i].add(v), (x, rows, jnp.zeros((4,)))),
        "row_max": (lambda x, i, v: x.at[jnp.arange(4), i].max(v), (x, rows, jnp.zeros((4,)))),
        "take_along_axis": (lambda x, i: jnp.take_along_axis(x, i, axis=1), (x, cols)),
        "vmapped_dynamic_index": (jax.vmap(lambda r, i: jax.lax.dynamic_index_in_dim(r, i, keepdims=False)), (x, rows)),
        "plain_take": (lambda x, i: x[i], (x, jnp.zeros((3,), jnp.int32))),
        "while_with_constants": (lambda x: jax.lax.fori_loop(0, 3, lambda k, a: a * 2.0 + 1.0, x), (x,)),
    }


@pytest.mark.parametrize("name", ["row_gather", "row_gather_2d_index", "row_set", "row_add", "row_max",
                                  "take_along_axis", "vmapped_dynamic_index", "plain_take", "while_with_constants"])
def test_matches_cpp_on_jax_programs(name):
    jax = _jax()
    fn, args = _programs()[name]
    text = jax.jit(fn).lower(*args).as_text()
    assert _run(text) == cpp(text)
