"""Sharding projection + factor propagation against jaxlib's C++ Shardy, one op at a time.

Each drawn module is ``@main`` with one op whose operands are the function arguments and whose
result is returned.  jaxlib runs ``sdy-basic-propagate`` (or the aggressive pass, or conservative
basic propagation) on it; on our side a small test driver does what the C++ pass does for a single
registered op until nothing changes: project the operand/result shardings onto the op's sharding
rule, propagate the factors (blocked factors do not propagate), project every updated tensor
back, and keep the new sharding unless it equals the old one (or the value had none and the new
one has no axes).  The argument and op-result shardings must match jaxlib's exactly.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import shardy_py
from shardy_py.ir.attrs import TensorShardingAttr
from shardy_py.passes.meshes import MeshTable
from shardy_py.passes.propagation.aggressive_factor_propagation import AggressiveFactorPropagation
from shardy_py.passes.propagation.basic_factor_propagation import BasicFactorPropagation
from shardy_py.passes.propagation.factor_propagation import PropagationDirection
from shardy_py.passes.propagation.sharding_projection import ShardingProjection
from shardy_py.passes.shardings import get_sharding, set_sharding
from shardy_py.rules import sharding_rule

jax_mlir = pytest.importorskip("jax._src.interpreters.mlir")
from jax._src.lib.mlir import ir, passmanager  # noqa: E402

MESH = '<["a"=4, "b"=2, "c"=3, "d"=6]>'

# (operand shapes, result shape, op text with {a0}, {a1} for the operands and {t} for the function type)
OPS = [
    ([(8, 6), (8, 6)], (8, 6), "stablehlo.add {a0}, {a1} : tensor<8x6xf32>"),
    ([(12, 6), (6, 8)], (12, 8), "stablehlo.dot_general {a0}, {a1}, contracting_dims = [1] x [0] : {t}"),
    ([(2, 8, 6), (2, 6, 4)], (2, 8, 4),
     "stablehlo.dot_general {a0}, {a1}, batching_dims = [0] x [0], contracting_dims = [2] x [1] : {t}"),
    ([(24,)], (2, 12), "stablehlo.reshape {a0} : {t}"),
    ([(24,)], (4, 6), "stablehlo.reshape {a0} : {t}"),
    ([(6, 4)], (24,), "stablehlo.reshape {a0} : {t}"),
    ([(6, 4)], (3, 8), "stablehlo.reshape {a0} : {t}"),
    ([(8, 6)], (6, 8), "stablehlo.transpose {a0}, dims = [1, 0] : {t}"),
    ([(6,)], (8, 6), "stablehlo.broadcast_in_dim {a0}, dims = [1] : {t}"),
    ([(8, 6), (4, 6)], (12, 6), "stablehlo.concatenate {a0}, {a1}, dim = 0 : {t}"),
    ([(36,)], (6, 6), "stablehlo.reshape {a0} : {t}"),
    ([(12, 6)], (72,), "stablehlo.reshape {a0} : {t}"),
    ([(8, 12)], (8, 4), "stablehlo.slice {a0} [0:8, 2:6] : {t}"),
    ([(8, 6), ()], (8,),
     "stablehlo.reduce({a0} init: {a1}) applies stablehlo.add across dimensions = [1] : {t}"),
    ([(6, 4), ()], (8, 8), "stablehlo.pad {a0}, {a1}, low = [1, 0], high = [1, 1], interior = [0, 1] : {t}"),
    ([(8, 6), ("i32",), ("i32",)], (4, 6), "stablehlo.dynamic_slice {a0}, {a1}, {a2}, sizes = [4, 6] : {t}"),
    ([(8, 6), (4, 1, "i32")], (4, 6),
     '"stablehlo.gather"({a0}, {a1}) <{{dimension_numbers = #stablehlo.gather<offset_dims = [1], '
     "collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, "
     'slice_sizes = array<i64: 1, 6>}}> : {t}'),
    ([(8, 6)], (8, 6), "stablehlo.reverse {a0}, dims = [1] : {t}"),
]


def tensor_type(shape: tuple) -> str:
    """``(8, 6)`` -> ``tensor<8x6xf32>``; a trailing string is the element type (``(4, "i32")``)."""
    element = shape[-1] if shape and isinstance(shape[-1], str) else "f32"
    dims = shape[:-1] if shape and isinstance(shape[-1], str) else shape
    return "tensor<" + "".join(f"{n}x" for n in dims) + element + ">"


def rank(shape: tuple) -> int:
    return len(shape) - (1 if shape and isinstance(shape[-1], str) else 0)


@st.composite
def sharding_text(draw, rank: int) -> str | None:
    """A sharding on ``@mesh`` (or None): each mesh axis, or its two parts for "a" and "d", goes to at
    most one dimension (the parts of one axis to different dimensions); some unused full axes may be
    replicated."""
    if draw(st.integers(0, 4)) == 0:
        return None
    pool = ['"a":(1)2', '"a":(2)2'] if draw(st.booleans()) else ['"a"']
    pool += ['"b"', '"c"'] + (['"d":(1)2', '"d":(2)3'] if draw(st.booleans()) else ['"d"'])
    pool = draw(st.permutations(pool))
    dims: list[list[str]] = [[] for _ in range(rank)]
    unused = []
    for token in pool:
        where = draw(st.integers(-1, rank - 1))
        if where < 0 or (":" in token and any(x.startswith(token.split(":")[0] + ":") for x in dims[where])):
            unused.append(token)
        else:
            dims[where].append(token)
    parts = []
    for axes in dims:
        body = ", ".join(axes)
        if draw(st.booleans()):
            body = f"{body}, ?" if body else "?"
        parts.append("{" + body + "}")
    replicated = [a for a in ['"b"', '"c"', '"d"'] if a in unused and draw(st.booleans())]
    rep = f", replicated={{{', '.join(replicated)}}}" if replicated else ""
    return f"#sdy.sharding<@mesh, [{', '.join(parts)}]{rep}>"


@st.composite
def one_op_modules(draw) -> str:
    operand_shapes, result_shape, op = draw(st.sampled_from(OPS))
    args = []
    for i, shape in enumerate(operand_shapes):
        s = draw(sharding_text(rank(shape)))
        attr = f" {{sdy.sharding = {s}}}" if s else ""
        args.append(f"%arg{i}: {tensor_type(shape)}{attr}")
    fn_type = f"({', '.join(tensor_type(s) for s in operand_shapes)}) -> {tensor_type(result_shape)}"
    text = op.format(a0="%arg0", a1="%arg1", a2="%arg2", t=fn_type)
    result_sharding = draw(sharding_text(rank(result_shape)))
    if result_sharding:
        head, _, tail = text.rpartition(" : ")
        text = f"{head} {{sdy.sharding = #sdy.sharding_per_value<[{result_sharding[len('#sdy.sharding'):]}]>}} : {tail}"
    return (f"sdy.mesh @mesh = {MESH}\n"
            f"func.func @main({', '.join(args)}) -> {tensor_type(result_shape)} {{\n"
            f"  %0 = {text}\n  return %0 : {tensor_type(result_shape)}\n}}\n")


def jaxlib_propagate(text: str, pipeline: str) -> str:
    ctx = jax_mlir.make_ir_context()
    ctx.allow_unregistered_dialects = True
    module = ir.Module.parse(text, context=ctx)
    passmanager.PassManager.parse(f"builtin.module({pipeline})", context=ctx).run(module.operation)
    return module.operation.get_asm()


def _no_axes(s: TensorShardingAttr) -> bool:
    return not s.replicated_axes and not s.unreduced_axes and all(not d.axes for d in s.dim_shardings)


def propagate_one_op(text: str, strategy, conservative: bool) -> shardy_py.Module:
    """The single-op driver described in the module docstring."""
    module = shardy_py.parse(text)
    mesh = MeshTable(module).lookup("mesh")
    op = next(o for o in module.walk() if o.name.startswith("stablehlo."))
    rule = sharding_rule(op, conservative=conservative)
    assert rule is not None
    blocked = set(rule.blocked_propagation_factors)

    def direction(factor: int) -> PropagationDirection:
        return PropagationDirection.NONE if factor in blocked else PropagationDirection.BOTH

    values = [*op.operands, *op.results]
    mappings = [*rule.operand_mappings, *rule.result_mappings]
    for _ in range(20):
        old = [get_sharding(v) for v in values]
        if all(s is None for s in old):
            break
        projection = ShardingProjection.build(old[:len(op.operands)], old[len(op.operands):], rule, mesh)
        update = strategy.propagate_factor_shardings(projection, direction, rule.factor_sizes, mesh, conservative, op)
        changed = False
        for i, updated in enumerate([*update.update_operands, *update.update_results]):
            if not updated:
                continue
            new = projection.get_tensor(i).create_tensor_sharding_attr(mappings[i], rule.factor_sizes, "mesh", mesh)
            if (old[i] is None and _no_axes(new)) or new == old[i]:
                continue
            set_sharding(values[i], new)
            changed = True
        if not changed:
            break
    return module


def shardings_of_op(module: shardy_py.Module) -> list[str | None]:
    op = next(o for o in module.walk() if o.name.startswith("stablehlo."))
    return [None if (s := get_sharding(v)) is None else str(s) for v in [*op.operands, *op.results]]


PIPELINES = {
    "basic": ("sdy-basic-propagate", BasicFactorPropagation(), False),
    "conservative": ("sdy-basic-propagate{conservative-propagation=true}", BasicFactorPropagation(), True),
    "aggressive": ("sdy-aggressive-propagate{propagation-strategy=aggressive}", AggressiveFactorPropagation(), False),
}


@pytest.mark.parametrize("name", list(PIPELINES))
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=one_op_modules())
def test_one_op_propagation_matches_jaxlib(name, text):
    pipeline, strategy, conservative = PIPELINES[name]
    expected = shardings_of_op(shardy_py.parse(jaxlib_propagate(text, pipeline)))
    assert shardings_of_op(propagate_one_op(text, strategy, conservative)) == expected, text
