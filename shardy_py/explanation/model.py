"""The data an explanation is made of: ``Hop`` (one edge an axis travelled), ``AxisStory`` (where
one axis of the value came from), ``KeptAway`` (an axis that could have reached the value through
an op's sharding rule but did not, and why) and ``Explanation`` (all of them for one value)."""
from __future__ import annotations

from dataclasses import dataclass, field

from shardy_py.explanation.origins import Node, UserSharding
from shardy_py.explanation.render import explanation_html, explanation_text, wrapped
from shardy_py.ir.attrs import AxisRefAttr, TensorShardingAttr
from shardy_py.ir.ops import Location, Operation


@dataclass(frozen=True)
class Hop:
    """The axis reached ``target`` from ``source`` when propagation went through ``op`` at ``step``
    (None for the edge between a ``func.call`` and its callee, which the pipeline rebuilt from an
    ``sdy.named_computation`` after propagation, so no step of it is recorded)."""

    step: int | None
    op: str
    loc: Location | None
    source: str
    target: str
    came_from: str
    #: The op itself (None for a function's results) and the place the axis reached.
    operation: Operation | None = field(default=None, compare=False, repr=False)
    target_node: Node | None = field(default=None, compare=False, repr=False)


@dataclass
class AxisStory:
    """Where one axis of one dimension of the value came from."""

    dim: int
    axis: AxisRefAttr
    origin: UserSharding | None
    hops: list[Hop] = field(default_factory=list)

    @property
    def priority(self) -> int | None:
        return self.origin.dim_and_priority(self.axis)[1] if self.origin is not None else None


@dataclass
class KeptAway:
    """Axis ``axis`` of dimension ``tensor_dim`` of ``role`` (``"operand 1"``, ``"result 0"``) of
    ``op`` maps, through ``op``'s sharding rule, to dimension ``value_dim`` of the value but is not
    there; ``kind`` names the reason (``"conflict"``, ``"closed"``, ``"used"``, ``"replicated"``,
    ``"manual"``, ``"strided"``, ``"prefix"``, ``"divisibility"``, ``"blocked"``, ``"unknown"``) and
    ``reason`` says it."""

    axis: AxisRefAttr
    op: str
    op_loc: Location | None
    role: str
    tensor_label: str
    tensor_dim: int
    value_dim: int
    origin: UserSharding | None
    kind: str
    reason: str
    winner: AxisStory | None = None
    #: The value of an axis's chain the axis was kept from (None: the explained value itself).
    via: str | None = None

    @property
    def tensor(self) -> str:
        """``operand 1 of stablehlo.gather: argument 1 (%idx) of @main``."""
        return f"{self.role} of {self.op}: {self.tensor_label}"

    @property
    def priority(self) -> int | None:
        return self.origin.dim_and_priority(self.axis)[1] if self.origin is not None else None


@dataclass
class Explanation:
    """Why a value is sharded the way it is; ``str()`` is text for a terminal, ``_repr_html_``
    a table for notebooks."""

    label: str
    loc: Location | None
    sharding: TensorShardingAttr | None
    stories: list[AxisStory]
    kept_away: list[KeptAway]
    notes: list[str] = field(default_factory=list)
    source_name: str | None = None

    def __str__(self) -> str:
        return explanation_text(self)

    def text(self, width: int | None = None) -> str:
        """``str()`` with every line longer than ``width`` wrapped at spaces, its continuation
        indented under it (for a terminal; ``None``: lines as long as they are)."""
        return wrapped(str(self), width)

    def _repr_html_(self) -> str:
        return explanation_html(self)
