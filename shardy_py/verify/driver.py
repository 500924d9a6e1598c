"""The verification driver: runs the rules in the order Shardy runs its checks.

* Phase P: checks Shardy makes while parsing (meshes, propagation edges).
  When one fails, nothing else runs (the C++ parser would have stopped).
* Phase O: per op in pre-order: ``sdy.*`` discardable attributes in
  alphabetical order, ODS type constraints, traits and interfaces, the op's own
  ``verify``; region invariants (isolation) after the nested ops.
* Phase S: symbol uses, in IR order, for ops whose phase O passed.

Each op reports at most its first failure; other ops keep being verified.
"""
from __future__ import annotations

import gc
from collections.abc import Callable

from shardy_py.dialects.registry import OPS
from shardy_py.dialects.stablehlo_ops_calls import SYMBOL_USE_VERIFIERS
from shardy_py.ir.attrs import (
    MeshAttr,
    OpaqueAttr,
    PropagationEdgesAttr,
    TensorShardingAttr,
    TensorShardingPerValueAttr,
)
from shardy_py.ir.module import Module
from shardy_py.ir.ops import COLLECTIVE_OPS, Location, Operation
from shardy_py.long_ints import long_int_strings
from shardy_py.syntax.sdy_parser import embedded_sdy_attributes
from shardy_py.syntax.ssa_uses import ISOLATED_OPS
from shardy_py.verify import collectives, computations, interpreter_ops, meshes, op_attrs, simple_ops, structure
from shardy_py.verify.context import Context
from shardy_py.verify.diagnostics import Diagnostic, Failure
from shardy_py.verify.edges import verify_propagation_edges_attr
from shardy_py.verify.isolation_order import failures_by_isolated_op
from shardy_py.verify.op_shapes import OpPlan, op_key, unchanged_recipe
from shardy_py.verify.source_positions import SourcePositions

Rule = Callable[[Operation, Context], "Failure | None"]

_SAME_TYPE = frozenset({"sdy.sharding_constraint", "sdy.reshard", "sdy.data_flow_edge", "sdy.propagation_barrier",
                        "sdy.func_data_flow_edge", *COLLECTIVE_OPS})

#: Phase O, steps 2-4 (ODS, traits/interfaces, custom verify), per op name.
OP_RULES: dict[str, list[Rule]] = {}
#: Phase O, step 5 (region invariants, after the nested ops).
REGION_RULES: dict[str, list[Rule]] = {
    "sdy.manual_computation": [computations.verify_isolated_from_above],
    "sdy.named_computation": [computations.verify_isolated_from_above],
}
#: Phase S (symbol uses).
SYMBOL_RULES: dict[str, list[Rule]] = {
    "sdy.sharding_constraint": [simple_ops.verify_sharding_constraint_or_reshard],
    "sdy.reshard": [simple_ops.verify_sharding_constraint_or_reshard],
    "sdy.data_flow_edge": [simple_ops.verify_data_flow_edge],
    "sdy.func_data_flow_edge": [simple_ops.verify_func_data_flow_edge],
    "sdy.manual_computation": [computations.verify_manual_computation],
    "sdy.named_computation": [computations.verify_named_computation],
    **{name: [rule] for name, rule in collectives.SYMBOL_USE_RULES.items()},
    "func.call": [structure.verify_call],
    **{name: [rule] for name, rule in SYMBOL_USE_VERIFIERS.items()},
}


