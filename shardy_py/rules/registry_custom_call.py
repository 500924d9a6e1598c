"""Rules of ``stablehlo.custom_call`` by call target (op_sharding_rule_registry.cc).

Some targets deliberately get no rule, some the pointwise rule, a few linear-algebra and top-k
targets a rule of their own (``TopK``, XLA's own target, has ``mhlo.topk``'s in jaxlib 0.12, which
is newer than ``SHARDY_COMMIT``); any other target gets no rule and the warning "custom call @name is
unknown to SDY sharding rule registry" (once per process).
"""
from __future__ import annotations

from collections.abc import Callable

from shardy_py.ir.attrs import OpShardingRuleAttr
from shardy_py.rules.builder import KNULL_DIM, FactorType, OpShardingRuleBuilder, shape_of
from shardy_py.rules.props import str_prop
from shardy_py.rules.registry import UnknownToRegistry, register_rule

_REPLICATE = FactorType.NEED_REPLICATION

#: Targets left without a rule on purpose.
NO_RULE_TARGETS: frozenset[str] = frozenset({
    "sdy_testonly", "tpu_custom_call", "xla_python_cpu_callback", "xla_python_gpu_callback",
    "xla_ffi_python_cpu_callback", "xla_ffi_python_gpu_callback", "xla.debug.Log",
})

#: Targets with the pointwise rule (including the SPMD partitioner's internal permute ops).
POINTWISE_TARGETS: frozenset[str] = frozenset({
    "annotate_device_placement", "Cholesky", "CompactWyHelper", "InspectSharding",
    "InvertDiagBlocksLowerTriangular", "InvertDiagBlocksUpperTriangular", "LayoutConstraint",
    "mhlo.erf", "MoveToDevice", "MoveToHost", "X64SplitHigh", "X64SplitLow",
    "xla.megascale.provide_metadata",
    "_SPMDInternalOp_MultiPad", "_SPMDInternalOp_RotateRight", "_SPMDInternalOp_MultiRotate",
    "_SPMDInternalOp_MultiSlice", "_SPMDInternalOp_Wrap",
})


def _fit(dims: list[int], count: int) -> list[int]:
    """``dims`` (a dimension per tensor) cut or padded with ``KNULL_DIM`` to ``count`` tensors.  The
    rules below name the operands and results a target has; given other arities, the C++ (a release
    build, where ``llvm::zip_equal`` stops at the shorter range) maps the factor onto the tensors
    that exist and leaves the others out."""
    return (list(dims) + [KNULL_DIM] * count)[:count]


def _eigh(op) -> OpShardingRuleAttr:
    """Batch dims pointwise; the matrix dims shared with the eigenvectors, the last one also with
    the eigenvalues."""
    shape = shape_of(op.operands[0])
    d1, d2 = len(shape) - 2, len(shape) - 1
    n_in, n_out = len(op.operands), len(op.results)
    return (OpShardingRuleBuilder.for_op(op)
            .add_pointwise(shape[:-2])
            .add_factor(_fit([d1], n_in), _fit([d1, KNULL_DIM], n_out), shape[d1])
            .add_factor(_fit([d2], n_in), _fit([d2, d1], n_out), shape[d2])
            .build())


def _qr(op) -> OpShardingRuleAttr:
    """Batch dims pointwise; the matrix dims shared with the first result (need replication); the
    second result's own dimension a factor of its own."""
    shape = shape_of(op.operands[0])
    taus = shape_of(op.results[1])
    d1, d2 = len(shape) - 2, len(shape) - 1
    n_in, n_out = len(op.operands), len(op.results)
    return (OpShardingRuleBuilder.for_op(op)
            .add_pointwise(shape[:-2])
            .add_factor(_fit([d1], n_in), _fit([d1, KNULL_DIM], n_out), shape[d1], _REPLICATE)
            .add_factor(_fit([d2], n_in), _fit([d2, KNULL_DIM], n_out), shape[d2], _REPLICATE)
            .add_factor(_fit([KNULL_DIM], n_in), _fit([KNULL_DIM, d1], n_out), taus[d1], _REPLICATE)
            .build())


