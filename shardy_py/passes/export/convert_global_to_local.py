"""``-sdy-convert-global-to-local`` (export/convert_global_to_local.cc): rewrite a module whose
tensors have global shapes and shardings into the program one device runs, with local shapes.

Every op is visited in pre-order, as MLIR's dialect conversion does (so channel ids, which start
after the largest ``channel_handle`` in the module, are given in that order):

* ``func.func``: arguments and results take the local type of their sharding;
* ops of stablehlo, ``sdy.return`` and ops of other dialects keep their attributes and take the
  local types of their results' shardings (some stablehlo ops first check that no communication
  is needed, or have their own rewrite: ``convert_global_to_local_stablehlo`` and
  ``_gather_scatter``); jaxlib 0.12 localises chlo and arith ops too, where the test files'
  commit fails on ops of registered dialects other than stablehlo;
* ``sdy.manual_computation`` is inlined; ``sdy.named_computation`` keeps its region, localised;
* ``sdy.constant`` becomes a ``stablehlo.constant`` of the local shape (a splat) or a dynamic
  slice of the global constant;
* Shardy's collectives become stablehlo collectives (``convert_global_to_local_collectives``)
  with replica groups as device ids or, with ``enable-rgv3``, as mesh axes;
* the module gets the shardings of ``main``'s arguments and results as ``sdy.parameters_shardings``
  and ``sdy.output_shardings`` (jaxlib 0.12; ``convert_global_to_local_metadata``).

Any other sdy op (``sdy.sharding_constraint``, ``sdy.reshard``, ...) fails the pass, as MLIR's
conversion fails on an op marked illegal.  A sharding that does not divide its dimension is an
error here (the C++ crashes on it).
"""
from __future__ import annotations

from shardy_py.ir.attrs import OpaqueAttr, TensorShardingAttr
from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import erase, replace_op, sync_operand_types
from shardy_py.ir.ops import Block, Operation, Value
from shardy_py.passes import data_flow as df
from shardy_py.passes.export.convert_global_to_local_metadata import set_module_sharding_metadata
from shardy_py.passes.export.export_utils import (
    PartitionError,
    channel_handle_value,
    dynamic_slice_for_axes,
    local_type,
)
from shardy_py.passes.meshes import MeshTable
from shardy_py.passes.registry import Pass, PassOption, register
from shardy_py.passes.shardings import get_sharding
from shardy_py.syntax.attr_reader import parse_attribute