def _register() -> None:
    for name in ("sdy.sharding_group", "sdy.propagation_barrier", "sdy.data_flow_edge", "sdy.func_data_flow_edge",
                 *COLLECTIVE_OPS):
        OP_RULES.setdefault(name, []).append(simple_ops.verify_type_kinds)
    for name in _SAME_TYPE:
        OP_RULES.setdefault(name, []).append(simple_ops.verify_same_operand_and_result_type)
    OP_RULES.setdefault("sdy.mesh", []).append(meshes.verify_mesh_op_parent)
    OP_RULES.setdefault("sdy.constant", []).append(simple_ops.verify_constant)
    for name in ("sdy.manual_computation", "sdy.named_computation"):
        # (SingleBlockImplicitTerminator: a region trait, checked after the ops in the body)
        REGION_RULES[name].append(computations.verify_single_block_return)
    OP_RULES.setdefault("sdy.named_computation", []).append(computations.verify_named_computation_result_types)
    for name in COLLECTIVE_OPS:
        OP_RULES[name].append(collectives.verify_collective_interface)
    OP_RULES.setdefault("func.func", []).append(op_attrs.verify_func_arg_result_shardings)
    OP_RULES.setdefault("sdy.manual_computation", []).append(computations.verify_no_nested_manual_axes)
    OP_RULES["sdy.propagation_barrier"].append(simple_ops.verify_propagation_barrier)
    OP_RULES.setdefault("func.return", []).append(structure.verify_func_return)
    OP_RULES.setdefault("interpreter.run_parallel", []).append(interpreter_ops.verify_run_parallel)
    OP_RULES.setdefault("builtin.module", []).append(structure.verify_module_attributes)
    OP_RULES["func.func"][:0] = [structure.verify_function_declaration, structure.verify_function_attribute_names]


_register()

#: ``_Run._scan`` outcomes by attribute, shared by every ``verify`` call: they depend on the
#: attribute alone (it is immutable), so a pass pipeline verifying after each pass checks each
#: attribute once.  Emptied when it grows past ``_CACHE_LIMIT`` entries.
_ATTR_FAILURES: dict[object, Failure | None] = {}
#: Op contents whose ``sdy.sharding`` / ``sdy.sharding_rule`` attributes verified clean, per mesh
#: table (see ``_Run._content_key``), shared by every ``verify`` call like ``_ATTR_FAILURES``.
#: ``_ATTR_FAILURES`` by ``id`` of the attribute object (which the entry holds, so that the id is not
#: reused while it is there): a lookup without hashing or comparing attributes.
_ATTR_FAILURES_BY_ID: dict[int, tuple[object, Failure | None]] = {}
_CLEAN_CONTENTS: dict[tuple, dict[tuple, bool]] = {}
#: Entries a shared cache may hold from one ``verify`` call to the next (each holds attributes or op parts
#: alive: a long fuzzing session over many small modules grew past 4 GB with 1 << 18).
_CACHE_LIMIT = 1 << 15
#: (``_Run._content_key`` takes ``sdy.sharding`` and ``sdy.sharding_rule``: their verdicts depend only
#: on the op's name, operand and result types, enclosing manual axes and the module's meshes, no other
#: value's sharding.)


#: Declared ops of no regions whose own checks (counts, required attributes, the op's verifier) passed, by
#: ``op_key``: what those checks read (a property naming a symbol, whose meaning depends on the module, keeps
#: an op out).  Shared by every ``verify`` call, as ``_ATTR_FAILURES``.
_CLEAN_OPS: set = set()


def _bounded(cache: dict) -> dict:
    if len(cache) > _CACHE_LIMIT:
        cache.clear()
    return cache


