"""Running passes: parse ``sdy_opt``-style pass flags, run each pass on the module (or on each
``func.func`` for function passes), verify after every pass as MLIR's pass manager does."""
from __future__ import annotations

import contextlib
import gc
import re
import shlex

import attrs

from shardy_py.ir.edit import forget_positions
from shardy_py.ir.module import Module
from shardy_py.ir.ops import Operation
from shardy_py.passes.registry import Pass, load_all, lookup
from shardy_py.verify.diagnostics import Diagnostic


class PassError(Exception):
    """A pass failed (or the IR it produced does not verify): ``diagnostics`` say where and why."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None):
        super().__init__(message)
        self.diagnostics = list(diagnostics or [])


class UnknownPassError(ValueError):
    """A pass name that is not registered, or an option a pass does not take."""


@attrs.define
class PassContext:
    """What a running pass reports through: ``error``/``warning``/``remark`` at an op."""

    diagnostics: list[Diagnostic] = attrs.field(factory=list)
    failed: bool = False
    #: Set by a pass that left the IR exactly as it found it (MLIR's ``markAllAnalysesPreserved``),
    #: or by a pipeline whose own steps were each verified: the pass manager then does not verify
    #: again, as MLIR's does not.  Cleared before each pass runs.
    preserved: bool = False

    def mark_all_preserved(self) -> None:
        """The running pass changed nothing (nothing to verify again)."""
        self.preserved = True

    def emit(self, severity: str, op: Operation | None, message: str, notes=()) -> None:
        loc = op.loc if op is not None else None
        self.diagnostics.append(Diagnostic(loc.line if loc else 1, loc.column if loc else 1, severity, message,
                                           tuple(notes)))
        if severity == "error":
            self.failed = True

    def error(self, op: Operation | None, message: str, notes=()) -> None:
        self.emit("error", op, message, notes)

    def warning(self, op: Operation | None, message: str) -> None:
        self.emit("warning", op, message)

    def remark(self, op: Operation | None, message: str) -> None:
        self.emit("remark", op, message)


_FLAG = re.compile(r"^--?([A-Za-z0-9][\w-]*)(?:=(.*))?$", re.S)


def split_options(text: str) -> list[str]:
    """``a=1 b={x y} c='p q'`` into ``["a=1", "b={x y}", "c=p q"]``: whitespace separates options
    except inside braces (MLIR's list values) and quotes (which are dropped, as ``shlex`` drops them)."""
    items: list[str] = []
    current: list[str] = []
    depth, quote, started = 0, None, False
    for c in text:
        if quote:
            if c == quote:
                quote = None
            else:
                current.append(c)
        elif c in "'\"":
            quote, started = c, True
        elif c.isspace() and depth == 0:
            if started:
                items.append("".join(current))
            current, started = [], False
        else:
            depth += (c == "{") - (c == "}")
            current.append(c)
            started = True
    if started:
        items.append("".join(current))
    return items


def parse_options(cls: type[Pass], text: str | None) -> dict:
    """``a=true b=1 c`` (as ``-pass='...'`` writes them) into option values of ``cls``."""
    out: dict = {}
    if not text:
        return out
    text = text.strip()
    if text.startswith("{") and text.endswith("}"):
        text = text[1:-1]
    known = {o.name: o for o in cls.options}
    for item in split_options(text):
        key, _, value = item.partition("=")
        opt = known.get(key)
        if opt is None:
            raise UnknownPassError(f"pass '{cls.name}' has no option '{key}'"
                                   + (f"; its options: {', '.join(known)}" if known else "; it takes no options"))
        out[key] = opt.convert(value if _ else "")
    return out


class PassManager:
    """An ordered list of passes, run on a module one after another."""

    def __init__(self, passes: list[Pass] | None = None, verify_each: bool = True):
        self.passes = list(passes or [])
        self.verify_each = verify_each

    @classmethod
    def parse(cls, flags: list[str] | str) -> PassManager:
        """From ``sdy_opt`` flags: ``["-sdy-a", "--sdy-b=x=1 y=true"]`` or one string of them."""
        if isinstance(flags, str):
            flags = shlex.split(flags)
        out = []
        for flag in flags:
            m = _FLAG.match(flag)
            if not m:
                raise UnknownPassError(f"unknown pass or option '{flag}'")
            name, opts = m.group(1), m.group(2)
            pass_cls = lookup(name)
            if pass_cls is None:
                raise UnknownPassError(f"unknown pass '{name}' (python -m shardy_py opt --list-passes lists "
                                       "the passes shardy_py implements)")
            out.append(pass_cls(**{k.replace("-", "_"): v for k, v in parse_options(pass_cls, opts).items()}))
        return cls(out)

    def run(self, module: Module, ctx: PassContext | None = None) -> PassContext:
        """Run every pass in order on ``module`` (in place); raises ``PassError`` on failure."""
        ctx = ctx or PassContext()
        with outermost_run():
            for p in self.passes:
                run_one(p, module, ctx)
                if ctx.failed:
                    raise PassError(f"pass '{p.name}' failed", ctx.diagnostics)
                if self.verify_each and not ctx.preserved:
                    from shardy_py.progress import phase
                    from shardy_py.verify import verify

                    phase(f"verifying after {p.name}")
                    errors = [d for d in verify(module) if d.severity == "error"]
                    if errors:
                        ctx.diagnostics.extend(errors)
                        raise PassError(f"the IR after pass '{p.name}' does not verify", ctx.diagnostics)
                set_aside_new_objects()
        return ctx


@contextlib.contextmanager
def outermost_run():
    """Around the outermost ``PassManager.run`` (a pipeline's own runs are nested in it): the
    collector paused, and the op positions ``ir.edit`` noted during the run dropped after it."""
    global _run_depth
    if _run_depth:
        yield
        return
    _run_depth += 1
    try:
        with paused_collector():
            yield
    finally:
        _run_depth -= 1
        forget_positions()


#: How many ``PassManager.run`` calls are under way (a pipeline nests one).
_run_depth = 0
#: Whether the outermost run froze the module's objects (``paused_collector``).
_frozen_by_run = False

#: Objects the interpreter itself had frozen when this module was imported (some CPython builds
#: freeze a few hundred at startup): a freeze count of this size is not a caller's freeze.
INTERPRETER_FROZEN = gc.get_freeze_count()


def set_aside_new_objects() -> None:
    """After a pass, inside a run whose collector ``paused_collector`` paused: collect the garbage
    the pass made, then set aside (``gc.freeze``) the objects it created and kept, as the module's
    were at the start, so that later collections do not walk them again and again (the collector's
    work stays proportional to what each pass allocates, not to the module's size)."""
    if _frozen_by_run and gc.isenabled():
        gc.collect()
        gc.freeze()


@contextlib.contextmanager
def paused_collector():
    """Keep Python's cyclic garbage collector off the module while passes run.

    The module's ops, values and attributes are long-lived; every full collection triggered by a
    pass's allocations would walk all of them again (MLIR, with no collector, pays nothing).  They
    are set aside (``gc.freeze``) for the run and handed back after, so garbage the passes make is
    still collected.  With the collector off, or objects frozen by the caller (``gc.get_freeze_count``
    counts them one by one: asked once per outermost run; the interpreter's own startup freeze,
    ``INTERPRETER_FROZEN``, is not the caller's), things are left as found.

    Full collections inside a pass are put off to its end (``set_aside_new_objects``): CPython
    starts one after every ``threshold2`` younger collections (some 70k allocations) once a quarter
    more objects survived since the last, and with the module frozen that quarter is of the pass's
    own objects, so a pass keeping a few hundred thousand of them walked them again every 70k (on
    200k ops a third of ``sdy-import-func-calls``'s time, nothing on 20k ops).  The younger
    generations are still collected as usual."""
    global _frozen_by_run
    if not gc.isenabled() or gc.get_freeze_count() not in (0, INTERPRETER_FROZEN):
        yield
        return
    gc.freeze()
    _frozen_by_run = True
    thresholds = gc.get_threshold()
    gc.set_threshold(thresholds[0], thresholds[1], _NO_FULL_COLLECTIONS)
    try:
        yield
    finally:
        _frozen_by_run = False
        gc.set_threshold(*thresholds)
        gc.unfreeze()


#: A ``threshold2`` no pass reaches (younger collections between two automatic full ones).
_NO_FULL_COLLECTIONS = 1 << 30


def run_one(p: Pass, module: Module, ctx: PassContext) -> None:
    """One pass on the module, or on each top-level ``func.func`` for a function pass."""
    from shardy_py.progress import is_on, phase

    phase(f"pass {p.name}")
    if p.anchor == "func.func":
        preserved = True
        for op in list(module.ops):
            if op.name == "func.func":
                if is_on():
                    phase(f"pass {p.name} on @{op.properties_view.get('sym_name', '')}")
                ctx.preserved = False
                p.run(op, ctx)
                preserved = preserved and ctx.preserved
        ctx.preserved = preserved
    else:
        ctx.preserved = False
        p.run(module, ctx)


def run(module: Module, name: str, **options) -> Module:
    """Run pass (or pipeline) ``name`` with ``options`` on ``module`` in place and return it."""
    pass_cls = lookup(name)
    if pass_cls is None:
        raise UnknownPassError(f"unknown pass '{name}'; known: {', '.join(sorted(load_all()))}")
    PassManager([pass_cls(**options)]).run(module)
    return module
