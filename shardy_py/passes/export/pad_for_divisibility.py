"""``-sdy-pad-for-divisibility`` (export/pad_for_divisibility.cc): pad tensors whose sharding does
not divide a dimension up to the next multiple of its shard count, so the partitioner sees only
divisible shapes.

Ops are visited in pre-order, as MLIR's dialect conversion does, and only an op with an operand
or result whose sharding does not divide it (checked on the program as it was) is rewritten:

* a stablehlo op (and ``sdy.return``, ``sdy.all_reduce``, ``sdy.sharded_to_unreduced``,
  ``sdy.replicated_to_unreduced``) takes the padded operands and results of the padded type (or,
  where the op infers its type, the larger of the two);
* ``stablehlo.slice`` extends its limits, ``stablehlo.pad`` its high padding (masking the
  input's padding with the pad value when the high padding shrinks);
* ``stablehlo.dot_general`` and ``stablehlo.convolution`` mask their contracting dimensions with
  zeros first, unless the value is known to be padded with zeros already;
* ``sdy.all_slice``, ``sdy.reduce_scatter`` and ``sdy.all_to_all`` pad their input with zeros;
  ``sdy.all_gather`` and ``sdy.all_to_all`` slice their result back on the gathered dimensions.

What a value is padded with (zero or one) is remembered for the values the pass makes, so a
known zero padding is not masked again.  A function argument or result whose sharding does not
divide it is an error.
"""
from __future__ import annotations

from shardy_py.ir.attrs import OpaqueAttr, TensorShardingAttr, TensorShardingPerValueAttr
from shardy_py.ir.builder import Builder, BuilderError, infer_result_types
from shardy_py.ir.edit import replace_op, sync_operand_types
from shardy_py.ir.ops import Operation, Value
from shardy_py.ir.types import DYNAMIC, RankedTensorType
from shardy_py.passes import data_flow as df
from shardy_py.passes.export.export_utils import PartitionError, i64_array
from shardy_py.passes.meshes import MeshTable
from shardy_py.passes.registry import Pass, register
from shardy_py.passes.shardings import get_sharding
from shardy_py.rules.props import ints_prop, typed_prop
from shardy_py.verify.axes import sharded_size

ZERO, ONE = "zero", "one"
#: Ops the generic pattern rewrites besides stablehlo's.
GENERIC_SDY = frozenset({"sdy.return", "sdy.all_reduce", "sdy.sharded_to_unreduced", "sdy.replicated_to_unreduced",
                         "sdy.collective_permute"})  # the last as jaxlib 0.12 does
_SAME_TYPE_SDY = GENERIC_SDY | {"sdy.all_gather", "sdy.all_to_all"}


def padded_type(type_, sharding: TensorShardingAttr | None, table: MeshTable):
    """``getDivisiblePaddedType``: each dimension rounded up to a multiple of its shard count."""
    if not isinstance(type_, RankedTensorType) or sharding is None:
        return type_
    if all(not d.axes for d in sharding.dim_shardings):
        return type_
    mesh = table.mesh_of(sharding)
    if mesh is None or len(sharding.dim_shardings) != len(type_.shape):
        return type_
    shape, changed = [], False
    for size, dim in zip(type_.shape, sharding.dim_shardings, strict=True):
        n = sharded_size(dim.axes, mesh)
        if size != DYNAMIC and n > 1 and size % n:
            shape.append(size + n - size % n)
            changed = True
        else:
            shape.append(size)
    return RankedTensorType.get(shape, type_.element_type, type_.encoding) if changed else type_


def _sharding_attr(sharding) -> dict:
    return {df.SHARDING: TensorShardingPerValueAttr((sharding,))} if sharding is not None else {}


def _scalar_text(kind: str, element: str) -> str:
    floating = element.startswith(("f", "bf")) or element.startswith("tf32")
    if kind == ZERO:
        return f"dense<{'0.000000e+00' if floating else ('false' if element == 'i1' else '0')}> : tensor<{element}>"
    return f"dense<{'1.000000e+00' if floating else ('true' if element == 'i1' else '1')}> : tensor<{element}>"


