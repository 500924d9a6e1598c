"""Hypothesis strategies for the differential tests of ``sdy-optimize-collectives`` and of the reshard
canonicalization: modules drawn around the shapes those rewrites look for.

* ``permute_chains()``: a function whose argument is sharded on one dimension by 2-4 axes (full axes
  or a split axis's sub-axes of a mesh with axes of sizes 2, 3, 4, 8), a ``sdy.collective_permute``
  reordering them (sometimes also another dimension, or opening it), then 0-4 ``sdy.all_to_all``
  ops moving suffix axes (mostly out of the permuted dimension, sometimes several axes or a second
  parameter), sometimes an extra use of a chain value or an unrelated op in between; dimension
  sizes mostly divisible, sometimes not; sometimes replicated or unreduced axes.
* ``reshard_paths()``: a tensor reshaped and transposed into other shapes and resharded on the way
  (sometimes twice the same), on meshes with full axes or sub-axes, as the reshard CSE reads them.

Not every module is valid (a sub-axis pair in the wrong order, an axis moved twice): the tests skip
the ones MLIR rejects after checking that ``verify`` rejects them too.
"""
from __future__ import annotations

from hypothesis import strategies as st


class _Draws:
    """``random.Random``'s few methods, drawn through hypothesis (so failures shrink)."""

    def __init__(self, draw):
        self.draw = draw

    def random(self) -> float:
        return self.draw(st.integers(0, 99)) / 100

    def randint(self, lo: int, hi: int) -> int:
        return self.draw(st.integers(lo, hi))

    def randrange(self, n: int) -> int:
        return self.draw(st.integers(0, n - 1))

    def choice(self, seq):
        return seq[self.draw(st.integers(0, len(seq) - 1))]

    def permutation(self, seq) -> list:
        return self.draw(st.permutations(list(seq)))


def _axis(ref) -> str:
    name, sub = ref
    return f'"{name}"' if sub is None else f'"{name}":({sub[0]}){sub[1]}'


def _dims(per_dim, opens) -> str:
    return "[" + ", ".join("{" + ", ".join([_axis(a) for a in d] + (["?"] if o else [])) + "}"
                           for d, o in zip(per_dim, opens, strict=True)) + "]"


def _tensor(shape) -> str:
    return "tensor<" + "x".join(map(str, shape)) + ("x" if shape else "") + "f32>"