def _householder_product(op) -> OpShardingRuleAttr:
    """Batch dims pointwise; the matrix dims of the first operand shared with the result; the taus'
    dimension a factor of its own (all need replication)."""
    shape = shape_of(op.operands[0])
    taus = shape_of(op.operands[1])
    d1, d2 = len(shape) - 2, len(shape) - 1
    n_in, n_out = len(op.operands), len(op.results)
    return (OpShardingRuleBuilder.for_op(op)
            .add_pointwise(shape[:-2])
            .add_factor(_fit([d1, KNULL_DIM], n_in), _fit([d1], n_out), shape[d1], _REPLICATE)
            .add_factor(_fit([d2, KNULL_DIM], n_in), _fit([d2], n_out), shape[d2], _REPLICATE)
            .add_factor(_fit([KNULL_DIM, d1], n_in), _fit([KNULL_DIM], n_out), taus[d1], _REPLICATE)
            .build())


def _top_k(op) -> OpShardingRuleAttr:
    """Pointwise between operand and results; the reduced dimension needs replication, blocked."""
    return (OpShardingRuleBuilder.for_op(op)
            .add_pointwise_with_diff_type_for_mismatch(shape_of(op.operands[0]), shape_of(op.results[0]),
                                                       _REPLICATE, mismatch_blocked=True)
            .build())


def _approx_top_k(op) -> OpShardingRuleAttr:
    """Operands (operand, iota, init value, init index), results (values, indices): dimensions of
    equal size are pointwise; the reduced one gets an operand factor and a blocked result factor."""
    builder = OpShardingRuleBuilder.for_op(op)
    in_shape, out_shape = shape_of(op.operands[0]), shape_of(op.results[0])
    operands, results = len(op.operands), len(op.results)
    for dim, (n_in, n_out) in enumerate(zip(in_shape, out_shape, strict=True)):
        if n_in == n_out:
            builder.add_factor_for_dim(dim, n_in)
        else:
            builder.add_factor(_fit([dim, dim, KNULL_DIM, KNULL_DIM], operands), _fit([], results), n_in)
            builder.add_factor(_fit([], operands), _fit([dim, dim], results), n_out, _REPLICATE, blocked=True)
    return builder.build()


def _feeds_rng_bit_generator(op) -> bool:
    return any(user.name == "stablehlo.rng_bit_generator" for r in op.results for user in r.users)


def _x64_combine(op) -> OpShardingRuleAttr | None:
    """Pointwise, unless a result user is an ``rng_bit_generator``: then the single dimension needs
    replication and is blocked."""
    if _feeds_rng_bit_generator(op):
        size = shape_of(op.results[0])[0]
        return (OpShardingRuleBuilder.for_op(op)
                .add_factor_for_dim(0, size, _REPLICATE, blocked=True).build())
    return OpShardingRuleBuilder.build_pointwise(op)


#: Targets with a rule of their own.
TARGET_RULES: dict[str, Callable] = {
    "Eigh": _eigh,
    "Qr": _qr, "QrDecompositionBlock": _qr,
    "ProductOfElementaryHouseholderReflectors": _householder_product,
    "mhlo.topk": _top_k, "TopK": _top_k,
    "ApproxTopK": _approx_top_k, "PartialReduce": _approx_top_k,
    "X64Combine": _x64_combine,
}


def _context(op):
    """What the rule reads besides the op: whether an X64Combine feeds an rng_bit_generator."""
    return str_prop(op, "call_target_name") == "X64Combine" and _feeds_rng_bit_generator(op)


@register_rule("stablehlo.custom_call", context_key=_context)
def custom_call_rule(op, conservative: bool) -> OpShardingRuleAttr | None:
    """The rule of the call target (see the module docstring)."""
    target = str_prop(op, "call_target_name")
    if target in NO_RULE_TARGETS:
        return None
    if target in POINTWISE_TARGETS:
        return OpShardingRuleBuilder.build_pointwise(op)
    rule = TARGET_RULES.get(target)
    if rule is not None:
        return rule(op)
    raise UnknownToRegistry(f"custom call @{target} is unknown to SDY sharding rule registry",
                            "unknown-custom-call")
