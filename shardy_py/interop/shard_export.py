"""sdy -> ``shard`` / ``mesh`` dialect (edits a module in place; see ``shard_dialect`` for the mapping)."""
from __future__ import annotations

from shardy_py.interop.shard_common import (
    AXIS_NAMES_ATTR,
    DIALECT_OPS,
    FUNC_RESULT_ATTR,
    Reporter,
    default_axis_name,
)
from shardy_py.interop.shard_import import is_placeholder
from shardy_py.interop.shard_syntax import GridSpec, ShardingSpec, build_grid, build_shard, build_sharding
from shardy_py.ir.attrs import MeshAttr, OpaqueAttr, TensorShardingAttr, TensorShardingPerValueAttr
from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import replace_op
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Block, Location, Operation, Value
from shardy_py.ir.types import parse_type
from shardy_py.syntax.attr_printer import quote_string


class SdyToShard:
    """One conversion: meshes to grids, then each function's shardings to sharding/shard ops."""

    def __init__(self, module: Module, dialect: str = "shard"):
        if dialect not in DIALECT_OPS:
            raise ValueError(f"dialect must be one of {', '.join(DIALECT_OPS)}, not {dialect!r}")
        self.m = module
        self.dialect = dialect
        self.grid_op, self.sharding_op, self.shard_op = DIALECT_OPS[dialect]
        self.sharding_type = parse_type(f"!{dialect}.sharding")
        self.report = Reporter(module)
        self.axis_index: dict[str, dict[str, int]] = {}

    def run(self) -> None:
        self.convert_meshes()
        for op in list(self.m.ops):
            if op.name == "func.func":
                self.convert_function(op)
        self.report_leftovers()
        self.report.raise_if_any()

    # -- meshes -----------------------------------------------------------------------------------
    def convert_meshes(self) -> None:
        for op in list(self.m.ops):
            if op.name != "sdy.mesh":
                continue
            name, mesh = op.properties["sym_name"], op.properties["mesh"]
            where = op.properties.get("mesh_loc", op.loc)
            if mesh.device_ids:
                self.report.error(where, f"mesh @{name} lists device_ids; a {self.grid_op} has no device order "
                                         "(its devices are always in iota order)", "device_ids")
                continue
            if not mesh.axes:
                self.report.error(where, f"mesh @{name} has no axes; a {self.grid_op} needs at least one")
                continue
            self.axis_index[name] = {a.name: i for i, a in enumerate(mesh.axes)}
            attrs_ = dict(op.attributes)
            if mesh.axis_names != tuple(default_axis_name(i) for i in range(len(mesh.axes))):
                attrs_[AXIS_NAMES_ATTR] = OpaqueAttr("[" + ", ".join(quote_string(n) for n in mesh.axis_names) + "]")
            grid = GridSpec(name, tuple(a.size for a in mesh.axes))
            new = build_grid(Builder.before(op), self.dialect, grid, attrs_)
            new.location_text = op.location_text
            op.erase()

    # -- shardings ----------------------------------------------------------------------------------
    def spec(self, s: TensorShardingAttr, where: Location | None) -> ShardingSpec | None:
        """The ``shard.sharding`` operands for ``s``, or None (with the problems reported)."""
        if isinstance(s.mesh_or_ref, MeshAttr):
            self.report.error(where, f"a sharding with an inline mesh has no {self.grid_op} to refer to; define the "
                                     "mesh with sdy.mesh", "mesh<")
            return None
        index = self.axis_index.get(s.mesh_or_ref)
        if index is None:
            if s.mesh_or_ref not in self.m.meshes:
                self.report.error(where, f"mesh @{s.mesh_or_ref} is not defined", "@")
            return None
        ok = True
        for i, d in enumerate(s.dim_shardings):
            if d.is_open:
                ok = self.fail(where, f"dimension {i} is open ('?'); the {self.dialect} dialect has only closed "
                                      "dimensions", "?")
            if d.priority is not None:
                ok = self.fail(where, f"dimension {i} has priority p{d.priority}; the {self.dialect} dialect has no "
                                      "sharding priorities", f"}}p{d.priority}")
        refs = [a for d in s.dim_shardings for a in d.axes] + list(s.replicated_axes) + list(s.unreduced_axes)
        sub = next((a for a in refs if a.sub_axis_info is not None), None)
        if sub is not None:
            info = sub.sub_axis_info
            ok = self.fail(where, f'sub-axis "{sub.name}":({info.pre_size}){info.size} has no counterpart; '
                                  f"{self.dialect} shardings use whole grid axes", ":(")
        if s.replicated_axes:
            ok = self.fail(where, f"explicitly replicated axes have no counterpart in the {self.dialect} dialect "
                                  "(axes a sharding does not use are replicated)", "replicated")
        if s.unreduced_axes and self.dialect == "shard":
            ok = self.fail(where, "unreduced axes have no counterpart in the shard dialect, which dropped partial "
                                  "shardings; convert with --dialect-name mesh (partial = ...)", "unreduced")
        if not ok:
            return None
        split = [tuple(index[a.name] for a in d.axes) for d in s.dim_shardings]
        while split and not split[-1]:  # as MLIR keeps it: equal shardings of any rank share an op
            split.pop()
        partial = tuple(index[a.name] for a in s.unreduced_axes)
        return ShardingSpec(s.mesh_or_ref, tuple(split), s.reduction if partial else None, partial)

    def fail(self, where: Location | None, message: str, needle: str) -> bool:
        self.report.error(where, message, needle)
        return False

    # -- functions ----------------------------------------------------------------------------------
    def convert_function(self, func: Operation) -> None:
        if not func.regions:
            if any("sdy.sharding" in d for d in func.properties["arg_attrs"] + func.properties["res_attrs"]):
                self.report.error(func.loc, f"@{func.properties['sym_name']} has no body to hold {self.dialect} "
                                            "ops for its shardings", "sdy.sharding")
            return
        writer = _Writer(self)
        block = func.regions[0].blocks[0]
        args_builder = Builder(block, 0)
        for arg in block.arguments:
            s = arg.attributes.get("sdy.sharding")
            if isinstance(s, TensorShardingAttr):
                spec = self.spec(s, func.attribute_locs.get(f"arg{arg.index}.sdy.sharding"))
                if spec is not None:
                    writer.annotate_value(arg, spec, block, args_builder)
                    del arg.attributes["sdy.sharding"]
        for op in list(func.walk()):
            if op.name == "sdy.sharding_constraint":
                spec = self.spec(op.properties["sharding"], op.properties.get("sharding_loc", op.loc))
                if spec is not None:
                    writer.constraint(op, spec)
            elif isinstance(op.attributes.get("sdy.sharding"), TensorShardingPerValueAttr) and not op.is_sdy:
                self.convert_results(writer, op)
            elif op.name == "func.return" and op.parent_op is func:
                self.convert_return(writer, func, op)
        for attrs_ in func.properties["res_attrs"]:
            attrs_.pop("sdy.sharding", None)

    def convert_results(self, writer: _Writer, op: Operation) -> None:
        shardings = op.attributes["sdy.sharding"].shardings
        where = op.attribute_locs.get("sdy.sharding", op.loc)
        if len(shardings) != len(op.results):
            self.report.error(where, f"'{op.name}' has {len(op.results)} results but {len(shardings)} shardings")
            return
        keep_placeholders = not all(is_placeholder(s) for s in shardings)
        specs = [None if keep_placeholders and is_placeholder(s) else self.spec(s, where) for s in shardings]
        todo = [(r, sp) for r, sp, s in zip(op.results, specs, shardings, strict=True)
                if sp is not None or not (keep_placeholders and is_placeholder(s))]
        if any(sp is None for _, sp in todo):
            return
        b = Builder.after(op)
        for r, sp in todo:
            writer.annotate_value(r, sp, op.parent, b)
        del op.attributes["sdy.sharding"]

    def convert_return(self, writer: _Writer, func: Operation, ret: Operation) -> None:
        res_attrs = func.properties["res_attrs"]
        for i, v in enumerate(list(ret.operands)):
            s = res_attrs[i].get("sdy.sharding") if i < len(res_attrs) else None
            if not isinstance(s, TensorShardingAttr) or v is None:
                continue
            spec = self.spec(s, func.attribute_locs.get(f"res{i}.sdy.sharding"))
            if spec is not None:
                writer.func_result(ret, i, spec)

    def report_leftovers(self) -> None:
        for op in self.m.walk():
            if op.is_sdy and op.name not in ("sdy.mesh", "sdy.sharding_constraint"):  # those reported already
                self.report.error(op.loc, f"'{op.name}' has no {self.dialect}-dialect counterpart")
            for key in op.attributes:
                if key.startswith("sdy.") and key != "sdy.sharding":  # sdy.sharding problems are reported
                    self.report.error(op.attribute_locs.get(key, op.loc),
                                      f"attribute {key} has no {self.dialect}-dialect counterpart")
            if op.name == "func.func":
                for kind, dicts in (("arg", op.properties["arg_attrs"]), ("res", op.properties["res_attrs"])):
                    for i, d in enumerate(dicts):
                        for key in d:
                            if key.startswith("sdy.") and key != "sdy.sharding":
                                self.report.error(op.attribute_locs.get(f"{kind}{i}.{key}", op.loc),
                                                  f"attribute {key} has no {self.dialect}-dialect counterpart")