def _mesh_and_refs(rng: _Draws):
    names = ["a", "b", "c", "d", "e"][:rng.randint(2, 5)]
    sizes = {n: rng.choice([2, 2, 2, 3, 4, 8]) for n in names}
    refs = [(n, None) for n in names]
    big = [n for n in names if sizes[n] >= 4]
    if big and rng.random() < 0.3:
        n = rng.choice(big)
        i = refs.index((n, None))
        refs[i:i + 1] = [(n, (1, 2)), (n, (2, sizes[n] // 2))]
    mesh = "<[" + ", ".join(f'"{n}"={sizes[n]}' for n in names) + "]>"
    return mesh, names, refs, lambda r: r[1][1] if r[1] else sizes[r[0]]


def _chain_text(rng: _Draws) -> str:
    mesh, names, refs, size = _mesh_and_refs(rng)
    rank = rng.randint(1, 4)
    split = rng.randrange(rank)
    pool = rng.permutation(refs)
    k = rng.randint(2, min(4, len(pool)))
    dims: list[list] = [[] for _ in range(rank)]
    dims[split] = list(pool[:k])
    for ref in pool[k:]:
        if rank > 1 and rng.random() < 0.4:
            dims[rng.choice([d for d in range(rank) if d != split])].append(ref)
    shape = []
    for d in range(rank):
        product = 1
        for ref in dims[d]:
            product *= size(ref)
        n = product * rng.choice([1, 1, 2, 3, 4])
        shape.append(n + 1 if rng.random() < 0.1 else n)
    opens = [rng.random() < 0.15 for _ in range(rank)]
    permuted = list(dims[split])
    while permuted == dims[split]:
        permuted = rng.permutation(dims[split])
    cp_dims = [list(d) for d in dims]
    cp_dims[split] = permuted
    cp_opens = list(opens)
    if rng.random() < 0.05:
        cp_opens[split] = not cp_opens[split]
    if rank > 1 and rng.random() < 0.05:
        other = rng.choice([d for d in range(rank) if d != split])
        cp_dims[other] = cp_dims[other][::-1]
    replicated = ', replicated={"' + rng.choice(names) + '"}' if rng.random() < 0.2 else ""
    used = {r[0] for d in dims for r in d}
    free = [n for n in names if n not in used]
    unreduced = ', unreduced={"' + free[0] + '"}' if free and rng.random() < 0.15 else ""
    t = _tensor(shape)
    lines = [f"  %0 = sdy.collective_permute %arg0 out_sharding=<@mesh, {_dims(cp_dims, cp_opens)}{unreduced}> : {t}"]
    current = [list(d) for d in cp_dims]
    results = []
    last = 0
    for _ in range(rng.randint(0, 4)):
        if rank < 2:
            break
        src = split if rng.random() < 0.85 else rng.randrange(rank)
        if not current[src]:
            break
        tgt = rng.choice([d for d in range(rank) if d != src])
        count = 1 if rng.random() < 0.85 else rng.randint(1, len(current[src]))
        params = [(current[src][-count:], src, tgt)]
        others = [d for d in range(rank) if d not in (src, tgt) and current[d]]
        if others and rng.random() < 0.1:
            second = rng.choice(others)
            targets = [d for d in range(rank) if d not in (src, tgt, second)]
            if targets:
                params.append(([current[second][-1]], second, rng.choice(targets)))
        params.sort(key=lambda p: p[1])
        for moved, s, _ in params:
            current[s] = current[s][:len(current[s]) - len(moved)]
        for moved, _, tg in params:
            current[tg] = current[tg] + moved
        text = ", ".join("{" + ", ".join(map(_axis, moved)) + f"}}: {s}->{tg}" for moved, s, tg in params)
        lines.append(f"  %{last + 1} = sdy.all_to_all [{text}] %{last} out_sharding=<@mesh, "
                     f"{_dims(current, cp_opens)}{unreduced}> : {t}")
        if rng.random() < 0.1:
            results.append(f"%{last}")
        last += 1
    if rng.random() < 0.1:
        lines.insert(1 + rng.randrange(len(lines)), "  %n = stablehlo.negate %arg1 : tensor<2xf32>")
        results.append("%n")
    results = [f"%{last}", *results]
    types = ", ".join("tensor<2xf32>" if r == "%n" else t for r in results)
    sharding = f"#sdy.sharding<@mesh, {_dims(dims, opens)}{replicated}{unreduced}>"
    body = "\n".join(lines)
    return (f"sdy.mesh @mesh = {mesh}\n"
            f"func.func @f(%arg0: {t} {{sdy.sharding = {sharding}}}, %arg1: tensor<2xf32>) -> ({types}) {{\n"
            f"{body}\n  return {', '.join(results)} : {types}\n}}\n")


@st.composite
def permute_chains(draw) -> str:
    """A module with a permute and an all-to-all chain (module docstring)."""
    return _chain_text(_Draws(draw))


def _factor(n: int, rng: _Draws) -> list[int]:
    dims, rest = [], n
    while rest > 1 and len(dims) < 3:
        d = rng.choice([x for x in range(2, rest + 1) if rest % x == 0])
        dims.append(d)
        rest //= d
    if rest > 1:
        dims.append(rest)
    return rng.permutation(dims) if dims else [1]


def _reshard_text(rng: _Draws) -> str:
    kind = rng.choice(["xy", "x8", "xyz"])
    if kind == "xy":
        mesh, pool = '<["x"=2, "y"=2]>', [("x", None), ("y", None)]
    elif kind == "x8":
        mesh = '<["x"=8]>'
        pool = rng.choice([[("x", None)], [("x", (1, 2)), ("x", (2, 4))], [("x", (1, 4)), ("x", (4, 2))],
                           [("x", (1, 2)), ("x", (2, 2)), ("x", (4, 2))]])
    else:
        mesh, pool = '<["x"=2, "y"=4, "z"=2]>', [("x", None), ("y", None), ("z", None)]
    n = rng.choice([8, 12, 16, 24, 32, 48, 64])
    base = _factor(n, rng)
    values = [("%arg0", base)]
    lines = []
    for i in range(rng.randint(2, 7)):
        src, shape = rng.choice(values)
        name = f"%v{i}"
        pick = rng.random()
        if pick < 0.3:
            new = _factor(n, rng)
            lines.append(f"  {name} = stablehlo.reshape {src} : ({_tensor(shape)}) -> {_tensor(new)}")
        elif pick < 0.45 and len(shape) > 1:
            perm = rng.permutation(range(len(shape)))
            new = [shape[p] for p in perm]
            lines.append(f"  {name} = stablehlo.transpose {src}, dims = [{', '.join(map(str, perm))}] : "
                         f"({_tensor(shape)}) -> {_tensor(new)}")
        else:
            new = shape
            per_dim: list[list] = [[] for _ in shape]
            for ref in rng.permutation(pool):
                if rng.random() < 0.45:
                    per_dim[rng.randrange(len(shape))].append(ref)
            sharding = _dims(per_dim, [False] * len(shape))
            copies = 2 if rng.random() < 0.3 else 1
            for c in range(copies):
                lines.append(f"  {name}{'_' * c} = sdy.reshard {src} <@mesh, {sharding}> : {_tensor(shape)}")
                if c:
                    values.append((f"{name}_", shape))
        values.append((name, new))
    outs = values[1:]
    types = ", ".join(_tensor(s) for _, s in outs)
    return (f"sdy.mesh @mesh = {mesh}\nfunc.func @f(%arg0: {_tensor(base)}) -> ({types}) {{\n" + "\n".join(lines)
            + f"\n  return {', '.join(v for v, _ in outs)} : {types}\n}}\n")


@st.composite
def reshard_paths(draw) -> str:
    """A module of reshapes, transposes and reshards of one tensor (module docstring)."""
    return _reshard_text(_Draws(draw))
