"""Why each collective is there: the decision that made the reshard it came from, and where the
shardings on both sides of it came from (``shardy_py.explain``'s origins: the user sharding, its
priority, the ops the axis travelled through).

Shardy's partitioner inserts a reshard where a value's sharding is not the one an op needs, and
``sdy-reshard-to-collectives`` turns it into collectives.  A chain of collectives from value ``X``
is read back to its decision (``Reason.kind``):

* ``operand``: operand ``j`` of op ``U`` must have the sharding ``U`` is computed in (its sharding
  rule's factors took their axes from ``U``'s other tensors), and ``X`` has another one;
* ``result``: op ``P`` was computed in another sharding than the one propagation gave its result
  (its operands decided its factors): the result is resharded for its users;
* ``reduction``: op ``P`` sums over a dimension sharded along the axes (a contracting dimension of a
  dot, a reduced dimension): each device holds a partial sum, added across those axes;
* ``constraint`` / ``reshard``: a sharding constraint or reshard the program wrote asks for it;
* ``func_result``: a function's result sharding differs from the value it returns;
* ``call`` / ``manual``: a call or manual computation takes the operand in another sharding;
* ``program``: a StableHLO collective the program itself holds (a ``shard_map``'s ``psum``).

The origins are read lazily (``Reason.origins``): on a module ``shardy_py.propagate`` made, the first
one runs the propagation once more with origin tracking (``explain`` does the same).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from shardy_py.cost.collectives import SDY_MOVING_OPS, Collective
from shardy_py.cost.pipeline import Stages
from shardy_py.ir.attrs import AxisRefAttr, TensorShardingAttr
from shardy_py.ir.module import sharding_of
from shardy_py.ir.ops import Block, Location, Operation, Value
from shardy_py.passes.func_calls import result_sharding


@dataclass(frozen=True)
class Origin:
    """Where axis ``axis`` (of dimension ``dim``) of one side of a reshard came from: the user
    sharding ``source`` (``argument 1 (%idx) of @main``) at ``loc``, its ``priority``, and the ops it
    travelled through, latest first (``chain``)."""

    side: str
    tensor: str
    dim: int
    axis: str
    source: str | None
    priority: int | None
    loc: Location | None
    chain: tuple[str, ...] = ()

    def text(self, source_name: str | None = None) -> str:
        where = f" at {_at(self.loc, source_name)}" if self.loc is not None else ""
        if self.source is None:
            whence = "an unknown origin (no sdy.sharding_origins entry)"
        else:
            whence = self.source + (f", priority p{self.priority}" if self.priority is not None
                                    else ", no priority (p0)") + where
        via = f"; through {', '.join(self.chain)}" if self.chain else ""
        return f'"{self.axis}" on dimension {self.dim} of {self.tensor}: from {whence}{via}'

    def as_json(self) -> dict:
        return {"side": self.side, "tensor": self.tensor, "dimension": self.dim, "axis": self.axis,
                "user_sharding": self.source, "priority": self.priority,
                "line": self.loc.line if self.loc else None, "column": self.loc.column if self.loc else None,
                "chain": list(self.chain)}


@dataclass(eq=False)
class Reason:
    """The decision behind a collective (see the module docstring); ``sources`` lists, per side
    (``"from"``, ``"to"``), the propagated module's tensors whose axes are explained."""

    kind: str
    op: str
    loc: Location | None
    text: str
    from_sharding: str | None = None
    to_sharding: str | None = None
    sources: list[tuple[str, str, object, TensorShardingAttr | None]] = field(default_factory=list)
    finder: OriginFinder | None = field(default=None, repr=False)
    _origins: list[Origin] | None = field(default=None, repr=False)

    @property
    def origins(self) -> list[Origin]:
        """Where the axes on both sides came from (computed on first use)."""
        if self._origins is None:
            self._origins = self.finder.origins(self.sources) if self.finder is not None else []
        return self._origins

    def as_json(self, origins: bool = True) -> dict:
        out = {"kind": self.kind, "op": self.op, "line": self.loc.line if self.loc else None,
               "column": self.loc.column if self.loc else None, "text": self.text,
               "from_sharding": self.from_sharding, "to_sharding": self.to_sharding}
        if origins:
            out["origins"] = [o.as_json() for o in self.origins]
        return out


def _at(loc: Location, source_name: str | None) -> str:
    return f"{source_name}:{loc}" if source_name else f"line {loc.line}"


