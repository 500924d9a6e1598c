"""The pass registry: each pass is a class with a flag name (``sdy-add-data-flow-edges``), typed
options (as ``sdy_opt`` takes them: ``-sdy-x='a=true b=1'``) and a ``run`` over a module or a func."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import attrs


@attrs.frozen
class PassOption:
    """One option: its flag name, type (bool, int, str, or a tuple of allowed strings) and default."""

    name: str
    type: Any
    default: Any
    help: str = ""

    def convert(self, text: str):
        """The value of ``text`` for this option; ValueError with a clear message when it is not one."""
        if self.type is bool:
            if text in ("true", "1", ""):
                return True
            if text in ("false", "0"):
                return False
            raise ValueError(f"option '{self.name}' takes true or false, not '{text}'")
        if self.type is int:
            try:
                return int(text)
            except ValueError:
                raise ValueError(f"option '{self.name}' takes an integer, not '{text}'") from None
        if isinstance(self.type, tuple):
            if text not in self.type:
                raise ValueError(f"option '{self.name}' takes one of {', '.join(self.type)}, not '{text}'")
            return text
        return text


class Pass:
    """Base of every pass.  Subclasses set ``name``, ``summary``, ``options`` and ``anchor``
    (``"builtin.module"``, or ``"func.func"`` to run once per function) and define ``run``.

    A run that leaves the IR exactly as it found it may call ``ctx.mark_all_preserved()`` (MLIR's
    ``markAllAnalysesPreserved``): the pass manager then does not verify the module again after it
    (tests/test_passes_preserved.py checks such claims).  Without the call the module is verified."""

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    options: ClassVar[tuple[PassOption, ...]] = ()
    anchor: ClassVar[str] = "builtin.module"

    def __init__(self, **options):
        known = {o.name.replace("-", "_"): o for o in self.options}
        self.values = {k: o.default for k, o in known.items()}
        for key, value in options.items():
            key = key.replace("-", "_")
            if key not in known:
                raise ValueError(f"pass '{self.name}' has no option '{key.replace('_', '-')}'"
                                 + (f" (its options: {', '.join(o.name for o in self.options)})"
                                    if self.options else " (it takes no options)"))
            self.values[key] = value

    def option(self, name: str):
        return self.values[name.replace("-", "_")]

    def run(self, op, ctx) -> None:  # pragma: no cover - every registered pass overrides it
        raise NotImplementedError(self.name)


#: Every registered pass by flag name.
PASSES: dict[str, type[Pass]] = {}


def register(cls: type[Pass]) -> type[Pass]:
    """Class decorator: make a pass known to ``opt`` and ``passes.run``."""
    PASSES[cls.name] = cls
    return cls


_loaded = False
#: The packages whose modules register passes (a module per pass, named after it), imported on first use.
PASS_PACKAGES: tuple[str, ...] = ("import_", "export", "propagation")


def load_all() -> dict[str, type[Pass]]:
    """Import every pass module (once) and return the registry."""
    global _loaded
    if not _loaded:
        _loaded = True
        import importlib
        import pkgutil

        for sub in PASS_PACKAGES:
            package = importlib.import_module(f"shardy_py.passes.{sub}")
            for info in pkgutil.iter_modules(package.__path__):
                importlib.import_module(f"{package.__name__}.{info.name}")
    return PASSES


def lookup(name: str) -> type[Pass] | None:
    return load_all().get(name)


PassFactory = Callable[..., Pass]
