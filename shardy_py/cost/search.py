"""``suggest``: search a module's user priorities (and, when asked, mesh axes for its unannotated
arguments) for the cheapest propagated result on a topology.

The search is deterministic and bounded: candidates are made in a fixed order and at most
``max_candidates`` are costed (the module as written counts as one):

1. the module as written;
2. each user sharding made to win (``give_precedence``), in module order;
3. with ``axes=True``, each unannotated argument of the entry function sharded along one mesh axis
   on one dimension the axis divides (dimensions, then axes, in order);
4. then, greedily, the best candidate so far extended by one more step: another sharding made to
   win right after the ones that already do (``s`` first, then ``t``), or another argument's axis;
   rounds continue until no candidate is left or the budget is spent.

Two memos make candidates cheap: propagation is keyed by the user shardings with their priorities
replaced by their order (user-priority propagation reads only the order), and costing by the
shardings the propagation gave (candidates that propagate alike share one report).  Candidates are
ranked by ``objective``: ``time`` (estimated communication time, then bytes sent, then peak
memory; the default), ``bytes`` or ``peak``; ties keep the order they were made in.  Each candidate
is one copy of the input, propagated in place without verifying after every pass (the input is
verified once); a candidate's module is made again when asked for.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from shardy_py.cost.comparison import OBJECTIVES, report_key
from shardy_py.cost.pipeline import explode
from shardy_py.cost.report import CostReport, report_from_stages
from shardy_py.cost.topologies import Topology
from shardy_py.cost.topologies import topology as make_topology
from shardy_py.explanation import remember_original
from shardy_py.ir.attrs import TensorShardingAttr, TensorShardingPerValueAttr
from shardy_py.ir.module import Module
from shardy_py.passes.propagation.propagation_pipeline import propagate

DEFAULT_MAX_CANDIDATES = 16


@dataclass
class Candidate:
    """One candidate: its ``changes`` (empty: the module as written), its ``report``, and ``module``:
    the input with the changes (before propagation; made again when asked for)."""

    label: str
    changes: tuple[str, ...]
    make: Callable[[], Module] = field(repr=False)
    report: CostReport = field(repr=False)
    order: int = 0

    @property
    def module(self) -> Module:
        return self.make()


@dataclass
class Suggestion:
    """The candidates ``suggest`` costed, cheapest first (``best``), and what the search did."""

    candidates: list[Candidate]
    objective: str
    propagations: int
    costings: int
    budget: int

    @property
    def best(self) -> Candidate:
        return self.candidates[0]

    def text(self, width: int | None = None, *, top: int | None = 10) -> str:
        from shardy_py.cost.render_suggest import suggestion_text

        return suggestion_text(self, width=width, top=top)

    def __str__(self) -> str:
        return self.text()

    def to_json(self) -> dict:
        from shardy_py.cost.render_suggest import suggestion_json

        return suggestion_json(self)

    def _repr_html_(self) -> str:
        from shardy_py.cost.render_suggest import suggestion_html

        return suggestion_html(self)


# -- memo keys -------------------------------------------------------------------------------------

def _ranked(shardings: list[TensorShardingAttr]) -> list[TensorShardingAttr]:
    """The shardings with each priority replaced by its rank among all of them (p0 for none)."""
    import attrs

    values = sorted({d.priority or 0 for s in shardings for d in s.dim_shardings if d.axes})
    rank = {p: i for i, p in enumerate(values)}
    out = []
    for s in shardings:
        dims = tuple(attrs.evolve(d, priority=rank[d.priority or 0]) if d.axes else d for d in s.dim_shardings)
        out.append(attrs.evolve(s, dim_shardings=dims))
    return out


def propagation_key(module: Module) -> tuple:
    """What propagation reads of the user shardings: each site's sharding, priorities by rank."""
    from shardy_py.priorities import user_shardings

    sites = user_shardings(module)
    return tuple(zip((s.label for s in sites), _ranked([s.sharding for s in sites]), strict=True))


