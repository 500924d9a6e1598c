"""Drawn ops with a region: ``sdy.named_computation`` and ``sdy.manual_computation``."""
from __future__ import annotations

from collections.abc import Sequence

import attrs
from hypothesis import strategies as st

from shardy_py.ir.attrs import AxisRefAttr, MeshAttr, TensorShardingAttr
from shardy_py.strategies.attributes import propagation_edges, tensor_shardings
from shardy_py.strategies.builder import BuilderBase
from shardy_py.strategies.render import Op, Val, attr_dict, function_type, refs, types_of
from shardy_py.syntax.attr_printer import quote_string, sharding_body
from shardy_py.verify.axes import mesh_sort_key

_EDGE_LIST_ATTRS = ("sdy.block_arg_propagation_edges", "sdy.result_propagation_edges")


def _shardings_list(shardings: Sequence[TensorShardingAttr]) -> str:
    return "[" + ", ".join(map(sharding_body, shardings)) + "]"


class RegionOps(BuilderBase):
    """Op kinds with a body region of the module builder."""

    def ret(self, vals: list[Val]) -> Op:
        """The ``sdy.return`` ending a region."""
        if not vals:
            return Op([], "sdy.return", [])
        return Op([], f"sdy.return {refs(len(vals))} : {types_of(vals)}", vals)

    def edge_lists(self, n_operands: int, n_results: int) -> str:
        """Maybe a `` {sdy.block_arg_propagation_edges = [...], ...}`` dictionary (C10)."""
        draw = self.draw
        meshes = [m for m in self.meshes.values() if m.axes]
        if not meshes or n_operands + n_results < 2 or draw(st.integers(0, 3)):
            return ""
        mesh = draw(st.sampled_from(meshes))
        entries = []
        for name in draw(st.lists(st.sampled_from(_EDGE_LIST_ATTRS), min_size=1, unique=True)):
            edges = draw(st.lists(propagation_edges(mesh, n_operands, n_results), min_size=1, max_size=2))
            entries.append(f"{name} = [" + ", ".join(map(str, edges)) + "]")
        return attr_dict(entries)

    def op_named(self, avail: list[Val], exclude, depth) -> Op:
        """``sdy.named_computation`` with optional in/out shardings and edge-list attributes."""
        draw = self.draw
        ins = draw(st.lists(st.sampled_from(avail), min_size=0, max_size=2))
        args = [Val(v.dims, v.elem) for v in ins]
        in_sh = out_sh = None
        if ins and draw(st.booleans()):
            args = [self.sharded(v.dims, v.elem, exclude) for v in ins]
            in_sh = [a.sharding for a in args]
        for arg, v in zip(args, ins, strict=True):
            arg.flow_source = v
        inner = list(args)
        n_inner = draw(st.integers(0, 2)) if inner else 0
        region = self.body(inner, exclude, depth + 1, n_inner) if inner else []
        rets = draw(st.lists(st.sampled_from(inner), min_size=1, max_size=2)) if inner else []
        outs = [Val(v.dims, v.elem) for v in rets]
        if outs and draw(st.booleans()):
            outs = [self.sharded(v.dims, v.elem, exclude) for v in rets]
            out_sh = [v.sharding for v in outs]
        for out, v in zip(outs, rets, strict=True):
            out.flow_source = v
        self.nc_count += 1
        name = draw(st.sampled_from(["foo", "bar", "body_fn", "a b", 'q"x'])) + str(self.nc_count)
        text = f"sdy.named_computation<{quote_string(name)}>({refs(len(ins))})"
        if in_sh is not None:
            text += " in_shardings=" + _shardings_list(in_sh)
        if out_sh is not None:
            text += " out_shardings=" + _shardings_list(out_sh)
        region.append(self.ret(rets))
        tail = f"{self.edge_lists(len(ins), len(outs))} : {function_type(ins, outs)}"
        return Op(outs, text, list(ins), args, region, tail)

    def manual_sharding(self, ref: str, mesh: MeshAttr, manual: list[str], local: tuple[int, ...] | None,
                        glob: tuple[int, ...] | None, exclude: Sequence[str]) -> tuple[TensorShardingAttr, tuple]:
        """A sharding putting some manual axes (outermost) in dims; returns it with the other side's shape.

        Exactly one of ``local``/``glob`` is given; a manual axis only goes to a dim it divides
        (global side).
        """
        draw = self.draw
        rank = len(local if local is not None else glob)
        free = draw(tensor_shardings(mesh, rank, mesh_ref=ref, exclude_axes=list(exclude) + manual,
                                     reductions=self.reductions))
        dims_man: list[list[AxisRefAttr]] = [[] for _ in range(rank)]
        factor = [1] * rank
        rep_man: list[AxisRefAttr] = []
        for name in manual:
            size = mesh.axis_size(name)
            where = draw(st.integers(-1, rank))
            if 0 <= where < rank and (glob is None or glob[where] % (factor[where] * size) == 0):
                dims_man[where].append(AxisRefAttr(name))
                factor[where] *= size
            elif where == rank:
                rep_man.append(AxisRefAttr(name))
        dims = tuple(attrs.evolve(d, axes=tuple(dims_man[i]) + d.axes,
                                  priority=d.priority if (d.axes or dims_man[i] or d.is_open) else None)
                     for i, d in enumerate(free.dim_shardings))
        rep = tuple(sorted(free.replicated_axes + tuple(rep_man), key=mesh_sort_key(mesh)))
        s = attrs.evolve(free, dim_shardings=dims, replicated_axes=rep)
        if local is not None:
            other = tuple(x * f for x, f in zip(local, factor, strict=True))
        else:
            other = tuple(x // f for x, f in zip(glob, factor, strict=True))
        return s, other

    def op_manual(self, avail: list[Val], exclude, depth) -> Op | None:
        """``sdy.manual_computation`` over some free axes of a mesh, with local types to match."""
        draw = self.draw
        cands = [(n, m) for n, m in self.meshes.items() if m.axes]
        if not cands:
            return None
        ref, mesh = draw(st.sampled_from(cands))
        free_axes = [a.name for a in mesh.axes if a.name not in exclude]
        manual = draw(st.lists(st.sampled_from(free_axes), unique=True, max_size=len(free_axes))) if free_axes else []
        manual = [a.name for a in mesh.axes if a.name in manual]  # mesh order (not required, but typical)
        ins = draw(st.lists(st.sampled_from(avail), min_size=0, max_size=2))
        in_sh, args = [], []
        for v in ins:
            s, local = self.manual_sharding(ref, mesh, manual, None, v.dims, exclude)
            in_sh.append(s)
            sub = attrs.evolve(s, dim_shardings=tuple(
                attrs.evolve(d, axes=tuple(a for a in d.axes if a.name not in manual)) for d in s.dim_shardings),
                replicated_axes=tuple(a for a in s.replicated_axes if a.name not in manual))
            args.append(Val(local, v.elem, sub, mesh, flow_source=v))
        inner_excl = list(exclude) + manual
        inner = list(args)
        region = self.body(inner, inner_excl, depth + 1, draw(st.integers(0, 2))) if inner else []
        rets = draw(st.lists(st.sampled_from(inner), min_size=0, max_size=2)) if inner else []
        out_sh, outs = [], []
        for v in rets:
            s, glob = self.manual_sharding(ref, mesh, manual, v.dims, None, exclude)
            out_sh.append(s)
            outs.append(Val(glob, v.elem, s, mesh))
        for out, v in zip(outs, rets, strict=True):
            out.flow_source = v
        text = (f"sdy.manual_computation({refs(len(ins))}) in_shardings={_shardings_list(in_sh)} "
                f"out_shardings={_shardings_list(out_sh)} manual_axes={{"
                + ", ".join(quote_string(m) for m in manual) + "}")
        region.append(self.ret(rets))
        return Op(outs, text, list(ins), args, region, f" : {function_type(ins, outs)}")
