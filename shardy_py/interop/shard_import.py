"""``shard`` / ``mesh`` dialect -> sdy (edits a module in place; see ``shard_dialect`` for the mapping)."""
from __future__ import annotations

import attrs

from shardy_py.interop.shard_common import (
    AXIS_NAMES_ATTR,
    DIALECT_OPS,
    FUNC_RESULT_ATTR,
    Reporter,
    default_axis_name,
)
from shardy_py.interop.shard_syntax import (
    GridSpec,
    ShardingSpec,
    ShardUse,
    SyntaxProblem,
    read_axis_names,
    read_grid,
    read_shard,
    read_sharding,
)
from shardy_py.ir.attrs import (
    REDUCTION_KINDS,
    AxisRefAttr,
    DimensionShardingAttr,
    MeshAttr,
    MeshAxisAttr,
    TensorShardingAttr,
    TensorShardingPerValueAttr,
)
from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import replace_op
from shardy_py.ir.module import Module, sharding_of
from shardy_py.ir.ops import Block, Operation, Value
from shardy_py.ir.types import RankedTensorType

_GRID_OPS = {ops[0] for ops in DIALECT_OPS.values()}
_SHARDING_OPS = {ops[1] for ops in DIALECT_OPS.values()}
_SHARD_OPS = {ops[2] for ops in DIALECT_OPS.values()}
_DIALECTS = tuple(DIALECT_OPS)


def is_placeholder(s: TensorShardingAttr) -> bool:
    """A fully open sharding with no axes: what sdy assumes for a value without a sharding."""
    return (not s.replicated_axes and not s.unreduced_axes
            and all(d.is_open and not d.axes and d.priority is None for d in s.dim_shardings))


