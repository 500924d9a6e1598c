"""Drawn ops without regions: stablehlo ops carrying sdy attributes, ``sdy.sharding_constraint``,
``sdy.reshard``, ``sdy.propagation_barrier``, ``sdy.sharding_group``, ``sdy.data_flow_edge`` and
``sdy.constant``."""
from __future__ import annotations

import math
from collections.abc import Sequence

from hypothesis import strategies as st

from shardy_py.ir.attrs import EdgeValueRefAttr, TensorShardingAttr
from shardy_py.strategies.attributes import op_sharding_rules, propagation_edges
from shardy_py.strategies.builder import BuilderBase
from shardy_py.strategies.render import Op, Val, attr_dict, function_type, ref, refs
from shardy_py.syntax.attr_printer import op_sharding_rule_body, sharding_body, symbol_ref

#: Values of drawn float constants: exact in bf16, printed by MLIR as ``%.6e`` would.
_FLOATS = (0.0, 1.0, -2.5, 0.5, 3.0, 1024.0, -0.125)


def per_value(shardings: Sequence[TensorShardingAttr]) -> str:
    """``sdy.sharding = #sdy.sharding_per_value<[...]>`` for one sharding per result."""
    return "sdy.sharding = #sdy.sharding_per_value<[" + ", ".join(map(sharding_body, shardings)) + "]>"


def _dense_literal(values: list, dims: tuple[int, ...]) -> str:
    """Nested ``[..]`` of ``values`` (row-major) for a tensor of shape ``dims``."""
    if len(dims) <= 1:
        return "[" + ", ".join(values) + "]"
    step = len(values) // dims[0]
    return "[" + ", ".join(_dense_literal(values[i * step:(i + 1) * step], dims[1:]) for i in range(dims[0])) + "]"


