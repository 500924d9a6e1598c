"""Plain sdy -> XLA round-trip format: what XLA's ``xla-sdy-round-trip-export-pipeline`` writes.

- ``sdy.sharding_constraint`` becomes ``stablehlo.custom_call @Sharding``,
  ``sdy.sharding_group`` ``@xla.sdy.ShardingGroup`` and ``sdy.propagation_barrier``
  ``@xla.sdy.PropagationBarrier`` (group id and direction as ``"N : i64"``/``"N : i32"``);
- every ``sdy.sharding`` (arguments, ops) and ``sdy.sharding_rule`` moves into
  ``mhlo.frontend_attributes`` as ``xla.sdy.sharding``/``xla.sdy.sharding_rule`` strings, and
  beside it an ``mhlo.sharding`` HloSharding string for GSPMD readers (``hlo_shardings=False``
  leaves those out);
- a result sharding moves onto an ``@xla.sdy.FuncResultSharding`` custom call in front of
  ``return`` (the result keeps only its ``mhlo.sharding``);
- manual computations become custom calls and a body function (``xla_manual``);
- ``sdy.mesh`` ops become the module's ``xla.sdy.meshes`` string (in their written order).

``sdy.constant`` stays as it is (it names no mesh).  Ops with no form in the format
(``sdy.reshard``, collectives, ``sdy.named_computation``, data-flow edges) are refused, as
XLA's export refuses them.
"""
from __future__ import annotations

from shardy_py.hlo import HloSharding, HloShardingError, export_sharding
from shardy_py.interop.xla_ops import (
    BARRIER_TARGET,
    DIRECTION_KEY,
    FUNC_RESULT_TARGET,
    GROUP_ID_KEY,
    MESHES_KEY,
    SHARDING_GROUP_TARGET,
    SHARDING_KEY,
    SHARDING_RULE_KEY,
    SHARDING_TARGET,
    Sites,
    custom_call,
    terminator,
)
from shardy_py.interop.xla_strings import (
    FRONTEND_ATTRS,
    HLO_SHARDING,
    XlaFormatError,
    dict_entries,
    encode_string,
    render_dict,
)
from shardy_py.ir import attrs as A
from shardy_py.ir.builder import Builder
from shardy_py.ir.edit import replace_op
from shardy_py.ir.module import Module
from shardy_py.ir.ops import COLLECTIVE_OPS, Location, Operation
from shardy_py.ir.symbol_uses import nested_symbol_uses

#: sdy ops XLA's round-trip export has no form for.
UNSUPPORTED_OPS = ("sdy.reshard", "sdy.named_computation", "sdy.data_flow_edge", "sdy.func_data_flow_edge",
                   *COLLECTIVE_OPS)


