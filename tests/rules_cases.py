"""The hand-written rule cases of test_rules_part1.py and test_rules_part2.py: a function holding the
op under test, and the rule expected on it normally and with conservative propagation."""
from __future__ import annotations

from typing import NamedTuple


class Case(NamedTuple):
    """A func ``@f`` with signature ``sig``, ops ``body`` and a return of ``ret``; the rule of the
    op under test (top-level body op ``at``, default the last) normally and with conservative
    propagation (``"same"``: as normally; None: no rule)."""

    sig: str
    body: list[str]
    ret: str
    rule: str | None
    conservative: str | None = "same"
    at: int = -1

    def text(self) -> str:
        lines = "".join(f"  {line}\n" for line in self.body)
        return f"func.func @f{self.sig} {{\n{lines}  return {self.ret}\n}}\n"

    def expected(self, conservative: bool) -> str | None:
        return self.conservative if conservative and self.conservative != "same" else self.rule


def body_ops(module) -> list:
    """The top-level ops of the module's (first) function, without its return."""
    func = next(op for op in module.ops if op.name == "func.func")
    return [op for op in func.regions[0].blocks[0].ops if op.name != "func.return"]