class Conversion:
    """The state of one run: the module's meshes, every value's global type and sharding read
    before anything changed, the options and the next channel id."""

    def __init__(self, module, options: dict):
        self.module = module
        self.table = MeshTable(module)
        self.options = options
        self.counts = (options["replica_count"], options["partition_count"])
        self.rgv3 = options["enable_rgv3"]
        self.global_type: dict[Value, object] = {}
        self.sharding: dict[Value, TensorShardingAttr | None] = {}
        self.next_channel = 1
        self.erased: set[int] = set()
        self.original_operands: dict[int, tuple] = {}

    # -- snapshot -------------------------------------------------------------------------------
    def record(self, ops: list[Operation]) -> None:
        """Read every value's type and sharding before the rewrite (patterns look at the global
        program: an operand's defining op may be rewritten already)."""
        largest = 0
        for op in ops:
            self.original_operands[id(op)] = op.operands
            handle = op.properties_view.get("channel_handle")
            if handle is not None:
                largest = max(largest, channel_handle_value(handle))
            for region in op.regions:
                for block in region.blocks:
                    owners = self._block_arg_shardings(op, block)
                    for i, arg in enumerate(block.arguments):
                        self.global_type[arg] = arg.type
                        self.sharding[arg] = owners[i] if owners is not None and i < len(owners) else None
            for result in op.results:
                self.global_type[result] = result.type
                self.sharding[result] = get_sharding(result)
        self.next_channel = largest + 1

    @staticmethod
    def _block_arg_shardings(op: Operation, block: Block):
        if op.name == "func.func":
            return [a.attributes.get(df.SHARDING) if isinstance(a.attributes.get(df.SHARDING), TensorShardingAttr)
                    else None for a in block.arguments]
        if op.name in ("sdy.manual_computation", "sdy.named_computation"):
            return df.block_arg_owner_shardings(op)
        if df.is_data_flow_op(op):  # while, case, optimization_barrier: their results' shardings
            return [get_sharding(arg) for arg in block.arguments]
        return None

    # -- queries --------------------------------------------------------------------------------
    def sharding_of(self, value: Value) -> TensorShardingAttr | None:
        return self.sharding.get(value)

    def type_of(self, value: Value):
        """The global type of ``value`` (before the rewrite)."""
        return self.global_type.get(value, value.type)

    def operand(self, op: Operation, index: int) -> Value:
        """Operand ``index`` of ``op`` as the global program had it."""
        return self.original_operands.get(id(op), op.operands)[index]

    def operand_sharding(self, op: Operation, index: int) -> TensorShardingAttr | None:
        return self.sharding_of(self.operand(op, index))

    def operand_type(self, op: Operation, index: int):
        """The global type of operand ``index`` of ``op``."""
        return self.type_of(self.operand(op, index))

    def mesh_of(self, sharding: TensorShardingAttr | None):
        return None if sharding is None else self.table.mesh_of(sharding)

    def local(self, value: Value, op=None):
        """``convertType(value)``: the local type of ``value``."""
        sharding = self.sharding_of(value)
        return local_type(self.type_of(value), sharding, self.mesh_of(sharding), op)

    def mesh_or_fail(self, sharding: TensorShardingAttr | None, op: Operation):
        mesh = self.mesh_of(sharding)
        if mesh is None:
            raise PartitionError(op, f"'{op.name}' op failed to resolve mesh")
        return mesh

    def channel(self) -> int:
        handle = self.next_channel
        self.next_channel += 1
        return handle

    # -- rewrites shared by patterns ------------------------------------------------------------
    def localize(self, op: Operation) -> None:
        """``localizeGenericOp``: the op keeps everything but takes its results' local types."""
        for result in op.results:
            result.type = self.local(result, op)
        if df.is_data_flow_op(op):  # a while's region arguments are its results' values
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.arguments:
                        arg.type = self.local(arg, op)

    def replace(self, op: Operation, values) -> None:
        replace_op(op, values)
        self.erased.add(id(op))


# --- patterns of this file -------------------------------------------------------------------

def convert_func(conv: Conversion, func: Operation) -> None:
    """``FuncOpSignaturePattern``: local argument and result types."""
    props = func.properties
    if func.regions and func.regions[0].blocks:
        args = func.regions[0].blocks[0].arguments
        for arg in args:
            arg.type = conv.local(arg, func)
        props["arg_types"] = [a.type for a in args]
    results = []
    for i, t in enumerate(props.get("result_types", [])):
        attrs_ = (props.get("res_attrs") or [None] * (i + 1))[i] or {}
        sharding = attrs_.get(df.SHARDING)
        sharding = sharding if isinstance(sharding, TensorShardingAttr) else None
        results.append(local_type(t, sharding, conv.mesh_of(sharding), func))
    props["result_types"] = results


def convert_manual_computation(conv: Conversion, op: Operation) -> None:
    """``ManualComputationOpPattern``: the body, localised, replaces the op."""
    block = op.regions[0].blocks[0]
    for arg, operand in zip(block.arguments, op.operands, strict=True):
        arg.replace_all_uses_with(operand)
    terminator = block.ops[-1]
    results = list(terminator.operands)
    anchor = op
    for inner in list(block.ops[:-1]):
        inner.move_before(anchor)
    erase(terminator)
    conv.erased.add(id(terminator))
    conv.replace(op, results)


def convert_named_computation(conv: Conversion, op: Operation) -> None:
    """``NamedComputationOpPattern``: local block argument and result types."""
    for arg in op.regions[0].blocks[0].arguments:
        arg.type = conv.local(arg, op)
    conv.localize(op)