class Exporter:
    """Converts one module (edited in place) from plain sdy to the round-trip format."""

    def __init__(self, module: Module, hlo_shardings: bool = True):
        self.module = module
        self.sites = Sites(module)
        self.hlo_shardings = hlo_shardings
        self.meshes = module.meshes

    def run(self) -> None:
        self.check_supported()
        funcs = list(self.sites.funcs())
        for func in funcs:
            self.export_sdy_ops(func)
        for func in funcs:
            self.export_func_attrs(func)
        for func in funcs:
            self.export_result_shardings(func)
        from shardy_py.interop.xla_manual import export_manual_computations

        export_manual_computations(self.module, self.sites)
        self.export_meshes()

    def check_supported(self) -> None:
        for op in self.module.walk():
            if op.name in UNSUPPORTED_OPS:
                raise self.error(op.loc, f"'{op.name}' has no form in XLA's round-trip format "
                                         "(XLA's export refuses it too)")

    def error(self, loc: Location | None, message: str) -> XlaFormatError:
        line, column = (loc.line, loc.column) if loc is not None else (1, 1)
        return XlaFormatError(message, line, column, self.sites.locator.offset(loc) or 0, self.module.filename)

    # -- sdy ops -> custom calls ----------------------------------------------------------
    def export_sdy_ops(self, func: Operation) -> None:
        for op in list(func.walk()):
            if op.name == "sdy.sharding_constraint":
                self.export_constraint(op)
            elif op.name == "sdy.sharding_group":
                self.export_simple(op, SHARDING_GROUP_TARGET, GROUP_ID_KEY, f"{op.properties['group_id']} : i64",
                                   results=False)
            elif op.name == "sdy.propagation_barrier":
                direction = A.PROPAGATION_DIRECTIONS.index(op.properties["allowed_direction"])
                self.export_simple(op, BARRIER_TARGET, DIRECTION_KEY, f"{direction} : i32", results=True)

    def export_constraint(self, op: Operation) -> None:
        attributes = dict(op.attributes)
        attributes["sdy.sharding"] = A.TensorShardingPerValueAttr((op.properties["sharding"],))
        new = custom_call(Builder.before(op), SHARDING_TARGET, op.operands[:1], [op.results[0].type],
                          attributes=attributes)
        new.loc, new.location_text = op.loc, op.location_text
        replace_op(op, new.results)

    def export_simple(self, op: Operation, target: str, key: str, value: str, results: bool) -> None:
        t = op.operand_types[0] if op.operand_types else op.operands[0].type
        attributes = {FRONTEND_ATTRS: A.OpaqueAttr(render_dict({key: encode_string(value)})), **op.attributes}
        new = custom_call(Builder.before(op), target, op.operands[:1], [t] if results else [], side_effect=True,
                          attributes=attributes)
        new.loc, new.location_text = op.loc, op.location_text
        replace_op(op, new.results)

    # -- attributes -> strings ----------------------------------------------------------------
    def export_func_attrs(self, func: Operation) -> None:
        for i, attributes in enumerate(func.properties["arg_attrs"]):
            sharding = attributes.pop("sdy.sharding", None)
            if sharding is not None:
                self.put(attributes, {SHARDING_KEY: str(sharding)}, func.attribute_locs.get(f"arg{i}.sdy.sharding"))
                self.put_hlo(attributes, [sharding], (), func.attribute_locs.get(f"arg{i}.sdy.sharding"))
        for op in func.walk():
            if op is func:
                continue
            entries = {}
            sharding = op.attributes.pop("sdy.sharding", None)
            rule = op.attributes.pop("sdy.sharding_rule", None)
            if sharding is not None:
                entries[SHARDING_KEY] = str(sharding)
            if rule is not None:
                entries[SHARDING_RULE_KEY] = str(rule)
            if entries:
                loc = op.attribute_locs.get("sdy.sharding") or op.loc
                self.put(op.attributes, entries, loc)
            if isinstance(sharding, A.TensorShardingPerValueAttr):
                self.put_hlo(op.attributes, list(sharding.shardings), _manual_axes_around(op), loc)

    def put(self, attributes: dict, entries: dict[str, str], loc: Location | None) -> None:
        """Add ``entries`` (texts, written as string literals) to the frontend attributes in ``attributes``."""
        live = {}
        current = attributes.get(FRONTEND_ATTRS)
        if current is not None:
            try:
                live = {k: v for k, v, _ in dict_entries(str(current))}
            except ValueError as e:
                raise self.error(loc, f"{FRONTEND_ATTRS} is not a dictionary: {e}") from None
        live.update({k: encode_string(v) for k, v in entries.items()})
        attributes[FRONTEND_ATTRS] = A.OpaqueAttr(render_dict(live))

    def put_hlo(self, attributes: dict, shardings: list[A.TensorShardingAttr], manual_axes: tuple[str, ...],
                loc: Location | None) -> None:
        """Add the ``mhlo.sharding`` GSPMD reads (a tuple sharding for several values)."""
        if not self.hlo_shardings:
            return
        hlo = [self.to_hlo(s, manual_axes, loc) for s in shardings]
        h = hlo[0] if len(hlo) == 1 else HloSharding.tuple(hlo)
        attributes[HLO_SHARDING] = A.OpaqueAttr(encode_string(str(h)))

    def to_hlo(self, sharding: A.TensorShardingAttr, manual_axes: tuple[str, ...], loc) -> HloSharding:
        mesh = sharding.mesh_or_ref if isinstance(sharding.mesh_or_ref, A.MeshAttr) else \
            self.meshes.get(sharding.mesh_or_ref)
        if mesh is None:
            raise self.error(loc, f"sharding {sharding} refers to mesh @{sharding.mesh_or_ref}, which is not defined")
        try:
            return export_sharding(sharding, mesh, manual_axes=manual_axes)
        except HloShardingError as e:
            raise self.error(loc, f"cannot write {sharding} as an mhlo.sharding: {e} "
                                  "(export without HloSharding strings to keep only the sdy strings)") from None

    # -- result shardings -> @xla.sdy.FuncResultSharding ------------------------------------
    def export_result_shardings(self, func: Operation) -> None:
        ret = terminator(func)
        res_attrs = func.properties["res_attrs"]
        for i, attributes in enumerate(res_attrs):
            sharding = attributes.pop("sdy.sharding", None)
            if sharding is None:
                continue
            loc = func.attribute_locs.get(f"res{i}.sdy.sharding") or func.loc
            if ret is None:
                raise self.error(loc, "a result sharding of a function without a body has no form in "
                                      "XLA's round-trip format")
            self.put_hlo(attributes, [sharding], (), loc)
            frontend = {SHARDING_KEY: encode_string(str(A.TensorShardingPerValueAttr((sharding,))))}
            new = custom_call(Builder.before(ret), FUNC_RESULT_TARGET, [ret.operands[i]], [ret.operand_types[i]],
                              side_effect=True, frontend=frontend)
            ret.set_operand(i, new.results[0])

    # -- meshes -> module string ------------------------------------------------------------------
    def export_meshes(self) -> None:
        mesh_ops = [op for op in self.module.ops if op.name == "sdy.mesh"]
        if not mesh_ops:
            return
        from shardy_py.syntax.attr_printer import quote_string
        from shardy_py.syntax.printer import _BARE_KEY

        # a mesh still named by an attribute the export leaves as it is (a collective's
        # #stablehlo.replica_group_mesh_axes<mesh = @m, ...>) keeps its op too, as JAX 0.12 writes it
        still_used = nested_symbol_uses(op for op in self.module.ops if op.name != "sdy.mesh")
        parts = []
        for op in mesh_ops:
            name = op.properties["sym_name"]
            parts.append(f"{name if _BARE_KEY.match(name) else quote_string(name)} = {op.properties['mesh']}")
            if name not in still_used:
                op.erase()
        self.put(self.module.op.attributes, {MESHES_KEY: "{" + ", ".join(parts) + "}"}, self.module.op.loc)


def _manual_axes_around(op: Operation) -> tuple[str, ...]:
    """The manual axes of the ``sdy.manual_computation`` ops around ``op`` (outermost first)."""
    axes: list[str] = []
    cur = op.parent_op
    while cur is not None:
        if cur.name == "sdy.manual_computation":
            axes[:0] = list(cur.properties["manual_axes"].axes)
        cur = cur.parent_op
    return tuple(axes)