def sharding_fingerprint(module: Module) -> tuple:
    """Every sharding of a propagated module, in op order (equal when two propagations agree)."""
    out = []
    for op in module.walk():
        for key in ("sharding", "out_sharding", "in_shardings", "out_shardings", "res_attrs"):
            value = op.properties_view.get(key)
            if value is not None:
                out.append(str(value) if key == "res_attrs" else value)
        per_value = op.attributes_view.get("sdy.sharding")
        if isinstance(per_value, TensorShardingPerValueAttr):
            out.append(per_value)
        if op.name == "func.func" and op.regions and op.regions[0].blocks:
            out.extend(a.attributes.get("sdy.sharding") for a in op.regions[0].blocks[0].arguments)
    return tuple(out)


# -- candidates ------------------------------------------------------------------------------------

class _Search:
    def __init__(self, module: Module, topo: Topology, objective: str, budget: int, pipeline_options: dict):
        self.module = module
        self.topo = topo
        self.objective = objective
        self.budget = budget
        self.options = dict(pipeline_options)
        self.options.setdefault("keep_sharding_rules", True)
        self.options.pop("verify_each", None)
        self.candidates: list[Candidate] = []
        self.seen: set[tuple] = set()
        self._propagated: dict[tuple, Module] = {}
        self._reports: dict[tuple, CostReport] = {}
        self.costings = 0

    def key(self, c: Candidate) -> tuple:
        return report_key(c.report, self.objective) + (c.order,)

    def best(self) -> Candidate:
        return min(self.candidates, key=self.key)

    def full(self) -> bool:
        return len(self.candidates) >= self.budget

    def add(self, changes: tuple[str, ...], make) -> Candidate | None:
        """Cost the module ``make()`` returns for ``changes`` (None when seen already or out of budget)."""
        if self.full() or changes in self.seen:
            return None
        self.seen.add(changes)
        work = make()
        if work is None:
            return None
        key = propagation_key(work)
        propagated = self._propagated.get(key)
        if propagated is None:
            # propagated in place on its own copy, without verifying after each pass
            propagated = self._propagated[key] = propagate(work, verify_each=False, in_place=True, **self.options)
        fingerprint = sharding_fingerprint(propagated)
        report = self._reports.get(fingerprint)
        if report is None:
            original = make()
            remember_original(propagated, original, self.options)
            stages = explode(original, propagated, True, verify_each=False)
            report = self._reports[fingerprint] = report_from_stages(stages, self.topo)
            self.costings += 1
        label = "; ".join(changes) if changes else "as written"
        candidate = Candidate(label, changes, make, report, len(self.candidates))
        self.candidates.append(candidate)
        return candidate


def _precedence(module: Module, order: list[str]) -> Module:
    """A copy of ``module`` where the user shardings labelled ``order`` win, the first the most."""
    from shardy_py.ir.clone import clone_module
    from shardy_py.priorities import give_precedence, user_shardings

    copy = clone_module(module)
    sites = {s.label: s for s in user_shardings(copy)}
    for label in reversed(order):
        site = sites[label]
        give_precedence(copy, site.value, func=site.func)
    return copy


def _axis_choices(module: Module, entry: str | None) -> list[tuple[int, int, str, str]]:
    """``(argument, dimension, mesh, axis)`` for every unannotated argument of the entry function
    and every mesh axis dividing one of its dimensions."""
    func = module.funcs.get(entry) if entry else None
    meshes = [(n, m) for n, m in module.meshes.items() if not m.is_maximal and m.axes]
    if func is None or not func.regions or not func.regions[0].blocks or len(meshes) != 1:
        return []
    name, mesh = meshes[0]
    out = []
    for arg in func.regions[0].blocks[0].arguments:
        s = arg.attributes.get("sdy.sharding")
        if isinstance(s, TensorShardingAttr) and any(d.axes for d in s.dim_shardings):
            continue
        for d, size in enumerate(getattr(arg.type, "shape", ()) or ()):
            for axis in mesh.axes:
                if size > 0 and size % axis.size == 0 and axis.size > 1:
                    out.append((arg.index, d, name, axis.name))
    return out


