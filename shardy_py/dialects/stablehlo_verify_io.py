"""Verifiers of StableHLO's host and peer communication and asynchronous ops
(``TypeInference.cpp``: ``verifyInfeedOp``, ``verifyRecvOp``, ``inferSendOp``;
``StablehloOps.cpp``: ``AsyncStartOp::inferReturnTypes``, ``AsyncDoneOp::inferReturnTypes``)."""
from __future__ import annotations

import re

from shardy_py.dialects.stablehlo_verify_common import check_inferred, op_fail, prop
from shardy_py.dialects.stablehlo_verify_types import clean_when_seen_with_regions, known, q
from shardy_py.ir.diagnostics import Failure, fail
from shardy_py.ir.types import FutureType, RankedTensorType, TokenType, Type, UnrankedTensorType, parse_type
from shardy_py.ir.typeutil import split_top_level

_CHANNEL_TYPE = re.compile(r"type\s*=\s*(-?\d+)")
_TOKEN = "!stablehlo.token"


def _is_token(t: Type) -> bool:
    return isinstance(t, TokenType) or t.text == _TOKEN


def _is_tensor(t: Type) -> bool:
    return isinstance(t, (RankedTensorType, UnrankedTensorType))


def _channel_type(op) -> int | None:
    m = _CHANNEL_TYPE.search(str(prop(op, "channel_handle") or ""))
    return int(m.group(1)) if m else None


def _host_transfer(op) -> bool:
    return str(prop(op, "is_host_transfer") or "false").strip() == "true"


def _tensors_then_token(results, what: str) -> Failure | None:
    """Every result but the last a tensor, the last a token (infeed_c1..c3, recv_c2..c4)."""
    if not results:
        return fail(f"result is expected to be at least of size 1, but got {len(results)}")
    for t in results[:-1]:
        if not _is_tensor(t):
            return fail(f"{what}, but got {q(t)}")
    if not _is_token(results[-1]):
        return fail(f"last element of result types is expected to be of token type, but got {q(results[-1])}")
    return None


@clean_when_seen_with_regions
def verify_infeed(op, ctx) -> Failure | None:
    """``verifyInfeedOp``: the results, and the ``layout`` attribute (one integer array per data result)."""
    if not known(op):
        return None
    results = [r.type for r in op.results]
    f = _tensors_then_token(results, "all elements of result types, except the last element, are expected to be "
                                     "of tensor type")
    if f is not None:
        return f
    layout = prop(op, "layout")
    if layout is None:
        return None
    text = str(layout).strip()
    if not (text.startswith("[") and text.endswith("]")):
        return fail("layout-attribute expected to be of array-type.")
    children = split_top_level(text[1:-1])
    if len(children) != len(results) - 1:
        return fail(f"layout-attribute size must be {len(results) - 1} (which is the number of op-results - 1 (for "
                    f"token result)), but got {len(children)}")
    for child in children:
        if not (child.startswith("[") and child.endswith("]")):
            return fail(f"layout-attribute expected to have elements of type array, but got {_attr_text(child)}")
        for leaf in split_top_level(child[1:-1]):
            if not re.fullmatch(r"-?\d+(\s*:\s*\w+)?", leaf):
                return fail(f"layout-attribute's leaf elements are expected to be of type integer, but got {leaf}")
    return None


def _attr_text(text: str) -> str:
    """An integer attribute as MLIR prints it in a message (``0 : i64``)."""
    return f"{text} : i64" if re.fullmatch(r"-?\d+", text) else text


def _channel_direction(op, host_direction: tuple[int, str]) -> Failure | None:
    """recv_c1 / send_c1: a device-to-device channel without host transfer, the host direction with it."""
    kind = _channel_type(op)
    if kind is None:
        return None
    if not _host_transfer(op) and kind != 1:
        return fail("channel_type should be DEVICE_TO_DEVICE when is_host_transfer is false")
    if _host_transfer(op) and kind != host_direction[0]:
        return fail(f"channel_type should be {host_direction[1]} when is_host_transfer is true")
    return None