def convert_constant(conv: Conversion, op: Operation) -> None:
    """``ConstantOpPattern``: a ``stablehlo.constant`` of the local shape, or a dynamic slice of
    the global constant when the constant is sharded and not a splat."""
    result = op.results[0]
    global_type = conv.type_of(result)
    local = conv.local(result, op)
    body = str(op.properties_view["value"])
    if " : " not in body:
        body = f"{body} : {global_type}"
    elements = parse_attribute(body)
    b = Builder.before(op)
    splat = getattr(elements, "splat", False)
    if local == global_type or splat:
        text = body if local == global_type else f"{elements.body_text()} : {local}"
        new = b.create("stablehlo.constant", [], result_types=[local], properties={"value": OpaqueAttr(text)},
                       loc=op.loc)
        conv.replace(op, new.results)
        return
    sharding = conv.sharding_of(result)
    mesh = conv.mesh_or_fail(sharding, op)
    whole = b.create("stablehlo.constant", [], result_types=[global_type], properties={"value": OpaqueAttr(body)},
                     loc=op.loc).results[0]
    piece = dynamic_slice_for_axes(b, whole, mesh, [d.axes for d in sharding.dim_shardings], local, conv.counts,
                                   op.loc)
    conv.replace(op, [piece])


def _not_legalized(op: Operation) -> PartitionError:
    return PartitionError(op, f"failed to legalize operation '{op.name}' that was explicitly marked illegal")


def convert_op(conv: Conversion, op: Operation) -> None:
    """Apply the pattern for ``op`` (raises ``PartitionError`` where the conversion fails)."""
    from shardy_py.passes.export.convert_global_to_local_collectives import COLLECTIVE_PATTERNS
    from shardy_py.passes.export.convert_global_to_local_gather_scatter import GATHER_SCATTER_PATTERNS
    from shardy_py.passes.export.convert_global_to_local_stablehlo import STABLEHLO_PATTERNS

    name = op.name
    if name == "func.func":
        convert_func(conv, op)
        return
    if name in ("func.return", "func.call", "sdy.return"):
        conv.localize(op)
        return
    pattern = COLLECTIVE_PATTERNS.get(name) or STABLEHLO_PATTERNS.get(name) or GATHER_SCATTER_PATTERNS.get(name)
    if pattern is not None:
        pattern(conv, op)
        return
    if name == "sdy.manual_computation":
        convert_manual_computation(conv, op)
    elif name == "sdy.named_computation":
        convert_named_computation(conv, op)
    elif name == "sdy.constant":
        convert_constant(conv, op)
    elif op.dialect != "sdy":  # any other dialect (chlo, arith, unregistered ones) as jaxlib 0.12 does
        conv.localize(op)
    else:
        raise _not_legalized(op)


@register
class ConvertGlobalToLocalPass(Pass):
    name = "sdy-convert-global-to-local"
    summary = "Converts an SDY program from global shapes to local shapes."
    options = (
        PassOption("per-dim-all-gather", bool, False,
                   "Keep per-dimension all-gather without combining them into a single all-gather."),
        PassOption("combine-multi-dimension-reduce-scatter", bool, False,
                   "Combine multi-dimension reduce-scatter into a single reduce-scatter."),
        PassOption("enable-rgv3", bool, False, "Use StableHLO ReplicaGroupV3 (mesh-axes based) for collectives."),
        PassOption("replica-count", int, 1, "Number of replicas (data parallelism)."),
        PassOption("partition-count", int, 1, "Number of partitions (model parallelism)."),
    )

    def run(self, module, ctx) -> None:
        """Visit the module's ops in pre-order and rewrite each; the first failure fails the pass."""
        if self.option("replica_count") > 1 and self.option("partition_count") > 1:
            ctx.error(None, "Shardy partitioner convert_global_to_local does not support both replica_count > 1 "
                            "and partition_count > 1 yet.")
            return
        set_module_sharding_metadata(module.op)  # (of the global program: a returned collective's out_sharding)
        conv = Conversion(module, dict(self.values))
        ops = [op for op in module.walk() if op.name not in ("builtin.module", "sdy.mesh")]
        conv.record(ops)
        for op in ops:
            if id(op) in conv.erased:
                continue
            try:
                convert_op(conv, op)
            except PartitionError as e:
                target = e.op if e.op is not None else op
                ctx.error(target, str(e))
                if str(e) != _not_legalized(op).args[0]:
                    ctx.error(op, _not_legalized(op).args[0])
                return
        sync_operand_types(module)