class OriginFinder:
    """Where the axes of the propagated module's tensors came from, memoised: a function argument's
    or a sharding constraint's axes that its own user sharding (as written before propagation) has
    are that user sharding's; the others are ``shardy_py.explanation.axis_stories``' (which runs the
    propagation once more with origin tracking, the first time it is needed)."""

    def __init__(self, propagated, original):
        self.propagated = propagated
        self.original = original
        self._stories: dict[object, list] = {}
        self._written_ops = None

    def stories(self, key) -> list:
        from shardy_py.explanation import ExplainError, axis_stories

        if key not in self._stories:
            try:
                self._stories[key] = axis_stories(self.propagated, key, original=self.original)
            except (ExplainError, KeyError, ValueError, IndexError):
                self._stories[key] = []
        return self._stories[key]

    def written(self, key) -> tuple[str, TensorShardingAttr, Location | None] | None:
        """``(description, sharding as written, where)`` of the user sharding ``key`` (a value of the
        propagated module) carries itself: a function argument's, a constraint's or reshard's."""
        if not isinstance(key, Value):
            return None
        source = self.original if self.original is not None else self.propagated
        owner = key.owner
        if isinstance(owner, Block):
            func = owner.parent.parent if owner.parent is not None else None
            if func is None or func.name != "func.func" or owner is not func.regions[0].blocks[0]:
                return None
            name = func.properties_view.get("sym_name")
            before = source.funcs.get(name)
            if before is None or not before.regions or not before.regions[0].blocks:
                return None
            args = before.regions[0].blocks[0].arguments
            sharding = args[key.index].attributes.get("sdy.sharding") if key.index < len(args) else None
            label = f"argument {key.index}" + (f" ({key.name})" if key.name else "") + f" of @{name}"
            return (label, sharding, args[key.index].loc) if isinstance(sharding, TensorShardingAttr) else None
        if owner.name != "sdy.reshard" or owner.loc is None:
            return None
        if self._written_ops is None:
            self._written_ops = {op.loc: op for op in source.walk()
                                 if op.name in ("sdy.sharding_constraint", "sdy.reshard") and op.loc is not None}
        op = self._written_ops.get(owner.loc)
        if op is None:
            return None
        kind = "sharding constraint" if op.name == "sdy.sharding_constraint" else "reshard"
        return f"the {kind} at line {op.loc.line}", op.properties_view.get("sharding"), op.loc

    def _own(self, key) -> list[tuple[int, AxisRefAttr, str, int | None, Location | None]] | None:
        """The axes of ``key``'s sharding that its own written user sharding has on the same
        dimension, as origins; None when some axis is not there (its origin must be traced)."""
        written = self.written(key)
        current = sharding_of(key) if isinstance(key, Value) else None
        if written is None or current is None or len(written[1].dim_shardings) != len(current.dim_shardings):
            return None
        out = []
        for d, (now, was) in enumerate(zip(current.dim_shardings, written[1].dim_shardings, strict=True)):
            for axis in now.axes:
                if axis not in was.axes:
                    return None
                out.append((d, axis, written[0], was.priority, written[2]))
        return out

    def origins(self, sources) -> list[Origin]:
        out = []
        for side, label, key, wanted in sources:
            axes = _axes_of(wanted)
            own = self._own(key)
            if own is not None:
                out += [Origin(side, label, d, _axis(a), where, priority, loc)
                        for d, a, where, priority, loc in own if axes is None or a in axes]
                continue
            for story in self.stories(key):
                if axes is not None and story.axis not in axes:
                    continue
                origin = story.origin
                priority = origin.dim_and_priority(story.axis)[1] if origin is not None else None
                chain = tuple(f"{h.op}" + (f" at line {h.loc.line}" if h.loc is not None else "") for h in story.hops)
                out.append(Origin(side, label, story.dim, _axis(story.axis),
                                  origin.description if origin is not None else None, priority,
                                  origin.loc if origin is not None else None, chain))
        return out


def _axes_of(wanted) -> set[AxisRefAttr] | None:
    """The axes a source's origins are limited to: those of a sharding (dimensions and unreduced),
    a list of axes as given, or None (all)."""
    if wanted is None:
        return None
    if isinstance(wanted, TensorShardingAttr):
        return {a for d in wanted.dim_shardings for a in d.axes} | set(wanted.unreduced_axes)
    return set(wanted)


def _axis(ref: AxisRefAttr) -> str:
    info = ref.sub_axis_info
    return ref.name if info is None else f"{ref.name}:({info.pre_size}){info.size}"


def _text(s: TensorShardingAttr | None) -> str:
    if s is None:
        return "replicated (no sharding)"
    body = str(s)
    return body[len("#sdy.sharding"):] if body.startswith("#sdy.sharding") else body