class _Writer:
    """Makes the sharding and shard ops of one function, sharing an equal sharding defined earlier
    in the same block."""

    def __init__(self, conv: SdyToShard):
        self.c = conv
        self.cache: dict[tuple[int, ShardingSpec], Value] = {}

    def new_shard(self, b: Builder, src: Value, spec: ShardingSpec, block: Block, annotate: bool,
                  attributes: dict | None = None) -> Operation:
        """The shard op of ``src`` made by ``b``, after a sharding op unless ``block`` has an equal
        one before (ops are visited in order, so one made earlier for ``block`` comes first)."""
        sharding = self.cache.get((id(block), spec))
        if sharding is None:
            op = build_sharding(b, self.c.dialect, spec, self.c.sharding_type)
            sharding = self.cache[(id(block), spec)] = op.results[0]
        return build_shard(b, self.c.dialect, src, sharding, annotate, attributes)

    def annotate_value(self, v: Value, spec: ShardingSpec, block: Block, b: Builder) -> None:
        """A result annotation of ``v`` made by ``b``; every other use of ``v`` now uses its result."""
        before = list(v.uses)
        shard = self.new_shard(b, v, spec, block, annotate=False)
        for use in before:
            use.op.set_operand(use.index, shard.results[0])

    def constraint(self, op: Operation, spec: ShardingSpec) -> None:
        """``sdy.sharding_constraint`` -> ``shard.shard ... annotate_for_users`` (same uses)."""
        shard = self.new_shard(Builder.before(op), op.operands[0], spec, op.parent, annotate=True,
                               attributes=dict(op.attributes))
        shard.location_text = op.location_text
        replace_op(op, shard.results)

    def func_result(self, ret: Operation, i: int, spec: ShardingSpec) -> None:
        shard = self.new_shard(Builder.before(ret), ret.operands[i], spec, ret.parent, annotate=True,
                               attributes={FUNC_RESULT_ATTR: OpaqueAttr("")})
        ret.set_operand(i, shard.results[0])