def _with_axes(module: Module, choices: list[tuple[int, int, str, str]], entry: str) -> Module | None:
    from shardy_py.builder import ShardingSpecError, mark_sharding
    from shardy_py.ir.clone import clone_module

    copy = clone_module(module)
    args = copy.funcs[entry].regions[0].blocks[0].arguments
    specs: dict[int, list] = {}
    for arg, dim, _mesh, axis in choices:
        spec = specs.setdefault(arg, [None] * args[arg].type.rank)
        if spec[dim] is not None or any(axis == a for a in spec if a is not None):
            return None
        spec[dim] = axis
    try:
        for arg, spec in specs.items():
            mark_sharding(copy, args[arg], choices[0][2], spec)
    except ShardingSpecError:
        return None
    return copy


def suggest(module: Module, topology: Topology | str | None = None, *, max_candidates: int = DEFAULT_MAX_CANDIDATES,
            axes: bool = False, objective: str = "time", **pipeline_options) -> Suggestion:
    """Search ``module``'s user priorities (and with ``axes`` mesh axes for the entry function's
    unannotated arguments) for the cheapest propagated result on ``topology`` (see the module
    docstring for the search, its bound ``max_candidates`` and the memos).  Returns the ``Suggestion``
    with every candidate costed, cheapest first; the input is unchanged."""
    from shardy_py.priorities import user_shardings

    if objective not in OBJECTIVES:
        raise ValueError(f"objective is one of {', '.join(OBJECTIVES)}, not {objective!r}")
    if max_candidates < 1:
        raise ValueError("max_candidates must be at least 1")
    topo = make_topology(topology) if not isinstance(topology, Topology) else topology
    search = _Search(module, topo, objective, max_candidates, pipeline_options)
    sites = user_shardings(module)
    labels = [s.label for s in sites]
    search.add((), lambda: _precedence(module, []))
    entry = search.candidates[0].report.entry if search.candidates else None
    choices = _axis_choices(module, entry) if axes else []
    # step 2 and 3: single changes
    orders: dict[tuple[str, ...], tuple[list, list]] = {}
    for label in labels:
        changes = (f"{label} first",)
        if search.add(changes, lambda label=label: _precedence(module, [label])) is not None:
            orders[changes] = ([label], [])
    for choice in choices:
        changes = (f"argument {choice[0]} dimension {choice[1]} along {choice[3]}",)
        if search.add(changes, lambda c=choice: _with_axes(module, [c], entry)) is not None:
            orders[changes] = ([], [choice])
    # step 4: greedy extension of the best so far
    while not search.full():
        best = search.best()
        order, picked = orders.get(best.changes, ([], []))
        added = False
        for label in labels:
            if label in order or search.full():
                continue
            changes = best.changes + (f"{label} first" if not order else f"then {label}",)
            made = search.add(changes, lambda o=order + [label], p=picked: _combined(module, o, p, entry))
            if made is not None:
                orders[changes] = (order + [label], picked)
                added = True
        for choice in choices:
            if choice in picked or search.full():
                continue
            changes = best.changes + (f"argument {choice[0]} dimension {choice[1]} along {choice[3]}",)
            made = search.add(changes, lambda o=order, p=picked + [choice]: _combined(module, o, p, entry))
            if made is not None:
                orders[changes] = (order, picked + [choice])
                added = True
        if not added:
            break
    ranked = sorted(search.candidates, key=search.key)
    return Suggestion(ranked, objective, len(search._propagated), search.costings, max_candidates)


def _combined(module: Module, order: list, picked: list, entry: str | None) -> Module | None:
    base = _with_axes(module, picked, entry) if picked else module
    if base is None:
        return None
    return _precedence(base, order)