@clean_when_seen_with_regions
def verify_recv(op, ctx) -> Failure | None:
    """``RecvOp::verify`` (``verifyRecvOp``)."""
    if not known(op):
        return None
    return _channel_direction(op, (3, "HOST_TO_DEVICE")) or _tensors_then_token(
        [r.type for r in op.results],
        "everything but the last element of result types is expected to be of tensor type")


def _infers(result_type: str, constraint: str, satisfies):
    """ODS's result constraint, then InferTypeOpInterface, for an op whose one result type is fixed."""
    inferred = [parse_type(result_type)]

    def verify_inferred_result(op, ctx) -> Failure | None:
        """The result satisfies its constraint and is the inferred type."""
        if not known(op):
            return None
        for i, r in enumerate(op.results):
            if not satisfies(r.type):
                return op_fail(op, f"result #{i} must be {constraint}, but got {q(r.type)}")
        return check_inferred(op, inferred)

    return verify_inferred_result


#: ``inferReplicaIdOp`` / ``inferPartitionIdOp`` (a ``UI32RankedTensor`` result); ``inferAfterAllOp``,
#: ``inferCreateTokenOp``, ``inferOutfeedOp`` (a token).
verify_id_result = _infers("tensor<ui32>", "ranked tensor of 32-bit unsigned integer values",
                           lambda t: isinstance(t, RankedTensorType) and t.element_type == "ui32")
verify_token_result = _infers(_TOKEN, "token", _is_token)


@clean_when_seen_with_regions
def verify_send(op, ctx) -> Failure | None:
    """``SendOp::inferReturnTypes`` (``inferSendOp``): the channel's direction, a token result."""
    if not known(op):
        return None
    return _channel_direction(op, (2, "DEVICE_TO_HOST")) or check_inferred(op, [parse_type(_TOKEN)])


_ASYNC_BODIES = frozenset(f"stablehlo.{n}" for n in (
    "all_gather", "all_reduce", "all_to_all", "collective_broadcast", "collective_permute", "collective_reduce",
    "dynamic_slice", "dynamic_update_slice", "reduce_scatter", "slice"))


def verify_async_start(op, ctx) -> Failure | None:
    """``AsyncStartOp``'s ODS: one region."""
    return op_fail(op, "requires one region") if len(op.regions) != 1 else None


def verify_async_start_regions(op, ctx) -> Failure | None:
    """``AsyncStartOp::inferReturnTypes`` (after the nested ops): one region holding one collective or slice
    op and a return; its arguments are the operands; the result is a future of what it returns."""
    if len(op.regions) != 1 or not known(op):
        return None
    blocks = op.regions[0].blocks
    if not blocks:
        return op_fail(op, "region must not be empty")
    block = blocks[0]
    if len(block.ops) != 2:
        return op_fail(op, "region must contain exactly one operation and a return")
    if block.ops[0].name not in _ASYNC_BODIES:
        return op_fail(op, "region must contain a collective or slice operation")
    if len(op.operands) != len(block.arguments):
        return op_fail(op, f"number of operands ({len(op.operands)}) must match number of region arguments "
                           f"({len(block.arguments)})")
    for i, (v, a) in enumerate(zip(op.operands, block.arguments, strict=True)):
        if a.type is None:
            return None
        if v.type.text != a.type.text:
            return op_fail(op, f"operand type {q(v.type)} at index {i} must match region argument type {q(a.type)}")
    returned = [v.type if v is not None else None for v in block.ops[-1].operands]
    if len(returned) != 1:
        return op_fail(op, f"region must return exactly one value, but got {len(returned)}")
    if returned[0] is None:
        return None
    return check_inferred(op, [parse_type(f"!stablehlo.future<{returned[0]}>")])


@clean_when_seen_with_regions
def verify_async_done(op, ctx) -> Failure | None:
    """``AsyncDoneOp``: the operand is a future of one type, which is the result's."""
    if not known(op) or not op.operands:
        return None
    t = op.operands[0].type
    if not (isinstance(t, FutureType) or t.text.startswith("!stablehlo.future<")):
        return op_fail(op, "operand must be a future type")
    inner = split_top_level(t.text[len("!stablehlo.future<"):-1])
    if len(inner) != 1:
        return op_fail(op, f"future must have exactly one type parameter, but got {len(inner)}")
    return check_inferred(op, [parse_type(inner[0])])