class ShardToSdy:
    """One conversion: grids first, then every ``shard.shard`` in program order."""

    def __init__(self, module: Module):
        self.m = module
        self.report = Reporter(module)
        self.grids: dict[str, MeshAttr] = {}
        self.failed_grids: set[str] = set()  # grids with a problem reported: no second one for their users
        self.specs: dict[Value, tuple[ShardingSpec, Operation]] = {}

    def run(self) -> None:
        self.convert_grids()
        for func in [op for op in self.m.ops if op.regions]:
            self.convert_body(func)
        converted = _GRID_OPS | _SHARDING_OPS | _SHARD_OPS  # when left, a problem was reported for them
        for op in self.m.walk():
            if op.dialect in _DIALECTS and op.name not in converted:
                self.report.error(op.loc, f"'{op.name}' has no sdy counterpart (only the grid, sharding and shard "
                                          "ops convert)")
        self.report.raise_if_any()

    # -- grids ---------------------------------------------------------------------------------
    def convert_grids(self) -> None:
        taken = {op.properties.get("sym_name") for op in self.m.ops if op.name == "sdy.mesh"}
        for op in list(self.m.ops):
            if op.name not in _GRID_OPS or self.is_generic(op):
                continue
            try:
                grid = read_grid(op)
            except SyntaxProblem as e:
                self.report.error(op.loc, e.message, e.needle)
                continue
            self.failed_grids.add(grid.name)
            try:
                names = self.axis_names(op, grid)
            except SyntaxProblem as e:
                self.report.error(op.loc, e.message, e.needle)
                continue
            if grid.name in taken or grid.name in self.grids:
                self.report.error(op.loc, f"symbol @{grid.name} is defined more than once", "@")
                continue
            bad = [i for i, d in enumerate(grid.shape) if d is None or d < 1]
            if bad:
                size = "?" if grid.shape[bad[0]] is None else str(grid.shape[bad[0]])
                self.report.error(op.loc, f"grid @{grid.name} axis {bad[0]} has size {size}; sdy meshes need "
                                          "static sizes of at least 1", "?" if size == "?" else "shape")
                continue
            if not grid.shape:
                self.report.error(op.loc, f"grid @{grid.name} has no axes; an sdy mesh needs at least one", "shape")
                continue
            mesh = MeshAttr([MeshAxisAttr(n, s) for n, s in zip(names, grid.shape, strict=True)])
            self.grids[grid.name] = mesh
            self.failed_grids.discard(grid.name)
            attrs_ = {k: v for k, v in op.attributes.items() if k != AXIS_NAMES_ATTR}
            new = Builder.before(op).create("sdy.mesh", result_types=(), attributes=attrs_,
                                            properties={"sym_name": grid.name, "mesh": mesh})
            new.location_text = op.location_text
            op.erase()

    def is_generic(self, op: Operation) -> bool:
        """Report a shard op written in MLIR's generic form (its properties are not read)."""
        if op.generic_form:
            self.report.error(op.loc, f"'{op.name}' in generic form is not supported; write its custom syntax")
        return op.generic_form

    def axis_names(self, op: Operation, grid: GridSpec) -> tuple[str, ...]:
        attr = op.attributes.get(AXIS_NAMES_ATTR)
        if attr is None:
            return tuple(default_axis_name(i) for i in range(len(grid.shape)))
        names = read_axis_names(getattr(attr, "text", str(attr)))
        if len(names) != len(grid.shape):
            raise SyntaxProblem(f"{AXIS_NAMES_ATTR} names {len(names)} axes but the grid has {len(grid.shape)}",
                                AXIS_NAMES_ATTR)
        if len(set(names)) != len(names):
            raise SyntaxProblem(f"{AXIS_NAMES_ATTR} names an axis twice", AXIS_NAMES_ATTR)
        return names

    # -- bodies --------------------------------------------------------------------------------
    def convert_body(self, root: Operation) -> None:
        for op in list(root.walk()):
            if op.name in _SHARDING_OPS and not self.is_generic(op):
                self.read_sharding_op(op)
        uses: list[tuple[Operation, ShardUse]] = []
        for op in list(root.walk()):
            if op.name not in _SHARD_OPS or self.is_generic(op):
                continue
            try:
                uses.append((op, read_shard(op)))
            except SyntaxProblem as e:
                self.report.error(op.loc, e.message, e.needle)
        for op, use in uses:
            self.convert_shard(op, use)
        for value, (_, op) in list(self.specs.items()):
            if op.parent is not None and not value.uses:
                op.erase()

    def read_sharding_op(self, op: Operation) -> None:
        try:
            spec = read_sharding(op)
        except SyntaxProblem as e:
            self.report.error(op.loc, e.message, e.needle)
            return
        if spec.halo_sizes:
            self.report.error(op.loc, "halo sizes have no sdy counterpart (sdy shards never overlap)", "halo_sizes")
            return
        if spec.sharded_dims_offsets:
            self.report.error(op.loc, "sharded_dims_offsets have no sdy counterpart (sdy shards are even, "
                                      "padded at the end)", "sharded_dims_offsets")
            return
        mesh = self.grids.get(spec.grid)
        if mesh is None and spec.grid in self.failed_grids:
            return
        if mesh is None:
            self.report.error(op.loc, f"'{op.name}' refers to @{spec.grid}, which is not a grid of this module", "@")
            return
        problem = _check_axes(spec, len(mesh.axes))
        if problem:
            self.report.error(op.loc, problem[0], problem[1])
            return
        if spec.partial_type is not None and spec.partial_type not in REDUCTION_KINDS:
            self.report.error(op.loc, f"partial type '{spec.partial_type}' has no sdy counterpart (sdy unreduced "
                                      f"axes reduce with {', '.join(REDUCTION_KINDS)})", spec.partial_type)
            return
        for user in op.results[0].users:
            if user.dialect in _DIALECTS and user.name not in _SHARD_OPS:
                return  # reported as an op with no sdy counterpart
            if user.name not in _SHARD_OPS or tuple(user.operands[1:2]) != (op.results[0],):
                self.report.error(user.loc, f"'{user.name}' uses the sharding {op.results[0].name}; only "
                                            f"shard ops convert to sdy")
                return
        self.specs[op.results[0]] = (spec, op)

    def sharding_for(self, op: Operation, use: ShardUse) -> TensorShardingAttr | None:
        """The sdy sharding of a shard op, or None (with a problem reported)."""
        sharding_value = op.operands[1] if len(op.operands) > 1 else None
        if sharding_value is None or sharding_value not in self.specs:
            if sharding_value is None or not _defined_by(sharding_value, _SHARDING_OPS):
                self.report.error(op.loc, f"the sharding {use.sharding} is not defined by a sharding op in this "
                                          "function", use.sharding)
            return None
        t = op.results[0].type if op.results else None
        if not isinstance(t, RankedTensorType):
            self.report.error(op.loc, f"'{op.name}' needs a ranked tensor type, not {t}", ":")
            return None
        spec, _ = self.specs[sharding_value]
        return _to_sdy_sharding(spec, self.grids[spec.grid], t.rank, self.report, op)

    def convert_shard(self, op: Operation, use: ShardUse) -> None:
        s = self.sharding_for(op, use)
        if s is None:
            return
        if op.operands[0] is None:
            self.report.error(op.loc, f"{use.src} is not defined before '{op.name}'", use.src)
        elif FUNC_RESULT_ATTR in op.attributes:
            if use.annotate_for_users:
                self.to_func_result(op, s)
            else:
                self.report.error(op.loc, f"{FUNC_RESULT_ATTR} needs annotate_for_users", FUNC_RESULT_ATTR)
        elif use.annotate_for_users:
            self.to_constraint(op, s)
        else:
            self.to_producer(op, s, use)

    def to_constraint(self, op: Operation, s: TensorShardingAttr) -> None:
        """``annotate_for_users``: the users see ``s``, i.e. an ``sdy.sharding_constraint``."""
        src = op.operands[0]
        new = Builder.before(op).create("sdy.sharding_constraint", [src], properties={"sharding": s},
                                        attributes=dict(op.attributes))
        new.location_text = op.location_text
        replace_op(op, new.results)

    def to_producer(self, op: Operation, s: TensorShardingAttr, use: ShardUse) -> None:
        """A result annotation: the sharding of the value where it is defined."""
        src: Value = op.operands[0]
        if self.has_extra_attributes(op):
            return
        owner = src.owner
        if isinstance(owner, Block):
            func = owner.parent.parent if owner.parent is not None else None
            if func is None or func.name != "func.func" or owner is not func.regions[0].blocks[0]:
                self.report.error(op.loc, f"{use.src} is an argument of "
                                          f"'{func.name if func is not None else 'a block'}'; sdy can only shard "
                                          "function arguments (use annotate_for_users)", use.src)
                return
            old = src.attributes.get("sdy.sharding")
            if old is not None and old != s:
                self.report.error(op.loc, f"{use.src} already has the sharding {old}; a second, different result "
                                          "annotation is undefined", use.src)
                return
            src.attributes["sdy.sharding"] = s
            func.properties["arg_attrs"][src.index] = src.attributes
        elif owner.is_sdy:
            if sharding_of(src) != s:
                self.report.error(op.loc, f"{use.src} is defined by '{owner.name}' with another sharding; a result "
                                          "annotation after an operand annotation is undefined", use.src)
                return
        elif not self.set_result_sharding(owner, src.index, s, op, use.src):
            return
        _forward_and_erase(op)

    def set_result_sharding(self, owner: Operation, index: int, s: TensorShardingAttr, at: Operation,
                            written: str) -> bool:
        old = owner.attributes.get("sdy.sharding")
        shardings = list(old.shardings) if isinstance(old, TensorShardingPerValueAttr) else []
        if len(shardings) != len(owner.results):
            shardings = []
            for r in owner.results:
                if not isinstance(r.type, RankedTensorType):
                    self.report.error(at.loc, f"'{owner.name}' result {r.name} has type {r.type}; sdy needs ranked "
                                              "tensor types to shard the results of an op", r.name)
                    return False
                shardings.append(TensorShardingAttr(s.mesh_or_ref, [DimensionShardingAttr((), False)] * r.type.rank))
        if not is_placeholder(shardings[index]) and shardings[index] != s:
            self.report.error(at.loc, f"{written} already has the sharding {shardings[index]}; a second, different "
                                      "result annotation is undefined", written)
            return False
        shardings[index] = s
        owner.attributes["sdy.sharding"] = TensorShardingPerValueAttr(shardings)
        return True

    def to_func_result(self, op: Operation, s: TensorShardingAttr) -> None:
        """A shard op marked as the function's result sharding: the ``sdy.sharding`` of those results."""
        result = op.results[0]
        uses = result.users
        func = op.parent_op
        if func is None or func.name != "func.func" or not uses or any(
                u.name != "func.return" or u.parent_op is not func for u in uses):
            self.report.error(op.loc, f"{FUNC_RESULT_ATTR} marks a function result sharding, but {result.name} is "
                                      "not only returned by its function", FUNC_RESULT_ATTR)
            return
        if self.has_extra_attributes(op):
            return
        res_attrs = func.properties["res_attrs"]
        for ret in uses:
            for i, v in enumerate(ret.operands):
                if v is result:
                    old = res_attrs[i].get("sdy.sharding")
                    if old is not None and old != s:
                        self.report.error(op.loc, f"result {i} of @{func.properties['sym_name']} already has the "
                                                  f"sharding {old}", FUNC_RESULT_ATTR)
                        return
                    res_attrs[i] = {**res_attrs[i], "sdy.sharding": s}
        _forward_and_erase(op)

    def has_extra_attributes(self, op: Operation) -> bool:
        """Report the attributes of a shard op that becomes no op (so has nowhere to keep them)."""
        extra = sorted(k for k in op.attributes if k != FUNC_RESULT_ATTR)
        if extra:
            self.report.error(op.loc, f"attributes {{{', '.join(extra)}}} of a result annotation have no place "
                                      "in sdy", "{")
        return bool(extra)


