"""``CostReport``: what a sharding costs per device, and ``cost`` that makes it.

Its forms: ``str(report)`` / ``report.text(width)`` for a terminal (``render_text``),
``report.to_json()`` (the schema in ``schema``), ``report._repr_html_()`` for notebooks
(``render_html``: memory along the program, communication per op).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from shardy_py.cost.collectives import Collective, collectives
from shardy_py.cost.memory import FunctionMemory, function_memory
from shardy_py.cost.pipeline import Stages, run_stages
from shardy_py.cost.reasons import attach_reasons
from shardy_py.cost.topologies import Topology, stages_time
from shardy_py.cost.topologies import topology as make_topology
from shardy_py.ir.module import Module


@dataclass
class OpCommunication:
    """The collectives made for one op (the op their reason names), summed."""

    op: str
    line: int | None
    count: int
    bytes_sent: int
    time_s: float


@dataclass
class CostReport:
    """Per-device memory and communication of one module (see ``cost``).

    ``functions``: arguments, results and live bytes of each function; ``entry``: the function the
    per-device totals are of (``main``, or the only public one); ``collectives``: every collective
    with its bytes, time and reason, largest first; ``stages``: the propagated module
    (``stages.propagated``) and the module with explicit collectives (``stages.exploded``)."""

    name: str
    topology: Topology
    functions: list[FunctionMemory]
    entry: str | None
    collectives: list[Collective]
    stages: Stages = field(repr=False)
    num_devices: int = 1
    notes: list[str] = field(default_factory=list)

    # -- totals ---------------------------------------------------------------------------------

    @property
    def entry_function(self) -> FunctionMemory | None:
        return next((f for f in self.functions if f.name == self.entry), None)

    @property
    def arguments_bytes(self) -> int:
        f = self.entry_function
        return f.arguments_bytes if f is not None else 0

    @property
    def results_bytes(self) -> int:
        f = self.entry_function
        return f.results_bytes if f is not None else 0

    @property
    def peak_bytes(self) -> int:
        f = self.entry_function
        return f.peak_bytes if f is not None else 0

    @property
    def bytes_sent(self) -> int:
        """Bytes one device sends over the whole program (collectives in counted loops times their trips)."""
        return sum(c.total_bytes for c in self.collectives)

    @property
    def bytes_received(self) -> int:
        return sum(c.bytes_received * c.executions for c in self.collectives)

    @property
    def time_s(self) -> float:
        """Estimated time of all collectives on the topology, one after the other."""
        return sum(c.time_s * c.executions for c in self.collectives)

    @property
    def module(self) -> Module:
        """The module with explicit collectives the report reads."""
        return self.stages.exploded

    def per_op(self) -> list[OpCommunication]:
        """The collectives grouped by the op they were made for, most bytes first."""
        groups: dict[tuple, OpCommunication] = {}
        for c in self.collectives:
            reason = c.reason
            key = (reason.op, reason.loc.line if reason.loc else None) if reason is not None else (c.op_name, None)
            g = groups.get(key)
            if g is None:
                g = groups[key] = OpCommunication(key[0], key[1], 0, 0, 0.0)
            g.count += c.executions
            g.bytes_sent += c.total_bytes
            g.time_s += c.time_s * c.executions
        return sorted(groups.values(), key=lambda g: (-g.bytes_sent, -g.time_s, g.line or 0))

    # -- forms ----------------------------------------------------------------------------------

    def to_json(self, *, origins: bool = True) -> dict:
        """The report as JSON-ready data (``shardy_py.cost.schema`` documents every field)."""
        from shardy_py.cost.schema import report_json

        return report_json(self, origins=origins)

    def text(self, width: int | None = None, *, top: int | None = 20, origins: bool = True) -> str:
        """The report for a terminal: totals, arguments and results, memory along the entry function
        (a bar per op, scaled to ``width``), and the ``top`` collectives (None: all) with their reasons."""
        from shardy_py.cost.render_text import report_text

        return report_text(self, width=width, top=top, origins=origins)

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        from shardy_py.cost.render_html import report_html

        return report_html(self)


def _entry(functions: list[FunctionMemory], module: Module) -> str | None:
    names = [f.name for f in functions]
    if "main" in names:
        return "main"
    public = [op.properties_view.get("sym_name") for op in module.ops if op.name == "func.func"
              and op.properties_view.get("sym_visibility") in (None, "public")]
    public = [n for n in public if n in names]
    if len(public) == 1:
        return public[0]
    return names[0] if names else None


def _num_devices(module: Module) -> int:
    sizes = [m.total_size for m in module.meshes.values() if not m.is_maximal]
    return max(sizes, default=1)


def report_from_stages(stages: Stages, topology: Topology | str | None = None, *,
                       name: str | None = None) -> CostReport:
    """The ``CostReport`` of modules ``run_stages`` made."""
    topo = make_topology(topology) if not isinstance(topology, Topology) else topology
    exploded = stages.exploded
    found = collectives(exploded)
    source_name = stages.original.filename
    attach_reasons(found, stages, source_name)
    for c in found:
        c.time_s = stages_time(c.stages, topo)
    found.sort(key=lambda c: (-c.total_bytes, -c.time_s, c.reason.loc.line if c.reason and c.reason.loc else 0))
    functions = function_memory(exploded)
    report = CostReport(name or stages.original.filename or "module", topo, functions, _entry(functions, exploded),
                        found, stages, _num_devices(exploded))
    if any(not c.executions_known for c in found):
        report.notes.append("some collectives are in loops whose trip count is unknown: counted once")
    if not stages.propagated_here:
        report.notes.append("the module is propagated already: costed as it is")
    return report


def cost(module: Module, topology: Topology | str | None = None, *, propagate: bool | None = None,
         name: str | None = None, **pipeline_options) -> CostReport:
    """What ``module``'s sharding costs per device.

    Runs Shardy's propagation pipeline (``shardy_py.propagate`` with ``pipeline_options``; not when
    ``propagate=False``, or when None and the module is propagated already), then Shardy's explicit
    reshards and collectives on a copy, and reports the bytes of every function argument and result
    per device, the peak of live bytes along each function (``memory``), and every collective with its
    bytes, estimated time on ``topology`` (a ``Topology``, a preset name of
    ``shardy_py.cost.PRESETS``, or None for ``uniform``) and reason.  The input is unchanged; raises
    ``PassError`` when a pass fails."""
    stages = run_stages(module, propagate=propagate, **pipeline_options)
    return report_from_stages(stages, topology, name=name)