class Padding:
    """One function's run: original types and shardings, and what new values are padded with."""

    def __init__(self, table: MeshTable):
        self.table = table
        self.kind: dict[Value, str] = {}
        self.global_type: dict[Value, object] = {}
        self.sharding: dict[Value, TensorShardingAttr | None] = {}
        self.original_operands: dict[int, tuple] = {}

    def record(self, func: Operation, ops: list[Operation]) -> None:
        for arg in func.regions[0].blocks[0].arguments:
            self.global_type[arg] = arg.type
            self.sharding[arg] = get_sharding(arg)
        for op in ops:
            self.original_operands[id(op)] = op.operands
            for result in op.results:
                self.global_type[result] = result.type
                self.sharding[result] = get_sharding(result)
            flow = df.is_data_flow_op(op)
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.arguments:
                        self.global_type[arg] = arg.type
                        self.sharding[arg] = get_sharding(arg) if flow else None

    def legal(self, value: Value, sharding=None) -> bool:
        t = self.global_type.get(value, value.type)
        s = self.sharding.get(value) if sharding is None else sharding
        return padded_type(t, s, self.table) == t

    def padded(self, value: Value):
        """The padded type of an original value."""
        return padded_type(self.global_type.get(value, value.type), self.sharding.get(value), self.table)

    def original(self, op: Operation, index: int) -> Value:
        return self.original_operands.get(id(op), op.operands)[index]

    # -- builders --------------------------------------------------------------------------------
    def constant(self, b: Builder, kind: str, element: str, loc) -> Value:
        return b.create("stablehlo.constant", [], result_types=[RankedTensorType.get((), element)],
                        properties={"value": OpaqueAttr(_scalar_text(kind, element))}, loc=loc).results[0]

    def pad_value(self, b: Builder, value: Value, to: RankedTensorType, kind: str, registered: str | None, loc):
        """``createPaddedValue``: ``value`` padded at the high end up to ``to`` with ``kind``."""
        shape = value.type.shape
        scalar = self.constant(b, kind, to.element_type, loc)
        zeros = [0] * len(shape)
        props = {"edge_padding_low": i64_array(zeros),
                 "edge_padding_high": i64_array([t - s for t, s in zip(to.shape, shape, strict=True)]),
                 "interior_padding": i64_array(zeros)}
        pad = b.create("stablehlo.pad", [value, scalar], result_types=[to], properties=props,
                       attributes=_sharding_attr(get_sharding(value)), loc=loc).results[0]
        if registered is not None:
            self.kind[pad] = registered
        return pad

    def mask(self, b: Builder, value: Value, original: RankedTensorType, pad_scalar: Value, loc, dims=None) -> Value:
        """``ensurePaddingWithValue``: the padding region of ``value`` beyond ``original`` replaced
        by ``pad_scalar`` (on ``dims`` only when given)."""
        padded = value.type
        if padded == original:
            return value
        attrs_ = _sharding_attr(get_sharding(value))
        i32 = RankedTensorType.get(padded.shape, "i32")
        valid = None
        for dim, size in enumerate(original.shape):
            if size == padded.shape[dim] or (dims is not None and dim not in dims):
                continue
            iota = b.create("stablehlo.iota", [], result_types=[i32], properties={"iota_dimension": OpaqueAttr(
                f"{dim} : i64")}, attributes=attrs_, loc=loc).results[0]
            limit = b.create("stablehlo.constant", [], result_types=[RankedTensorType.get((), "i32")],
                             properties={"value": OpaqueAttr(f"dense<{size}> : tensor<i32>")}, loc=loc).results[0]
            wide = b.create("stablehlo.broadcast_in_dim", [limit], result_types=[i32],
                            properties={"broadcast_dimensions": i64_array([])}, attributes=attrs_, loc=loc).results[0]
            less = b.create("stablehlo.compare", [iota, wide], result_types=[RankedTensorType.get(padded.shape, "i1")],
                            properties={"comparison_direction": OpaqueAttr("#stablehlo<comparison_direction LT>")},
                            attributes=attrs_, loc=loc).results[0]
            valid = less if valid is None else b.create("stablehlo.and", [valid, less], result_types=[less.type],
                                                        attributes=attrs_, loc=loc).results[0]
        if valid is None:
            return value
        fill = b.create("stablehlo.broadcast_in_dim", [pad_scalar], result_types=[padded],
                        properties={"broadcast_dimensions": i64_array([])}, attributes=attrs_, loc=loc).results[0]
        return b.create("stablehlo.select", [valid, value, fill], result_types=[padded], attributes=attrs_,
                        loc=loc).results[0]

    def mask_with_kind(self, b: Builder, value: Value, original, kind: str, loc, dims=None) -> Value:
        """``ensurePaddingWithKind``."""
        if value.type == original or self.kind.get(value) == kind:
            return value
        scalar = self.constant(b, kind, value.type.element_type, loc)
        masked = self.mask(b, value, original, scalar, loc, dims)
        if masked is not value and dims is None:
            self.kind[masked] = kind
        return masked

    def trim(self, b: Builder, value: Value, original, dims, sharding, kind: str | None, loc) -> Value:
        """``trimOutputForDims``: ``value`` sliced back to ``original`` on ``dims``.  A slice whose
        result ``sharding`` does not divide is legalised as the conversion legalises the ops it
        creates: its limits grow to the padded shape (perhaps all of ``value``), and the padding kind
        is not carried over (it was recorded on the slice that got replaced)."""
        if not isinstance(original, RankedTensorType):
            return value
        limits = [o if d in dims and n > o else n
                  for d, (o, n) in enumerate(zip(original.shape, value.type.shape, strict=True))]
        if list(limits) == list(value.type.shape):
            return value
        padded = padded_type(RankedTensorType.get(limits, original.element_type), sharding, self.table)
        if list(padded.shape) != limits:
            limits, kind = list(padded.shape), None
        rank = len(limits)
        new = b.create("stablehlo.slice", [value], result_types=[RankedTensorType.get(limits, original.element_type)],
                       properties={"start_indices": i64_array([0] * rank), "limit_indices": i64_array(limits),
                                   "strides": i64_array([1] * rank)},
                       attributes=_sharding_attr(sharding), loc=loc).results[0]
        if kind is not None:
            self.kind[new] = kind
        return new


