"""Drawn modules for differential tests of sharding propagation (``propagation_module_texts()``).

Where ``module_texts()`` aims at the verifier (odd custom ops, inline meshes, every sdy op), these
modules aim at propagation: a ``@main`` func of StableHLO ops whose sharding rules matter
(elementwise, ``dot_general`` with batching and contracting dims, ``transpose``, ``reshape``
splitting and merging dims, ``broadcast_in_dim``, ``reduce``, ``concatenate``, ``slice``,
``dynamic_slice``, ``pad``, ``iota``, a ``while`` whose body may constrain the carried value,
``optimization_barrier``, ``case``), ``sdy.sharding_constraint``, ``sdy.reshard``, sometimes an
``sdy.manual_computation`` (maybe constraining free axes in its body), an ``sdy.sharding_group``
or a ``func.call`` of a private callee; one or two symbol meshes of one to three axes (sizes 2, 4,
8, rarely 1; sometimes explicit device ids, a twin mesh, an empty or a maximal mesh); user
shardings on some arguments, results, ops and constraints, with open and closed dims, replicated
axes, sub-axes and per-dimension priorities, and most ops left unsharded.  Dim sizes are mostly
powers of two (so shardings divide them) but not always.

Every module is valid by construction and avoids what the C++ propagation cannot run (inline
meshes, a value in two sharding groups, dead ops: every value is used or returned).  The text is
in MLIR's printed form (``str(shardy_py.parse(text))`` of the drawn text).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from hypothesis import strategies as st

from shardy_py.syntax.parser import parse_module

#: Dim sizes: mostly powers of two, some that 2/4/8-sized axes do not divide.
_SIZES = (2, 4, 8, 16, 8, 4, 16, 32, 3, 6, 12, 5)
#: Sub-axes ``(pre-size, size)`` of an axis of a given size.
_SUB_AXES = {4: [(1, 2), (2, 2)], 8: [(1, 2), (2, 2), (4, 2), (1, 4), (2, 4)]}


@dataclass
class _Val:
    """A value in scope: its SSA name, shape and how often it is used."""

    name: str
    shape: tuple[int, ...]
    uses: int = 0
    grouped: bool = False

    @property
    def type(self) -> str:
        """Its tensor type."""
        return "tensor<" + "".join(f"{d}x" for d in self.shape) + "f32>"


@dataclass
class _Mesh:
    """A drawn mesh: symbol name and (axis, size) pairs."""

    name: str
    axes: list[tuple[str, int]]
    device_ids: list[int] | None = None

    def text(self) -> str:
        """Its ``sdy.mesh`` op."""
        axes = ", ".join(f'"{a}"={s}' for a, s in self.axes)
        ids = f", device_ids=[{', '.join(map(str, self.device_ids))}]" if self.device_ids else ""
        return f"sdy.mesh @{self.name} = <[{axes}]{ids}>"


@dataclass
class _Builder:
    """Draws one module, op by op, into ``lines``."""

    draw: object
    meshes: list[_Mesh]
    args: list[_Val] = field(default_factory=list)
    vals: list[_Val] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    counter: int = 0
    groups: dict[tuple[int, ...], int] = field(default_factory=dict)
    callee: tuple[int, ...] | None = None

    # -- values ---------------------------------------------------------------------------------

    def fresh(self, prefix: str = "v") -> str:
        """A new SSA name."""
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def new_arg(self, shape: tuple[int, ...]) -> _Val:
        """A new argument of ``@main`` of ``shape``."""
        v = _Val(f"%arg{len(self.args)}", shape)
        self.args.append(v)
        return v

    def shape(self, min_rank: int = 1, max_rank: int = 3) -> tuple[int, ...]:
        """A drawn shape."""
        rank = self.draw(st.integers(min_rank, max_rank))
        return tuple(self.draw(st.sampled_from(_SIZES)) for _ in range(rank))

    def operand(self, min_rank: int = 0) -> _Val:
        """A value in scope (recent ones more likely), or a new argument."""
        cands = [v for v in self.args + self.vals if len(v.shape) >= min_rank]
        if not cands or self.draw(st.integers(0, 5)) == 0:
            return self.new_arg(self.shape(max(min_rank, 1)))
        recent = cands[-3:]
        return self.draw(st.sampled_from(recent if self.draw(st.booleans()) else cands))

    def of_shape(self, shape: tuple[int, ...]) -> _Val:
        """A value in scope of ``shape``, or a new argument."""
        cands = [v for v in self.args + self.vals if v.shape == shape]
        if cands and self.draw(st.booleans()):
            return self.draw(st.sampled_from(cands))
        return self.new_arg(shape)

    def emit(self, shape: tuple[int, ...], body: str, operands: list[_Val], sharded: bool = True) -> _Val:
        """Append ``%r = body`` (``body`` holds ``{ATTRS}`` where an attribute dict goes)."""
        for v in operands:
            v.uses += 1
        res = _Val(self.fresh(), shape)
        attrs = ""
        if sharded and self.draw(st.integers(0, 3)) == 0:
            attrs = f" {{sdy.sharding = #sdy.sharding_per_value<[{self.sharding(len(shape))}]>}}"
        self.lines.append(f"{res.name} = {body.replace('{ATTRS}', attrs)}")
        self.vals.append(res)
        return res

    # -- shardings ------------------------------------------------------------------------------

    def sharding(self, rank: int, mesh: _Mesh | None = None, priorities: bool = True) -> str:
        """``<@mesh, [...]>`` for a rank-``rank`` tensor: axes used once each, open and closed dims,
        sometimes a sub-axis, priorities and replicated axes."""
        draw = self.draw
        mesh = mesh or draw(st.sampled_from(self.meshes))
        if mesh.device_ids == [0] and not mesh.axes:
            return f"<@{mesh.name}, []>"  # a maximal sharding has no dims
        free = list(mesh.axes)
        free = draw(st.permutations(free))
        dims = []
        for _ in range(rank):
            axes = []
            for _ in range(draw(st.integers(0, 2))):
                if not free:
                    break
                name, size = free.pop()
                if size in _SUB_AXES and draw(st.integers(0, 6)) == 0:
                    pre, sub = draw(st.sampled_from(_SUB_AXES[size]))
                    axes.append(f'"{name}":({pre}){sub}')
                else:
                    axes.append(f'"{name}"')
            is_open = draw(st.integers(0, 3)) == 0
            body = ", ".join(axes + (["?"] if is_open else []))
            prio = ""
            if priorities and (axes or is_open) and draw(st.integers(0, 4)) == 0:
                prio = f"p{draw(st.integers(0, 3))}"
            dims.append("{" + body + "}" + prio)
        repl = [a for a, s in mesh.axes if (a, s) in free and draw(st.integers(0, 4)) == 0]
        tail = f", replicated={{{', '.join(f'{chr(34)}{a}{chr(34)}' for a in repl)}}}" if repl else ""
        return f"<@{mesh.name}, [{', '.join(dims)}]{tail}>"

    # -- ops ------------------------------------------------------------------------------------

    def op_binary(self) -> None:
        """add/multiply/subtract/maximum of two values of one shape."""
        a = self.operand()
        b = self.of_shape(a.shape) if self.draw(st.integers(0, 3)) else a
        name = self.draw(st.sampled_from(["add", "multiply", "subtract", "maximum"]))
        self.emit(a.shape, f"stablehlo.{name} {a.name}, {b.name}{{ATTRS}} : {a.type}", [a, b])

    def op_unary(self) -> None:
        """negate/abs."""
        a = self.operand()
        name = self.draw(st.sampled_from(["negate", "abs"]))
        self.emit(a.shape, f"stablehlo.{name} {a.name}{{ATTRS}} : {a.type}", [a])

    def op_dot(self) -> None:
        """dot_general with 0-1 batching dims, 1-2 contracting dims, the rhs's dims permuted."""
        draw = self.draw
        a = self.operand(1)
        dims = draw(st.permutations(range(len(a.shape))))
        n_batch = draw(st.integers(0, 1)) if len(dims) >= 2 else 0
        n_contract = draw(st.integers(1, min(2, len(dims) - n_batch)))
        batch, contract = dims[:n_batch], dims[n_batch:n_batch + n_contract]
        lhs_free = [d for d in range(len(a.shape)) if d not in batch and d not in contract]
        rhs_free = [draw(st.sampled_from(_SIZES)) for _ in range(draw(st.integers(0, 1)))]
        rhs_items = [("b", i) for i in range(len(batch))] + [("c", i) for i in range(len(contract))] + \
                    [("f", i) for i in range(len(rhs_free))]
        rhs_items = draw(st.permutations(rhs_items))
        size = {"b": lambda i: a.shape[batch[i]], "c": lambda i: a.shape[contract[i]], "f": lambda i: rhs_free[i]}
        rhs_shape = tuple(size[k](i) for k, i in rhs_items)
        rhs_batch = [rhs_items.index(("b", i)) for i in range(len(batch))]
        rhs_contract = [rhs_items.index(("c", i)) for i in range(len(contract))]
        b = self.of_shape(rhs_shape)
        out = tuple(a.shape[d] for d in batch) + tuple(a.shape[d] for d in lhs_free) + tuple(rhs_free)
        nums = f"contracting_dims = {list(contract)} x {rhs_contract}"
        if batch:
            nums = f"batching_dims = {list(batch)} x {rhs_batch}, " + nums
        res_t = _Val("", out).type
        self.emit(out, f"stablehlo.dot_general {a.name}, {b.name}, {nums}{{ATTRS}} : ({a.type}, {b.type}) -> {res_t}",
                  [a, b])

    def op_transpose(self) -> None:
        """transpose by a drawn permutation."""
        a = self.operand(1)
        perm = self.draw(st.permutations(range(len(a.shape))))
        out = tuple(a.shape[p] for p in perm)
        self.emit(out, f"stablehlo.transpose {a.name}, dims = {list(perm)}{{ATTRS}} : ({a.type}) -> "
                       f"{_Val('', out).type}", [a])

    def op_reshape(self) -> None:
        """reshape merging two adjacent dims, splitting one, or flattening."""
        draw = self.draw
        a = self.operand(1)
        s = list(a.shape)
        kind = draw(st.sampled_from(["merge", "split", "flat"]))
        splits = [(i, f) for i, d in enumerate(s) for f in range(2, d) if d % f == 0]
        if kind == "merge" and len(s) >= 2:
            i = draw(st.integers(0, len(s) - 2))
            out = s[:i] + [s[i] * s[i + 1]] + s[i + 2:]
        elif kind == "split" and splits and len(s) < 4:
            i, f = draw(st.sampled_from(splits))
            out = s[:i] + [f, s[i] // f] + s[i + 1:]
        else:
            out = [math.prod(s)]
        out_t = tuple(out)
        self.emit(out_t, f"stablehlo.reshape {a.name}{{ATTRS}} : ({a.type}) -> {_Val('', out_t).type}", [a])

    def op_broadcast(self) -> None:
        """broadcast_in_dim adding one or two dims."""
        draw = self.draw
        a = self.operand()
        if len(a.shape) >= 3:
            a = self.new_arg(self.shape(1, 2))
        k = draw(st.integers(1, 2))
        rank = len(a.shape) + k
        pos = sorted(draw(st.permutations(range(rank)))[:len(a.shape)])
        out = [draw(st.sampled_from(_SIZES[:4])) for _ in range(rank)]
        for p, d in zip(pos, a.shape, strict=True):
            out[p] = d
        out_t = tuple(out)
        self.emit(out_t, f"stablehlo.broadcast_in_dim {a.name}, dims = {pos}{{ATTRS}} : ({a.type}) -> "
                         f"{_Val('', out_t).type}", [a])

    def constant(self, elem: str) -> str:
        """A scalar ``stablehlo.constant`` (f32 zero or i32 one); its name."""
        name = self.fresh("c")
        lit = "0.000000e+00" if elem == "f32" else "1"
        self.lines.append(f"{name} = stablehlo.constant dense<{lit}> : tensor<{elem}>")
        return name

    def op_reduce(self) -> None:
        """reduce (add or maximum) over some dims."""
        draw = self.draw
        a = self.operand(1)
        dims = sorted(draw(st.sets(st.integers(0, len(a.shape) - 1), min_size=1)))
        init = self.constant("f32")
        out = tuple(d for i, d in enumerate(a.shape) if i not in dims)
        fn = draw(st.sampled_from(["add", "maximum"]))
        self.emit(out, f"stablehlo.reduce({a.name} init: {init}) applies stablehlo.{fn} across dimensions = "
                       f"{dims}{{ATTRS}} : ({a.type}, tensor<f32>) -> {_Val('', out).type}", [a])

    def op_concatenate(self) -> None:
        """concatenate of two values along one dim."""
        draw = self.draw
        a = self.operand(1)
        d = draw(st.integers(0, len(a.shape) - 1))
        other = list(a.shape)
        other[d] = draw(st.sampled_from([a.shape[d], *_SIZES[:4]]))
        b = self.of_shape(tuple(other)) if draw(st.integers(0, 3)) else a
        out = list(a.shape)
        out[d] += b.shape[d]
        out_t = tuple(out)
        self.emit(out_t, f"stablehlo.concatenate {a.name}, {b.name}, dim = {d}{{ATTRS}} : ({a.type}, {b.type}) -> "
                         f"{_Val('', out_t).type}", [a, b])

    def op_slice(self) -> None:
        """slice with drawn bounds and strides."""
        draw = self.draw
        a = self.operand(1)
        parts, out = [], []
        for n in a.shape:
            if draw(st.booleans()):
                parts.append(f"0:{n}")
                out.append(n)
                continue
            start = draw(st.integers(0, n - 1))
            limit = draw(st.integers(start + 1, n))
            stride = draw(st.sampled_from([1, 1, 2]))
            parts.append(f"{start}:{limit}" + (f":{stride}" if stride != 1 else ""))
            out.append(-(-(limit - start) // stride))
        out_t = tuple(out)
        self.emit(out_t, f"stablehlo.slice {a.name} [{', '.join(parts)}]{{ATTRS}} : ({a.type}) -> "
                         f"{_Val('', out_t).type}", [a])

    def op_dynamic_slice(self) -> None:
        """dynamic_slice with constant indices."""
        draw = self.draw
        a = self.operand(1)
        idx = self.constant("i32")
        sizes = tuple(draw(st.sampled_from([n, max(1, n // 2)])) for n in a.shape)
        ts = ", ".join(["tensor<i32>"] * len(sizes))
        self.emit(sizes, f"stablehlo.dynamic_slice {a.name}, {', '.join([idx] * len(sizes))}, sizes = "
                         f"{list(sizes)}{{ATTRS}} : ({a.type}, {ts}) -> {_Val('', sizes).type}", [a])

    def op_pad(self) -> None:
        """pad with drawn low, high and interior padding."""
        draw = self.draw
        a = self.operand(1)
        init = self.constant("f32")
        low = [draw(st.sampled_from([0, 0, 1, 2])) for _ in a.shape]
        high = [draw(st.sampled_from([0, 0, 1, 4])) for _ in a.shape]
        interior = [draw(st.sampled_from([0, 0, 0, 1])) for _ in a.shape]
        out = tuple(lo + hi + n + (n - 1) * i for lo, hi, n, i in zip(low, high, a.shape, interior, strict=True))
        self.emit(out, f"stablehlo.pad {a.name}, {init}, low = {low}, high = {high}, interior = {interior}{{ATTRS}} : "
                       f"({a.type}, tensor<f32>) -> {_Val('', out).type}", [a])

    def op_iota(self) -> None:
        """iota along a drawn dim."""
        shape = self.shape()
        dim = self.draw(st.integers(0, len(shape) - 1))
        self.emit(shape, f"stablehlo.iota dim = {dim}{{ATTRS}} : {_Val('', shape).type}", [])

    def op_while(self) -> None:
        """stablehlo.while carrying a value and a counter; the body maybe constrains the value."""
        a = self.operand(1)
        one = self.constant("i32")
        w, it, n = self.fresh("w"), self.fresh("it"), self.fresh("n")
        body = [f"{n} = stablehlo.{self.draw(st.sampled_from(['negate', 'abs']))} {it} : {a.type}"]
        carried = n
        if self.draw(st.booleans()):
            carried = self.fresh("n")
            body.append(f"{carried} = sdy.sharding_constraint {n} {self.sharding(len(a.shape))} : {a.type}")
        cmp = self.fresh("cmp")
        text = (f"stablehlo.while({it} = {a.name}, {it}_i = {one}) : {a.type}, tensor<i32>\n"
                f" cond {{\n"
                f"  {cmp} = stablehlo.compare LT, {it}_i, {one} : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
                f"  stablehlo.return {cmp} : tensor<i1>\n"
                f" }} do {{\n" + "".join(f"  {ln}\n" for ln in body) +
                f"  stablehlo.return {carried}, {it}_i : {a.type}, tensor<i32>\n }}")
        a.uses += 1
        self.lines.append(f"{w}:2 = {text}")
        self.vals.append(_Val(f"{w}#0", a.shape))

    def op_barrier(self) -> None:
        """stablehlo.optimization_barrier of one or two values."""
        ins = [self.operand() for _ in range(self.draw(st.integers(1, 2)))]
        for v in ins:
            v.uses += 1
        name = self.fresh("b")
        types = ", ".join(v.type for v in ins)
        head = f"{name}:{len(ins)}" if len(ins) > 1 else name
        self.lines.append(f"{head} = stablehlo.optimization_barrier {', '.join(v.name for v in ins)} : {types}")
        self.vals += [_Val(f"{name}#{i}" if len(ins) > 1 else name, v.shape) for i, v in enumerate(ins)]

    def op_case(self) -> None:
        """stablehlo.case of two branches: one returns a value from above, the other a unary op of one."""
        a = self.operand(1)
        b = self.of_shape(a.shape)
        idx = self.constant("i32")
        inner = self.fresh("m")
        op = self.draw(st.sampled_from(["negate", "abs"]))
        self.emit(a.shape, f'"stablehlo.case"({idx}) ({{\n  stablehlo.return {a.name} : {a.type}\n}}, {{\n'
                           f"  {inner} = stablehlo.{op} {b.name} : {a.type}\n  stablehlo.return {inner} : {a.type}\n"
                           f"}}) : (tensor<i32>) -> {a.type}", [a, b], sharded=False)

    def op_constraint(self) -> None:
        """sdy.sharding_constraint or sdy.reshard."""
        a = self.operand()
        name = self.draw(st.sampled_from(["sharding_constraint", "sharding_constraint", "reshard"]))
        s = self.sharding(len(a.shape), priorities=name == "sharding_constraint")
        self.emit(a.shape, f"sdy.{name} {a.name} {s} : {a.type}", [a], sharded=False)

    def op_group(self) -> None:
        """sdy.sharding_group of a value in no group yet (one group id per shape)."""
        cands = [v for v in self.args + self.vals if not v.grouped]
        if not cands:
            return
        a = self.draw(st.sampled_from(cands))
        a.grouped = True
        gid = self.groups.setdefault(a.shape, len(self.groups))
        self.lines.append(f"sdy.sharding_group {a.name} group_id={gid} : {a.type}")

    def op_manual(self) -> None:
        """sdy.manual_computation over some axes of a mesh, dims divided by their manual axes."""
        draw = self.draw
        a = self.operand(1)
        mesh = draw(st.sampled_from([m for m in self.meshes if m.axes]))
        manual = [ax for ax in mesh.axes if draw(st.booleans())] or [mesh.axes[0]]
        dims: list[list[str]] = [[] for _ in a.shape]
        local = list(a.shape)
        for name, size in manual:
            fits = [i for i, n in enumerate(local) if n % size == 0]
            if fits and draw(st.integers(0, 3)):
                i = draw(st.sampled_from(fits))
                dims[i].append(f'"{name}"')
                local[i] //= size
        free = [f'"{n}"' for n, s in mesh.axes if (n, s) not in manual]
        if free and draw(st.booleans()):
            dims[draw(st.integers(0, len(dims) - 1))].append(free[0])
        sharding = f"<@{mesh.name}, [{', '.join('{' + ', '.join(d) + '}' for d in dims)}]>"
        manual_axes = ", ".join(f'"{n}"' for n, _ in manual)
        local_t = _Val("", tuple(local)).type
        arg, inner = self.fresh("l"), self.fresh("m")
        op = draw(st.sampled_from(["negate", "abs"]))
        body = [f"{inner} = stablehlo.{op} {arg} : {local_t}"]
        free_axes = [(n, s) for n, s in mesh.axes if (n, s) not in manual]
        if free_axes and draw(st.booleans()):  # a constraint in the body, on the free axes only
            out = self.fresh("m")
            free_mesh = _Mesh(mesh.name, free_axes)
            body.append(f"{out} = sdy.sharding_constraint {inner} {self.sharding(len(local), free_mesh)} : {local_t}")
            inner = out
        self.emit(a.shape, f"sdy.manual_computation({a.name}) in_shardings=[{sharding}] out_shardings=[{sharding}] "
                           f"manual_axes={{{manual_axes}}} ({arg}: {local_t}) {{\n"
                           + "".join(f"  {ln}\n" for ln in body) +
                           f"  sdy.return {inner} : {local_t}\n"
                           f"}} : ({a.type}) -> {a.type}", [a], sharded=False)

    def op_call(self) -> None:
        """func.call of the private ``@callee`` (one argument and result of one shape)."""
        if self.callee is None:
            a = self.operand(1)
            self.callee = a.shape
        else:
            a = self.of_shape(self.callee)
        t = a.type
        self.emit(a.shape, f"call @callee({a.name}){{ATTRS}} : ({t}) -> {t}", [a])

    def callee_text(self) -> str:
        """The private ``@callee``, maybe with a sharded argument or result."""
        t = _Val("", self.callee).type
        arg = f" {{sdy.sharding = #sdy.sharding{self.sharding(len(self.callee))}}}" if self.draw(st.booleans()) else ""
        res = f" {{sdy.sharding = #sdy.sharding{self.sharding(len(self.callee))}}}" \
            if self.draw(st.integers(0, 3)) == 0 else ""
        op = self.draw(st.sampled_from(["negate", "abs"]))
        return (f"func.func private @callee(%arg0: {t}{arg}) -> ({t}{res}) {{\n"
                f"  %0 = stablehlo.{op} %arg0 : {t}\n  return %0 : {t}\n}}")


_OPS = {
    "binary": 4, "unary": 2, "dot": 3, "transpose": 2, "reshape": 2, "broadcast": 2, "reduce": 2,
    "concatenate": 1, "slice": 1, "dynamic_slice": 1, "pad": 1, "iota": 1, "while": 1, "barrier": 1, "case": 1,
    "constraint": 4, "group": 1, "manual": 1, "call": 1,
}


@st.composite
def _mesh_list(draw) -> list[_Mesh]:
    """One or (sometimes) two meshes of 1-3 axes of sizes 2, 4 and 8 (rarely 1), the second
    sometimes the first's twin in another device order; sometimes an empty or a maximal mesh too."""
    meshes = []
    for name, names in (("mesh", "xyz"), ("mesh2", "abc"))[:draw(st.sampled_from([1, 1, 1, 2]))]:
        n = draw(st.integers(1, 3))
        axes = [(names[i], draw(st.sampled_from([2, 4, 8] if n < 3 else [2, 2, 4]))) for i in range(n)]
        if draw(st.integers(0, 15)) == 0:
            axes.insert(draw(st.integers(0, len(axes))), ("w" if name == "mesh" else "d", 1))
        if meshes and draw(st.booleans()):
            axes = list(meshes[0].axes)
        total = math.prod(s for _, s in axes)
        ids = draw(st.permutations(range(total))) if total <= 16 and draw(st.integers(0, 5)) == 0 else None
        meshes.append(_Mesh(name, axes, list(ids) if ids is not None else None))
    if draw(st.integers(0, 7)) == 0:
        meshes.append(draw(st.sampled_from([_Mesh("empty_mesh", []), _Mesh("maximal_mesh", [], [0])])))
    return meshes


@st.composite
def propagation_module_texts(draw, max_ops: int = 15) -> str:
    """A small module for propagation differential tests (see the module docstring), as MLIR prints
    it."""
    b = _Builder(draw, draw(_mesh_list()))
    kinds = [k for k, w in _OPS.items() for _ in range(w)]
    for _ in range(draw(st.integers(1, max_ops))):
        getattr(b, "op_" + draw(st.sampled_from(kinds)))()
    if not b.args and not b.vals:
        b.new_arg(b.shape())
    results = [v for v in b.vals if v.uses == 0] or [(b.vals or b.args)[-1]]

    def attr(v: _Val, share: int) -> str:
        if draw(st.integers(0, share)) == 0:
            return f" {{sdy.sharding = #sdy.sharding{b.sharding(len(v.shape))}}}"
        return ""

    args = ", ".join(f"{v.name}: {v.type}{attr(v, 2)}" for v in b.args)
    outs = ", ".join(f"{v.type}{attr(v, 3)}" for v in results)
    lines = [m.text() for m in b.meshes]
    lines.append(f"func.func @main({args}) -> ({outs}) {{")
    lines += ["  " + ln.replace("\n", "\n  ") for ln in b.lines]
    lines.append(f"  return {', '.join(v.name for v in results)} : {', '.join(v.type for v in results)}")
    lines.append("}")
    if b.callee is not None:
        lines.append(b.callee_text())
    return str(parse_module("\n".join(lines)))
