"""``module_texts()`` and ``modules()``: whole small modules, valid by construction."""
from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from shardy_py.strategies.collective_ops import CollectiveOps
from shardy_py.strategies.region_ops import RegionOps
from shardy_py.strategies.render import Op, Val, number, ref, render, types_of
from shardy_py.strategies.simple_ops import SimpleOps


class Builder(SimpleOps, RegionOps, CollectiveOps):
    """Draws one module: meshes, then a function whose body mixes every op kind."""


def _func_arg_text(v: Val, sharding) -> str:
    return v.type if sharding is None else f"{v.type} {{sdy.sharding = {sharding}}}"


def build(draw, max_ops: int, extra: Val | None = None,
          reductions: Sequence[str] = ("sum",)) -> tuple[list[str], Builder, list[Val]]:
    """The module's lines (without the ``module {`` wrapper); also the builder and func args.

    ``extra`` is appended to the func arguments (with its ``sharding``) but used by no op.
    """
    b = Builder(draw, max_ops, reductions)
    b.draw_meshes()
    args = []
    for _ in range(draw(st.integers(1, 3))):
        dims, elem = b.new_type()
        args.append(b.sharded(dims, elem) if draw(st.booleans()) else Val(dims, elem))
    avail = list(args)
    ops = b.body(avail, (), 0, draw(st.integers(1, max_ops)))
    rets = draw(st.lists(st.sampled_from(avail), min_size=1, max_size=3))
    res_sh = [b.sharding(len(r.dims)) if draw(st.booleans()) else None for r in rets]
    ret = Op([], "return " + ", ".join(ref(i) for i in range(len(rets))) + f" : {types_of(rets)}", rets)
    if extra is not None:
        args.append(extra)
    number(args, ops + [ret], 0, 0)
    arg_txt = ", ".join(f"{a.name}: " + _func_arg_text(a, a.sharding) for a in args)
    res_parts = [_func_arg_text(r, s) for r, s in zip(rets, res_sh, strict=True)]
    res_txt = res_parts[0] if len(rets) == 1 and res_sh[0] is None else "(" + ", ".join(res_parts) + ")"
    lines = list(b.mesh_lines)
    lines.append(f"func.func @main({arg_txt}) -> {res_txt} {{")
    render(ops + [ret], "  ", lines)
    lines.append("}")
    return lines, b, args


@st.composite
def module_texts(draw, *, max_ops: int = 6, reductions: Sequence[str] = ("sum",)) -> str:
    """MLIR text of a module valid by construction (see the package docstring).

    ``reductions`` are the reduction kinds drawn for unreduced axes, ``sdy.all_reduce`` and
    ``sdy.reduce_scatter``: ``("sum",)`` (what jaxlib 0.10.2's Shardy knows) or a superset,
    e.g. ``strategies.REDUCTIONS``.
    """
    lines, _, _ = build(draw, max_ops, reductions=reductions)
    return "\n".join(lines) + "\n"


@st.composite
def modules(draw, *, max_ops: int = 6, reductions: Sequence[str] = ("sum",)):
    """A ``Module``: ``shardy_py.parse`` of a drawn ``module_texts()`` (text in ``.source``)."""
    from shardy_py.syntax.parser import parse_module

    return parse_module(draw(module_texts(max_ops=max_ops, reductions=reductions)))