def _max_shape(a: RankedTensorType, b) -> RankedTensorType:
    if not isinstance(b, RankedTensorType) or len(a.shape) != len(b.shape):
        return a
    return RankedTensorType.get([max(x, y) for x, y in zip(a.shape, b.shape, strict=True)], a.element_type)


def inferred_types(op: Operation) -> list | None:
    """The result types ``op`` infers from its (new) operands, where it infers them."""
    if op.name == "stablehlo.dot_general":
        dims = typed_prop(op, "dot_dimension_numbers")
        lhs, rhs = op.operands[0].type.shape, op.operands[1].type.shape
        lb, lc = list(dims.lhs_batching_dimensions), list(dims.lhs_contracting_dimensions)
        rb, rc = list(dims.rhs_batching_dimensions), list(dims.rhs_contracting_dimensions)
        shape = [lhs[d] for d in lb] + [s for d, s in enumerate(lhs) if d not in lb + lc] + \
            [s for d, s in enumerate(rhs) if d not in rb + rc]
        return [RankedTensorType.get(shape, op.results[0].type.element_type)]
    if op.name == "stablehlo.slice":
        starts, limits, strides = ints_prop(op, "start_indices"), ints_prop(op, "limit_indices"), \
            ints_prop(op, "strides")
        shape = [-(-(hi - lo) // s) for lo, hi, s in zip(starts, limits, strides, strict=True)]
        return [RankedTensorType.get(shape, op.results[0].type.element_type)]
    if op.name in _SAME_TYPE_SDY and op.operands:
        return [op.operands[0].type] * len(op.results)
    try:
        return infer_result_types(op)
    except (BuilderError, KeyError, TypeError, ValueError, AttributeError, IndexError):
        return None


def pad_generic(state: Padding, op: Operation) -> None:
    """``padGenericOp``: results of the padded type, or the larger inferred one."""
    inferred = inferred_types(op)
    for i, result in enumerate(op.results):
        padded = state.padded(result)
        if inferred is not None and i < len(inferred) and isinstance(inferred[i], RankedTensorType):
            result.type = _max_shape(inferred[i], padded) if isinstance(padded, RankedTensorType) else inferred[i]
        else:
            result.type = padded
    if df.is_data_flow_op(op):  # a while's region arguments are its results' values (as jaxlib 0.12 pads them)
        for region in op.regions:
            for block in region.blocks:
                for arg in block.arguments:
                    arg.type = state.padded(arg)


def check_func(state: Padding, func: Operation) -> None:
    """``FuncOpPattern``: arguments and results must be divisible."""
    for i, arg in enumerate(func.regions[0].blocks[0].arguments):
        if not state.legal(arg):
            raise PartitionError(func, f"'func.func' op argument #{i} has a non-divisible sharding. Shardy expects "
                                       "function IO to be divisible.")
    for i, t in enumerate(func.properties_view.get("result_types", [])):
        attrs_ = (func.properties_view.get("res_attrs") or [None] * (i + 1))[i] or {}
        sharding = attrs_.get(df.SHARDING)
        if padded_type(t, sharding if isinstance(sharding, TensorShardingAttr) else None, state.table) != t:
            raise PartitionError(func, f"'func.func' op result #{i} has a non-divisible sharding. Shardy expects "
                                       "function IO to be divisible.")


def is_legal(state: Padding, op: Operation) -> bool:
    name = op.name
    originals = state.original_operands.get(id(op), op.operands)
    if op.dialect == "stablehlo":
        return all(state.legal(v) for v in originals if v is not None) and all(state.legal(r) for r in op.results)
    if name in ("sdy.all_slice", "sdy.reduce_scatter"):
        return state.legal(originals[0], op.properties_view["out_sharding"])
    if name == "sdy.all_gather":
        return all(state.legal(v) for v in originals)
    if name in GENERIC_SDY or name == "sdy.all_to_all":
        return all(state.legal(v) for v in originals) and all(state.legal(r) for r in op.results)
    return True


def pad_collective(state: Padding, b: Builder, op: Operation, input_: Value, original: Value, to) -> str | None:
    """``padCollectiveOp``: pad the input to ``to`` (zeros unless known) and give the op that type."""
    kind = state.kind.get(input_)
    padded_before = input_.type != state.global_type.get(original, original.type)
    if to != input_.type:
        constant_kind = kind if padded_before and kind is not None else ZERO
        registered = ZERO if not padded_before else kind
        input_ = state.pad_value(b, input_, to, constant_kind, registered, op.loc)
        kind = registered
    op.set_operand(0, input_)
    op.results[0].type = to
    if kind is not None:
        state.kind[op.results[0]] = kind
    return kind


def convert(state: Padding, op: Operation) -> None:
    name = op.name
    b = Builder.before(op)
    if name == "stablehlo.slice":
        sharding = state.sharding.get(op.results[0])
        padded = state.padded(op.results[0])
        if padded == op.results[0].type:
            pad_generic(state, op)
            return
        starts = ints_prop(op, "start_indices")
        limits = [s + p for s, p in zip(starts, padded.shape, strict=True)]
        op.properties["limit_indices"] = i64_array(limits)
        op.results[0].type = padded
        if sharding is not None:
            op.attributes[df.SHARDING] = TensorShardingPerValueAttr((sharding,))
        return
    if name == "stablehlo.pad":
        convert_pad(state, b, op)
        return
    if name == "stablehlo.dot_general":
        dims = typed_prop(op, "dot_dimension_numbers")
        lhs = state.mask_with_kind(b, op.operands[0], state.global_type[state.original(op, 0)], ZERO, op.loc,
                                   list(dims.lhs_contracting_dimensions))
        rhs = state.mask_with_kind(b, op.operands[1], state.global_type[state.original(op, 1)], ZERO, op.loc,
                                   list(dims.rhs_contracting_dimensions))
        op.set_operand(0, lhs)
        op.set_operand(1, rhs)
        pad_generic(state, op)
        return
    if name == "stablehlo.convolution":
        convert_convolution(state, b, op)
        return
    if name in ("sdy.all_slice", "sdy.reduce_scatter"):
        to = padded_type(op.operands[0].type, op.properties_view["out_sharding"], state.table)
        pad_collective(state, b, op, op.operands[0], state.original(op, 0), to)
        return
    if name == "sdy.all_to_all":
        original = state.original(op, 0)
        out = op.properties_view["out_sharding"]
        kind = state.kind.get(op.operands[0])
        pad_collective(state, b, op, op.operands[0], original, padded_type(op.operands[0].type, out, state.table))
        dims = [p.src_dim for p in op.properties_view["params"].value]
        after = Builder.after(op)
        _replace_uses_after(op, state.trim(after, op.results[0], state.global_type.get(original, original.type),
                                           dims, out, kind, op.loc))
        return
    if name == "sdy.all_gather":
        original_type = op.results[0].type
        pad_generic(state, op)
        kind = state.kind.get(op.operands[0])
        if kind is not None:
            state.kind[op.results[0]] = kind
        dims = [d for d, axes in enumerate(op.properties_view["gathering_axes"].value) if axes.value]
        after = Builder.after(op)
        _replace_uses_after(op, state.trim(after, op.results[0], original_type, dims,
                                           op.properties_view["out_sharding"], kind, op.loc))
        return
    if name == "stablehlo.reduce":
        # As jaxlib 0.12: the padding of each input along the reduced dimensions is masked with the
        # input's init value, so it does not change the reduction.
        n = len(op.operands) // 2
        dims = list(ints_prop(op, "dimensions"))
        for i in range(n):
            original = state.global_type.get(state.original(op, i))
            if original is not None and op.operands[i].type != original:
                op.set_operand(i, state.mask(b, op.operands[i], original, op.operands[n + i], op.loc, dims))
        pad_generic(state, op)
        return
    if op.dialect == "stablehlo" or name in GENERIC_SDY:
        pad_generic(state, op)
        return
    raise PartitionError(op, f"failed to legalize operation '{name}' that was explicitly marked illegal")


def _replace_uses_after(op: Operation, new: Value) -> None:
    old = op.results[0]
    if new is old:
        return
    new_op = new.owner
    old.replace_uses_with_if(new, lambda use: use.op is not new_op)


def convolution_type(op: Operation, lhs: RankedTensorType, rhs: RankedTensorType) -> RankedTensorType:
    """``inferConvolutionOp``'s result shape for operands of types ``lhs`` and ``rhs``."""
    dims = typed_prop(op, "dimension_numbers")
    n = len(dims.input_spatial_dimensions)
    strides = ints_prop(op, "window_strides") or (1,) * n
    padding = ints_prop(op, "padding") or (0,) * (2 * n)
    lhs_dilation = ints_prop(op, "lhs_dilation") or (1,) * n
    rhs_dilation = ints_prop(op, "rhs_dilation") or (1,) * n
    batch_groups = int(str(op.properties_view.get("batch_group_count", "1")).split(":")[0])
    shape = [0] * len(lhs.shape)
    shape[dims.output_batch_dimension] = lhs.shape[dims.input_batch_dimension] // batch_groups
    shape[dims.output_feature_dimension] = rhs.shape[dims.kernel_output_feature_dimension]
    for i in range(n):
        size = lhs.shape[dims.input_spatial_dimensions[i]]
        dilated = (size - 1) * lhs_dilation[i] + 1 if size else 0
        padded = dilated + padding[2 * i] + padding[2 * i + 1]
        window = (rhs.shape[dims.kernel_spatial_dimensions[i]] - 1) * rhs_dilation[i] + 1
        shape[dims.output_spatial_dimensions[i]] = 0 if padded < window else (padded - window) // strides[i] + 1
    return RankedTensorType.get(shape, lhs.element_type)


def convert_convolution(state: Padding, b: Builder, op: Operation) -> None:
    """``StablehloConvolutionOpPattern``: zeros in the contracted (feature and spatial) padding,
    the inferred result, trimmed back on the spatial dimensions."""
    dims = typed_prop(op, "dimension_numbers")
    lhs_dims = [dims.input_feature_dimension, *dims.input_spatial_dimensions]
    rhs_dims = [dims.kernel_input_feature_dimension, *dims.kernel_spatial_dimensions]
    lhs = state.mask_with_kind(b, op.operands[0], state.global_type[state.original(op, 0)], ZERO, op.loc, lhs_dims)
    rhs = state.mask_with_kind(b, op.operands[1], state.global_type[state.original(op, 1)], ZERO, op.loc, rhs_dims)
    inferred = convolution_type(op, lhs.type, rhs.type)
    result = op.results[0]
    target = state.padded(result)
    for d in dims.output_spatial_dimensions:
        if inferred.shape[d] < target.shape[d]:
            raise PartitionError(op, "inferred convolution output spatial size is smaller than the target padded "
                                     "size. Spatial sharding must be resolved by resolve-permutation-factors to be "
                                     "divisible or replicated.")
    op.set_operand(0, lhs)
    op.set_operand(1, rhs)
    result.type = inferred
    sharding = state.sharding.get(result)
    if sharding is not None:
        op.attributes[df.SHARDING] = TensorShardingPerValueAttr((sharding,))
    after = Builder.after(op)
    _replace_uses_after(op, state.trim(after, result, target, list(dims.output_spatial_dimensions), sharding, ZERO,
                                       op.loc))


def convert_pad(state: Padding, b: Builder, op: Operation) -> None:
    """``StablehloPadOpPattern``: a new high padding giving the padded result size."""
    input_ = op.operands[0]
    padded = state.padded(op.results[0])
    low, high, interior = (ints_prop(op, k) for k in ("edge_padding_low", "edge_padding_high", "interior_padding"))
    new_high, reduced = [], False
    for d, size in enumerate(input_.type.shape):
        h = padded.shape[d] - size - low[d] - max(0, size - 1) * interior[d]
        new_high.append(h)
        reduced = reduced or h < high[d]
    if reduced:
        input_ = state.mask(b, input_, state.global_type[state.original(op, 0)], op.operands[1], op.loc)
    sharding = state.sharding.get(op.results[0])
    props = {"edge_padding_low": i64_array(low), "edge_padding_high": i64_array(new_high),
             "interior_padding": i64_array(interior)}
    new = b.create("stablehlo.pad", [input_, op.operands[1]], result_types=[padded], properties=props,
                   attributes=_sharding_attr(sharding), loc=op.loc)
    replace_op(op, new.results)


@register
class PadForDivisibilityPass(Pass):
    name = "sdy-pad-for-divisibility"
    summary = "Pads tensors with non-divisible shardings to divisible shapes."
    anchor = "func.func"

    def run(self, func, ctx) -> None:
        """Check the signature, then rewrite each op that is not divisible, in pre-order."""
        state = Padding(MeshTable(func.parent))
        ops = [op for op in func.walk() if op is not func]
        state.record(func, ops)
        erased, kept = set(), []
        try:
            check_func(state, func)
            for op in ops:
                if id(op) in erased:
                    continue
                if is_legal(state, op):
                    kept.append(op)
                    continue
                if op.name == "stablehlo.pad":
                    erased.add(id(op))
                convert(state, op)
            check_no_casts(state, kept)
        except PartitionError as e:
            ctx.error(e.op, str(e))
            if "failed to legalize" not in str(e):
                ctx.error(e.op, f"failed to legalize operation '{e.op.name}' that was explicitly marked illegal")
            return
        if not sync_operand_types(func) and len(kept) == len(ops):
            ctx.mark_all_preserved()  # every op legal, no written type out of date: nothing changed


def check_no_casts(state: Padding, kept: list[Operation]) -> None:
    """An op left as it was whose operand is now padded would need MLIR's cast back to the old
    type; the C++ pass then fails, at the op defining the operand."""
    for op in kept:
        for i, value in enumerate(op.operands):
            original = state.original(op, i)
            if value is None or value.type == state.global_type.get(original, original.type):
                continue
            owner = original.owner if isinstance(original.owner, Operation) else op
            raise PartitionError(owner, "'builtin.unrealized_conversion_cast' op found unrealized_conversion_cast "
                                        "after pad-for-divisibility")