class SimpleOps(BuilderBase):
    """Region-free op kinds of the module builder."""

    def op_elementwise(self, avail: list[Val], exclude, depth) -> Op:
        """A binary stablehlo op, maybe with ``sdy.sharding``, ``sdy.sharding_rule`` and
        ``sdy.propagation_edges`` (on the result's mesh, referencing only values on that mesh)."""
        draw = self.draw
        a = draw(st.sampled_from(avail))
        b = draw(st.sampled_from([v for v in avail if v.dims == a.dims and v.elem == a.elem]))
        name = draw(st.sampled_from(["add", "multiply", "maximum", "subtract"]))
        entries: list[str] = []
        res = Val(a.dims, a.elem)
        if draw(st.booleans()):
            res = self.sharded(a.dims, a.elem, exclude)
            entries.append(per_value([res.sharding]))
        if a.dims and draw(st.integers(0, 2)) == 0:
            rule = draw(op_sharding_rules((len(a.dims), len(a.dims)), (len(a.dims),)))
            entries.append(f"sdy.sharding_rule = #sdy.op_sharding_rule{op_sharding_rule_body(rule)}")
        if res.mesh is not None and res.mesh.axes and draw(st.integers(0, 2)) == 0:
            result = EdgeValueRefAttr("result", 0)
            on_mesh = [EdgeValueRefAttr("operand", i) for i, v in enumerate((a, b))
                       if v.sharding is None or v.mesh == res.mesh or v.mesh.is_empty]
            if on_mesh:
                edges = draw(propagation_edges(res.mesh, value_refs=[result, *on_mesh], required=result))
                entries.append(f"sdy.propagation_edges = {edges}")
        return Op([res], f"stablehlo.{name} {ref(0)}, {ref(1)}{attr_dict(entries)} : {a.type}", [a, b])

    def op_unary(self, avail: list[Val], exclude, depth) -> Op:
        """A unary stablehlo op without sdy attributes."""
        a = self.draw(st.sampled_from([v for v in avail if v.elem != "i32"] or avail))
        name = "negate" if a.elem == "i32" else self.draw(st.sampled_from(["negate", "abs", "exponential"]))
        return Op([Val(a.dims, a.elem)], f"stablehlo.{name} {ref(0)} : {a.type}", [a])

    def op_barrier_or_group(self, avail: list[Val], exclude, depth) -> Op:
        """``sdy.sharding_group``, or a ``sdy.propagation_barrier`` in any allowed direction,
        sometimes with its own ``sdy.sharding`` (which C13 looks past)."""
        draw = self.draw
        a = draw(st.sampled_from(avail))
        if draw(st.booleans()):
            return Op([], f"sdy.sharding_group {ref(0)} group_id={draw(st.integers(0, 2**40))} : {a.type}", [a])
        direction = draw(st.sampled_from(["NONE", "FORWARD", "BACKWARD"]))
        res = Val(a.dims, a.elem)
        entries = []
        if draw(st.integers(0, 2)) == 0:
            res = self.sharded(a.dims, a.elem, exclude)
            entries.append(per_value([res.sharding]))
        res.through = a
        text = f"sdy.propagation_barrier {ref(0)} allowed_direction={direction}{attr_dict(entries)} : {a.type}"
        return Op([res], text, [a])

    def op_custom_call(self, avail: list[Val], exclude, depth) -> Op:
        """``stablehlo.custom_call`` with one or two results, a sharding rule and maybe shardings."""
        draw = self.draw
        ins = draw(st.lists(st.sampled_from(avail), min_size=1, max_size=2))
        outs = [Val(*self.new_type()) for _ in range(draw(st.integers(1, 2)))]
        entries = []
        if any(v.dims for v in ins):
            rule = draw(op_sharding_rules([len(v.dims) for v in ins], [len(v.dims) for v in outs]))
            entries.append(f"sdy.sharding_rule = #sdy.op_sharding_rule{op_sharding_rule_body(rule)}")
        if draw(st.booleans()):
            outs = [self.sharded(v.dims, v.elem, exclude) for v in outs]
            entries.append(per_value([v.sharding for v in outs]))
        target = draw(st.sampled_from(["foo", "Sharding", "my.target"]))
        return Op(outs, f"stablehlo.custom_call {symbol_ref(target)}({refs(len(ins))}){attr_dict(entries)} : "
                        f"{function_type(ins, outs)}", ins)

    def op_constraint(self, avail: list[Val], exclude, depth, opname: str = "sharding_constraint") -> Op:
        """``sdy.sharding_constraint`` (or ``sdy.reshard``) with an allowed unreduced transition."""
        a = self.draw(st.sampled_from(avail))
        s = self.sharding(len(a.dims), exclude)
        mesh = self.resolve(s)
        s = self.fit_transition(s, mesh, a)
        return Op([Val(a.dims, a.elem, s, mesh)], f"sdy.{opname} {ref(0)} {sharding_body(s)} : {a.type}", [a])

    def op_reshard(self, avail: list[Val], exclude, depth) -> Op:
        """``sdy.reshard``, drawn like a sharding constraint."""
        return self.op_constraint(avail, exclude, depth, "reshard")

    def op_data_flow_edge(self, avail: list[Val], exclude, depth) -> Op | None:
        """``sdy.data_flow_edge`` on a value nothing else uses (C32) that no sdy op defined
        (C33); the value leaves scope.  Maybe with a sharding and propagation edges."""
        draw = self.draw
        cands = [v for v in avail if v.uses == 0 and not v.sdy_defined]
        if not cands:
            return None
        v = draw(st.sampled_from(cands))
        avail.remove(v)
        res = Val(v.dims, v.elem)
        text = f"sdy.data_flow_edge {ref(0)}"
        entries = []
        if draw(st.booleans()):
            res = self.sharded(v.dims, v.elem, exclude)
            text += f" sharding={sharding_body(res.sharding)}"
            # operand-0 of the edges is the edge's data-flow source (jaxlib 0.12): only a named/manual
            # computation's body argument or result has one, and it must not be on another mesh
            src = v.flow_source
            same_mesh = src is not None and (src.sharding is None or src.mesh == res.mesh or src.mesh.is_empty)
            if res.mesh.axes and same_mesh and draw(st.integers(0, 2)) == 0:
                edges = draw(propagation_edges(res.mesh, 1, 1))
                entries.append(f"sdy.propagation_edges = {edges}")
        return Op([res], f"{text}{attr_dict(entries)} : {v.type}", [v])

    def op_constant(self, avail: list[Val], exclude, depth) -> Op:
        """``sdy.constant`` with a splat or (small tensors) an element-wise literal, maybe sharded."""
        draw = self.draw
        dims, elem = self.new_type()
        n = math.prod(dims)
        if elem == "i32":
            values = [str(k) for k in draw(st.lists(st.integers(-2**31, 2**31 - 1), min_size=n, max_size=n,
                                                    unique=True))] if 2 <= n <= 32 else []
            splat = str(draw(st.integers(-2**31, 2**31 - 1)))
        else:
            values = [f"{k * 0.5:.6e}" for k in draw(st.permutations(list(range(n))))] if 2 <= n <= 32 else []
            splat = f"{draw(st.sampled_from(_FLOATS)):.6e}"
        literal = _dense_literal(values, dims) if values and len(dims) <= 2 and draw(st.booleans()) else splat
        res = Val(dims, elem)
        entries = []
        if draw(st.booleans()):
            res = self.sharded(dims, elem, exclude)
            entries.append(per_value([res.sharding]))
        return Op([res], f"sdy.constant{attr_dict(entries)} dense<{literal}> : {res.type}", [])