def _place(op: Operation, source_name: str | None) -> str:
    return op.name + (f" at {_at(op.loc, source_name)}" if op.loc is not None else "")


def _label(value: Value) -> str:
    owner = value.owner
    if isinstance(owner, Block):
        parent = owner.parent.parent if owner.parent is not None else None
        if parent is not None and parent.name == "func.func":
            name = value.name or f"%arg{value.index}"
            return f"argument {value.index} ({name}) of @{parent.properties_view.get('sym_name')}"
        return f"block argument {value.index} of {parent.name if parent else '?'}"
    return f"result {value.index} of {owner.name}" + (f" ({value.name})" if value.name else "")


def _is_collective(v: Value | None) -> bool:
    return v is not None and not isinstance(v.owner, Block) and v.owner.name in SDY_MOVING_OPS


def _chain(op: Operation) -> tuple[Operation, Value, Operation]:
    """``(head collective, the value it reads, tail collective)`` of the chain ``op`` is in."""
    head = op
    while _is_collective(head.operands[0]):
        head = head.operands[0].owner
    tail = op
    while len(tail.results[0].uses) == 1 and tail.results[0].uses[0].op.name in SDY_MOVING_OPS:
        tail = tail.results[0].uses[0].op
    return head, head.operands[0], tail


class ReasonFinder:
    """Reads back the reason of each collective (see the module docstring)."""

    def __init__(self, stages: Stages, source_name: str | None = None):
        self.stages = stages
        self.source_name = source_name
        self.finder = OriginFinder(stages.propagated, stages.original if stages.propagated_here else None)
        self._by_chain: dict[int, Reason] = {}
        self._reshards = {}
        for op in stages.propagated.walk():
            if op.name == "sdy.reshard":
                self._reshards[(op.operands[0], op.properties_view.get("sharding"))] = op
        self._written = {(op.name, op.loc) for op in stages.original.walk()
                         if op.name in ("sdy.sharding_constraint", "sdy.reshard") and op.loc is not None}

    def reason(self, c: Collective) -> Reason:
        op = c.operation
        if not op.name.startswith("sdy."):
            return self._program(op)
        head, x, tail = _chain(op)
        key = id(head)
        if key not in self._by_chain:
            self._by_chain[key] = self._decide(head, x, tail)
        return self._by_chain[key]

    # -- the decisions ------------------------------------------------------------------------------

    def _reason(self, kind, op, text, source=None, target=None, sources=()) -> Reason:
        return Reason(kind, op.name if op is not None else "?", op.loc if op is not None else None, text,
                      _text(source) if source is not None or kind != "program" else None,
                      _text(target) if target is not None else None, list(sources), self.finder)

    def _deciding(self, op: Operation, side: str, wanted, skip: int | None = None) -> list:
        """The tensors of ``op`` the partitioner computed it from: its results and operands (but
        operand ``skip``) that kept their propagated sharding (no reshard on them), as sources."""
        back = self.stages.back
        out = []
        for i, r in enumerate(op.results):
            before = back.get(r)
            if before is not None and sharding_of(before) == sharding_of(r):
                out.append((side, f"result {i} of {op.name}", before, wanted))
        for i, v in enumerate(op.operands):
            before = back.get(v) if v is not None else None
            if i != skip and before is not None:
                out.append((side, f"operand {i} of {op.name}", before, wanted))
        return out

    def _source(self, x: Value, source) -> list:
        """The origins of ``x``'s side: its own when the partitioner kept its propagated sharding,
        else those of the tensors its op was computed from."""
        x_prop = self.stages.back.get(x)
        if x_prop is not None and (isinstance(x.owner, Block) or sharding_of(x_prop) == source):
            return [("from", _label(x), x_prop, source)]
        if isinstance(x.owner, Block):
            return []
        return self._deciding(x.owner, "from", source)

    def _program(self, op: Operation) -> Reason:
        where = ""
        parent = op.parent_op
        while parent is not None and parent.name != "func.func":
            if parent.name == "sdy.manual_computation":
                where = f", inside the manual computation at {_at(parent.loc, self.source_name)}" if parent.loc else \
                    ", inside a manual computation"
                break
            parent = parent.parent_op
        return Reason("program", op.name, op.loc, f"written in the program ({op.name}{where})", None, None, [], None)

    def _decide(self, head: Operation, x: Value, tail: Operation) -> Reason:
        back = self.stages.back
        x_prop = back.get(x)
        target = tail.properties_view.get("out_sharding") or tail.properties_view.get("sharding")
        source = sharding_of(x)
        uses = tail.results[0].uses
        user = uses[0].op if len(uses) == 1 else None
        # a reshard of the propagated module (a sharding constraint, a reshard the program wrote, a call's)
        written = self._reshards.get((x_prop, target)) if x_prop is not None else None
        if written is not None:
            kind = ("constraint" if ("sdy.sharding_constraint", written.loc) in self._written else
                    "reshard" if ("sdy.reshard", written.loc) in self._written else "call")
            what = {"constraint": "the sharding constraint", "reshard": "the reshard the program writes",
                    "call": "a reshard at a function call"}[kind]
            at = f" at {_at(written.loc, self.source_name)}" if written.loc is not None else ""
            return self._reason(kind, written, f"{what}{at} asks for "
                                f"{_text(target)}; its input {_label(x)} is {_text(source)}", source, target,
                                self._source(x, source) + [("to", "the constraint", written.results[0], target)])
        if head.name in ("sdy.all_reduce", "sdy.reduce_scatter") and not isinstance(x.owner, Block):
            producer = x.owner
            reduced = _reduced_axes(producer)
            if reduced:
                axes = ", ".join(f'"{_axis(a)}"' for a in reduced)
                prop_op = back.get(producer.results[0])
                sources = [("from", f"operand {i} of {producer.name}", v, reduced)
                           for i, v in enumerate(prop_op.owner.operands if prop_op is not None else ())
                           if v is not None]
                return self._reason("reduction", producer, f"{_place(producer, self.source_name)} sums over a "
                                    f"dimension sharded along {axes}: each device holds a partial sum, added across "
                                    f"{axes}", source, target, sources)
        if not isinstance(x.owner, Block) and x_prop is not None:
            propagated = sharding_of(x_prop)
            if propagated is not None and source is not None and propagated != source:
                producer = x.owner
                return self._reason(
                    "result", producer, f"{_place(producer, self.source_name)} is computed as {_text(source)} (its "
                    f"operands' shardings decided its factors), but propagation gave its result {_text(propagated)}: "
                    "resharded for its users", source, target,
                    self._deciding(producer, "from", source) + [("to", _label(x), x_prop, target)])
        if user is not None and user.name == "func.return":
            func = user.parent_op
            index = uses[0].index
            name = func.properties_view.get("sym_name") if func is not None else "?"
            declared = result_sharding(func, index) if func is not None and func.name == "func.func" else None
            return self._reason("func_result", user, f"result {index} of @{name} is declared {_text(declared)}; the "
                                f"value it returns, {_label(x)}, is {_text(source)}", source, target,
                                self._source(x, source) + [("to", f"result {index} of @{name}",
                                                            f"@{name}:result {index}", target)])
        if user is not None:
            index = uses[0].index
            kind = {"func.call": "call", "sdy.manual_computation": "manual"}.get(user.name, "operand")
            moved = (_axes_of(source) or set()) | (_axes_of(target) or set())
            others = self._deciding(user, "to", moved, skip=index)
            return self._reason(kind, user, f"operand {index} of {_place(user, self.source_name)} is needed as "
                                f"{_text(target)} (the sharding the op is computed in), but {_label(x)} is "
                                f"{_text(source)}", source, target, self._source(x, source) + others)
        return self._reason("operand", None, f"{_label(x)} is resharded from {_text(source)} to {_text(target)}",
                            source, target, self._source(x, source))


def _reduced_axes(op: Operation) -> list[AxisRefAttr]:
    """The axes sharding the reduction factors of ``op``'s sharding rule (read from its operands'
    shardings), in order."""
    rule = op.attributes_view.get("sdy.sharding_rule")
    if rule is None or not getattr(rule, "reduction_factors", ()):
        return []
    out: list[AxisRefAttr] = []
    for factor in rule.reduction_factors:
        for i, mapping in enumerate(rule.operand_mappings):
            if i >= len(op.operands) or op.operands[i] is None:
                continue
            s = sharding_of(op.operands[i])
            if s is None:
                continue
            for d, dim in enumerate(mapping.dim_mappings):
                if factor in dim.factor_indices and d < len(s.dim_shardings):
                    for a in s.dim_shardings[d].axes:
                        if a not in out:
                            out.append(a)
    return out


def attach_reasons(collectives: list[Collective], stages: Stages, source_name: str | None = None) -> None:
    """Set ``reason`` on each collective of ``collectives`` (all of ``stages.exploded``)."""
    finder = ReasonFinder(stages, source_name)
    for c in collectives:
        c.reason = finder.reason(c)