def _forward_and_erase(op: Operation) -> None:
    """Make the users of ``op``'s result use its first operand instead, then erase ``op``."""
    op.results[0].replace_all_uses_with(op.operands[0])
    op.erase()


def _defined_by(v: Value, names) -> bool:
    return isinstance(v.owner, Operation) and v.owner.name in names


def _check_axes(spec: ShardingSpec, n_axes: int) -> tuple[str, str] | None:
    """(message, token) for an axis out of range or used twice, else None."""
    seen: set[int] = set()
    for a in [a for d in spec.split_axes for a in d] + list(spec.partial_axes):
        if not 0 <= a < n_axes:
            return f"grid axis {a} is out of range: @{spec.grid} has {n_axes} axes", str(a)
        if a in seen:
            return f"grid axis {a} is used more than once in the sharding", str(a)
        seen.add(a)
    return None


def _to_sdy_sharding(spec: ShardingSpec, mesh: MeshAttr, rank: int, report: Reporter,
                     op: Operation) -> TensorShardingAttr | None:
    split = list(spec.split_axes)
    if any(split[rank:]):
        report.error(op.loc, f"the sharding splits dimension {next(i for i in range(rank, len(split)) if split[i])} "
                             f"of a rank-{rank} tensor", ":")
        return None
    split = (split + [()] * rank)[:rank]
    names = mesh.axis_names
    dims = [DimensionShardingAttr([AxisRefAttr(names[a]) for a in d]) for d in split]
    unreduced = [AxisRefAttr(names[a]) for a in sorted(spec.partial_axes)]
    s = TensorShardingAttr(spec.grid, dims, (), unreduced, spec.partial_type or "sum")
    return attrs.evolve(s, reduction="sum") if not unreduced else s