class _Run:
    def __init__(self, module: Module) -> None:
        self.module = module
        #: Every op, pre-order, walked once: verification changes nothing.
        self.ops: list[Operation] = list(module.walk())
        self.ctx = Context(module, self.ops)
        self.diags: list[Diagnostic] = []
        self.failed: set[int] = set()
        self._attr_cache = _bounded(_ATTR_FAILURES)
        _bounded(_ATTR_FAILURES_BY_ID)
        meshes_key = tuple(self.ctx.meshes.items())
        self._clean_contents = _bounded(_CLEAN_CONTENTS.setdefault(meshes_key, {}))
        if len(_CLEAN_CONTENTS) > 64:  # many modules with different meshes: start afresh
            _CLEAN_CONTENTS.clear()
            self._clean_contents = _CLEAN_CONTENTS.setdefault(meshes_key, {})
        self._positions: SourcePositions | None = None
        #: id of an op -> the failure of its checks that MLIR makes after its nested ops (``AfterRegions``).
        self._after_regions: dict[int, Failure] = {}
        self._shared_maps: dict[int, tuple[object, bool]] = {}
        self._clean_shapes: dict[tuple, object] = {}
        self._plans: dict[str, OpPlan] = {}
        #: (id of a recipe, enclosing manual axes) -> the recipe, for recipes whose unchanged ops passed every
        #: check of ``_verify_op`` there; and the ``func.call`` contents that passed ``verify_call`` (``phase_s``):
        #: what only this module's symbols make clean.
        self._clean_recipes: dict[tuple, object] = {}
        #: With modules nested in the module: the meshes each module holds (by its id), for an op to see those
        #: of its nearest module only, as ``lookupNearestSymbolFrom`` does; what passed in one module says
        #: nothing of another, so nothing is remembered as clean.  None without nested modules.
        self._scopes: dict[int, dict] | None = None
        if any(op.name == "builtin.module" and op is not module.op for op in self.ops):
            self._scopes = {id(module.op): self.ctx.meshes}
            self._clean_contents = _Forgetful()
            self._clean_recipes = _Forgetful()

    def _enter_scope(self, op: Operation) -> None:
        """With nested modules: make the meshes of ``op``'s nearest enclosing module the context's."""
        if self._scopes is None:
            return
        holder = op
        while holder is not None:
            block = holder.parent
            holder = block.parent.parent if block is not None and block.parent is not None else None
            if holder is not None and holder.name == "builtin.module":
                break
        key = id(holder) if holder is not None else id(self.module.op)
        found = self._scopes.get(key)
        if found is None:
            found = self._scopes[key] = {}
            for region in holder.regions:
                for block in region.blocks:
                    for child in block.ops:
                        name, mesh = child.properties_view.get("sym_name"), child.properties_view.get("mesh")
                        if child.name == "sdy.mesh" and isinstance(name, str) and isinstance(mesh, MeshAttr):
                            found.setdefault(name, mesh)
        self.ctx.meshes = found

    def report(self, op: Operation, f: Failure) -> None:
        line, col = f.at if f.at is not None else structure.name_position(op)  # (MLIR's op location: its name)
        self.diags.append(Diagnostic(line, col, "error", f.message, f.notes))
        self.failed.add(id(op))

    # -- phase P --------------------------------------------------------------
    def _attr_failure(self, attr) -> Failure | None:
        hit = _ATTR_FAILURES_BY_ID.get(id(attr))
        if hit is not None and hit[0] is attr:
            return hit[1]
        try:
            f = self._attr_cache[attr]
            _ATTR_FAILURES_BY_ID[id(attr)] = (attr, f)
            return f
        except KeyError:
            pass
        except TypeError:  # unhashable container
            return self._scan(attr)
        f = self._scan(attr)
        self._attr_cache[attr] = f
        _ATTR_FAILURES_BY_ID[id(attr)] = (attr, f)
        return f

    def _scan(self, attr) -> Failure | None:
        if isinstance(attr, MeshAttr):
            return meshes.verify_mesh_attr(attr)
        if isinstance(attr, TensorShardingAttr):
            return self._attr_failure(attr.mesh_or_ref) if isinstance(attr.mesh_or_ref, MeshAttr) else None
        if isinstance(attr, TensorShardingPerValueAttr):
            return self._scan_all(attr.shardings)
        if isinstance(attr, PropagationEdgesAttr):
            return verify_propagation_edges_attr(attr)
        if isinstance(attr, OpaqueAttr) and "#sdy" in attr.text:  # e.g. [#sdy.propagation_edges<...>, ...]
            return self._scan_all(embedded_sdy_attributes(attr.text))
        if isinstance(attr, (list, tuple)):
            return self._scan_all(attr)
        if isinstance(attr, dict):
            return self._scan_all(attr.values())
        return None

    def _scan_all(self, items) -> Failure | None:
        for x in items:
            if isinstance(x, (str, int, float, bool)) or x is None:
                continue
            f = self._attr_failure(x)
            if f:
                return f
        return None

    def _scan_op_attributes(self, op: Operation) -> Failure | None:
        """The first parse-time failure among ``op``'s attributes, placed where Shardy reports it:
        at the failing sdy attribute (the ``index``-th one written in the value), else at the name."""
        for name, attr in op.attributes_view.items():
            f = self._attr_failure(attr)
            if f is None:
                continue
            loc = op.attribute_locs.get(name) if op.attribute_locs else None
            if loc is None:
                return f
            units = embedded_sdy_attributes(attr.text) if isinstance(attr, OpaqueAttr) else (attr,)
            index = next((k for k, unit in enumerate(units) if unit is not None and self._attr_failure(unit)), 0)
            mesh, axis = meshes.failing_mesh_place(units[index], self._attr_failure) if index < len(units) \
                else (-1, -1)
            at = self.positions().sdy_attribute(loc, name, index, mesh, axis) or (loc.line, loc.column)
            return Failure(f.message, f.notes, at)
        return None

    def positions(self) -> SourcePositions:
        if self._positions is None:
            self._positions = SourcePositions(self.module)
        return self._positions

    def _signature_failure(self, op: Operation, f: Failure) -> Failure:
        """``f``, a failure of an sdy attribute of a function's arguments or results, placed where MLIR's
        parser meets it: at the attribute written in the signature (its failing inline mesh)."""
        def failing_mesh(text: str) -> tuple[int, int] | None:
            unit = embedded_sdy_attributes(text)[0]
            if unit is None or self._attr_failure(unit) is None:
                return None
            return meshes.failing_mesh_place(unit, self._attr_failure)

        body = op.regions[0].blocks[0].ops if op.regions and op.regions[0].blocks else []
        at = self.positions().first_failing(op.loc, body[0].loc if body else None, failing_mesh) \
            if op.loc is not None else None
        return Failure(f.message, f.notes, at) if at is not None else f

    def _shared_map_clean(self, mapping) -> bool:
        """Is ``mapping``, shared by the ops of one shape (not a dict of one op), known to hold no failing
        attribute?  Each shared mapping is scanned once, not once per op."""
        if type(mapping) is dict:
            return False
        hit = self._shared_maps.get(id(mapping))
        if hit is None:
            hit = self._shared_maps[id(mapping)] = (mapping, self._scan_all(mapping.values()) is None)
        return hit[1]

    def phase_p(self) -> None:
        shared = self._shared_maps  # (``_shared_map_clean``'s memory, read here first: this runs for every op)
        for op in self.ops:
            f = None
            props = op._property_map  # (``properties_view``)
            if props:
                hit = shared.get(id(props))
                if not (hit[1] if hit is not None else self._shared_map_clean(props)):
                    f = self._scan_all(props.values())
                    if f is not None and f.at is None and op.name != "func.func":
                        f = meshes.place_property_failure(op, f, self.positions(), self._attr_failure)
            attrs_ = op._attribute_map  # (``attributes_view``)
            if f is None and attrs_:
                hit = shared.get(id(attrs_))
                if not (hit[1] if hit is not None else self._shared_map_clean(attrs_)):
                    f = self._scan_op_attributes(op)
            if f is None and op.name == "func.func" and op.regions and op.regions[0].blocks:
                f = self._scan_all(a.attributes for a in op.regions[0].blocks[0].arguments)
            if f is not None and op.name == "func.func" and f.at is None:
                f = self._signature_failure(op, f)
            if f is not None:
                self.report(op, f)

    # -- phase O --------------------------------------------------------------
    def phase_o(self, root: Operation) -> None:
        """Every op, in the order of MLIR's verifier (``OperationVerifier::verifyOperation``): an op on
        entry, its nested ops, then on exit its blocks' terminators, its nested isolated ops (functions,
        computations: each whole, then the dominance of its uses), its region invariants (isolation);
        the module's symbol table last."""
        self._isolated_ssa = failures_by_isolated_op(self.module.ssa_failures)
        self._verify_isolated(root)
        self._enter_scope(root)
        for op, f in meshes.verify_unique_symbols(root, self.ctx):
            self.report(op, f)

    def _verify_isolated(self, top: Operation) -> None:
        # Iterative walk; an isolated op nested in a block waits for the exit of the op that holds it.  The stack
        # holds an op to leave (after its regions), or a block being walked: (block, iterator over its ops left).
        stack: list = []
        self._verify_op(top)
        if top.regions:
            self._open(top, stack)
        else:
            self._regionless_invariants(top)
        verify_op, plans = self._verify_op, self._plans
        while stack:
            item = stack[-1]
            if type(item) is Operation:
                stack.pop()
                self._leave(item)
                continue
            block, ops = item
            for child in ops:
                if child.regions:
                    if child.name in ISOLATED_OPS:
                        continue  # (verified whole on leaving the op that holds it: ``_leave``)
                    verify_op(child)
                    self._open(child, stack)
                    break  # (its regions first; this block's other ops after them)
                verify_op(child)  # (which made its plan)
                if self._after_regions or plans[child.name].verify_regions:
                    self._region_invariants(child)  # (an op without regions has them checked all the same)
            else:  # (its terminator, after its ops: MLIR's verifyOnExit(Block))
                stack.pop()
                holder = block.parent.parent
                f = structure.verify_block_terminator(holder, block) if id(holder) not in self.failed else None
                if f is not None:
                    self.report(holder, f)
        self._ssa_findings(top, "dominance")

    @staticmethod
    def _open(op: Operation, stack: list) -> None:
        """Push ``op`` to leave after its blocks, and its blocks to walk, the first on top."""
        stack.append(op)
        for region in reversed(op.regions):
            for block in reversed(region.blocks):
                stack.append((block, iter(block.ops)))

    def _regionless_invariants(self, op: Operation) -> None:
        if self._after_regions or self._plan(op.name).verify_regions:
            self._region_invariants(op)

    def _leave(self, op: Operation) -> None:
        self._enter_scope(op)
        for region in op.regions:
            for block in region.blocks:
                for child in block.ops:
                    if child.regions and child.name in ISOLATED_OPS:
                        self._verify_isolated(child)
        if id(op) not in self.failed and not self._run(op, REGION_RULES.get(op.name)):
            self._region_invariants(op)
        self._ssa_findings(op, "isolation")

    def _region_invariants(self, op: Operation) -> None:
        """The checks of a declared op that MLIR makes after its nested ops (``verifyRegionInvariants``)."""
        if id(op) in self._after_regions:
            self.report(op, self._after_regions.pop(id(op)))
            return
        decl = OPS.get(op.name)
        if decl is not None and decl.verify_regions is not None and id(op) not in self.failed:
            f = decl.verify_regions(op, self.ctx)
            if f is not None and not computations.uses_value_from_outside_isolated_region(op, REGION_RULES):
                self.report(op, f)

    def _ssa_findings(self, op: Operation, kind: str) -> None:
        """The parser's findings of ``kind`` on uses whose innermost isolated op is ``op``."""
        for line, col, message, k in self._isolated_ssa.get(id(op), ()):
            if k == kind:
                self.diags.append(Diagnostic(line, col, "error", message))

    def _run(self, op: Operation, rules) -> bool:
        if not rules:
            return False
        for rule in rules:
            f = rule(op, self.ctx)
            if f is not None:
                self.report(op, f)
                return True
        return False

    def _plan(self, name: str) -> OpPlan:
        plan = self._plans.get(name)
        if plan is None:
            plan = self._plans[name] = OpPlan(name, OP_RULES)
        return plan

    def _verify_op(self, op: Operation) -> None:
        if self._scopes is not None:
            self._enter_scope(op)
        plan = self._plans.get(op.name) or self._plan(op.name)
        attrs_ = op._attribute_map  # (``attributes_view``)
        recipe = seen = None
        if op._deferred is not None and plan.by_recipe:
            recipe = unchanged_recipe(op)
            if recipe is not None:  # (built from the recipe of an op of its shape, unchanged since)
                seen = (id(recipe), tuple(self.ctx.enclosing_manual_axes(op)) if attrs_ else ())
                if self._clean_recipes.get(seen) is recipe:
                    return  # (its ops read alike to every check here, in the same manual axes)
        if attrs_:
            if type(attrs_) is dict:
                f = self._content_discardable_attrs(op, attrs_)
            else:
                f = self._shared_discardable_attrs(op, attrs_)
            if f is not None:
                self.report(op, f)
                return
        decl = plan.decl
        key = None
        if recipe is None and plan.by_key and not op.regions:
            key = op_key(op)
            if key is not None and key in _CLEAN_OPS:
                return  # (an op alike to one judged clean: its own checks read nothing else)
        if plan.structural:  # (builtin, func, sdy ops: their parsers give their parts)
            f = structure.verify_arity(op, decl) or (
                structure.verify_single_block(op) if plan.single_block else None) or \
                structure.verify_required_attributes(op, decl) or (
                structure.verify_sized_regions(op, decl) if plan.sized_regions else None)
            if f is not None:
                self.report(op, f)
                return
        elif plan.sdy_single_block:  # (sdy's computations: before their rules)
            f = structure.verify_single_block(op)
            if f is not None:
                self.report(op, f)
                return
        if plan.terminator:
            f = structure.verify_terminator_is_last(op)
            if f is not None:
                self.report(op, f)
                return
        if plan.rules and self._run(op, plan.rules):
            return
        if decl is not None and decl.verify is not None:
            f = decl.verify(op, self.ctx)
            if f is not None and not computations.uses_value_from_outside_isolated_region(op, REGION_RULES):
                if getattr(f, "after_regions", False) and op.regions:
                    self._after_regions[id(op)] = f  # (MLIR finds it after the nested ops: ``_region_invariants``)
                else:
                    self.report(op, f)
                return
        if recipe is not None:
            # (holds it, so that its id is not reused; kept for this run only, so a property naming a symbol may be
            # there: the symbol means the same for every op of one module, and nested modules keep nothing)
            self._clean_recipes[seen] = recipe
        elif key is not None and not any("@" in str(v) for v in op.properties_view.values()):
            if len(_CLEAN_OPS) >= _CACHE_LIMIT:
                _CLEAN_OPS.clear()
            _CLEAN_OPS.add(key)

    def _shared_discardable_attrs(self, op: Operation, attrs_) -> Failure | None:
        """``verify_discardable_attrs`` for an op whose attributes are shared with the other ops of its shape:
        once per shape, types and manual axes that pass (failures are checked per op, for their messages)."""
        key = (id(attrs_), op.name, tuple(v.type if v is not None else None for v in op.operands),
               tuple(op.operand_types_view), tuple(r.type for r in op.results),
               tuple(self.ctx.enclosing_manual_axes(op)))
        try:
            hit = self._clean_shapes.get(key)
        except TypeError:  # an unhashable type
            return op_attrs.verify_discardable_attrs(op, self.ctx)
        if hit is not None:
            return None
        f = op_attrs.verify_discardable_attrs(op, self.ctx)
        if f is None:
            self._clean_shapes[key] = attrs_  # (holds the mapping, so that its id is not reused)
        return f

    def _content_key(self, op: Operation, attrs_: dict) -> tuple | None:
        """What ``verify_discardable_attrs`` depends on for an op whose ``sdy.*`` attributes are
        ``sdy.sharding`` and ``sdy.sharding_rule`` (None otherwise; ``()`` when it has none): its name,
        result types, those attributes, the enclosing manual axes and, with a sharding rule, its
        operand types (the meshes key the cache itself)."""
        sharding = rule = None
        for name in attrs_:
            if name.startswith("sdy."):
                if name == "sdy.sharding":
                    sharding = attrs_[name]
                elif name == "sdy.sharding_rule":
                    rule = attrs_[name]
                else:
                    return None
        if sharding is None and rule is None:
            return ()
        results = tuple([r.type for r in op.results])
        manual = tuple(self.ctx.enclosing_manual_axes(op))
        if rule is None:
            return (op.name, sharding, results, manual)
        return (op.name, sharding, results, manual, rule,
                tuple([v.type if v is not None else None for v in op.operands]), tuple(op.operand_types_view))

    def _content_discardable_attrs(self, op: Operation, attrs_: dict) -> Failure | None:
        """``verify_discardable_attrs`` for an op with attributes of its own: once per content (see
        ``_content_key``) that passes; failures are checked per op, for their messages."""
        key = self._content_key(op, attrs_)
        if key == ():
            return None  # no sdy attribute: nothing to check
        if key is None:
            return op_attrs.verify_discardable_attrs(op, self.ctx)
        try:
            if key in self._clean_contents:
                return None
        except TypeError:  # an unhashable type or attribute
            return op_attrs.verify_discardable_attrs(op, self.ctx)
        f = op_attrs.verify_discardable_attrs(op, self.ctx)
        if f is None:
            self._clean_contents[key] = True
        return f

    # -- phase S --------------------------------------------------------------
    def phase_s(self, root: Operation) -> None:
        for op in (self.ops if root is self.module.op else root.walk()):
            rules = SYMBOL_RULES.get(op.name)
            if rules and id(op) not in self.failed:
                self._enter_scope(op)
                if op.name == "sdy.manual_computation":
                    self._run_by_content(op, rules, ("mc", computations.manual_computation_key(op, self.ctx)))
                elif op.name in collectives.SYMBOL_USE_RULES:
                    self._run_by_content(op, rules, self._collective_key(op))
                elif op.name == "func.call":  # (what ``verify_call`` reads but the module's functions: this run only)
                    self._run_by_content(op, rules, (op.properties_view.get("callee"),
                                                     tuple([v.type if v is not None else None for v in op.operands]),
                                                     tuple([r.type for r in op.results])), self._clean_recipes)
                else:
                    self._run(op, rules)

    def _collective_key(self, op: Operation) -> tuple:
        """What a collective's symbol-use rules (``collectives.SYMBOL_USE_RULES``) read but the meshes:
        its name, properties and result types, its operand's sharding and type."""
        operand = op.operands[0] if op.operands else None
        return ("collective", op.name, tuple(op.properties_view.items()), self.ctx.sharding_of(operand),
                operand.type if operand is not None else None, tuple([r.type for r in op.results]))

    def _run_by_content(self, op: Operation, rules, key: tuple, clean: dict | None = None) -> None:
        """``_run`` once per ``key`` (everything the rules read but the meshes) that passes (remembered in
        ``clean``, by default the cache shared by the runs over the same meshes)."""
        clean = self._clean_contents if clean is None else clean
        try:
            if key in clean:
                return
        except TypeError:  # an unhashable part
            self._run(op, rules)
            return
        if not self._run(op, rules):
            clean[key] = True


class _Forgetful(dict):
    """A cache that keeps nothing."""

    def __setitem__(self, key, value) -> None:
        pass


def verify(module: Module) -> list[Diagnostic]:
    """Check ``module`` against every documented Shardy constraint.

    Returns the diagnostics in the order Shardy finds errors (parse-time attribute checks,
    then ops in pre-order, then symbol uses), so the first one is the error the C++
    verifier would stop at; empty when the module is valid.
    """
    run = _Run(module)
    enabled = gc.isenabled()
    gc.disable()  # verification allocates little that is cyclic; full collections over a big module cost more
    with long_int_strings():
        return _verify_run(run, enabled)


def _verify_run(run: _Run, enabled: bool) -> list[Diagnostic]:
    try:
        run.phase_p()
        if not run.diags:
            run.phase_o(run.module.op)
            run.phase_s(run.module.op)
    finally:
        if enabled:
            gc.enable()
    return list(run.diags)


__all__ = ["verify", "OP_RULES", "REGION_RULES", "SYMBOL_RULES", "Location"]
