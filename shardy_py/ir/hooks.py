"""The one place where the IR reaches the layers above it.

The IR classes print themselves (``str(op)``, ``str(module)``, ``str(attr)``), read a type or an
array of sdy attributes from its text, make an op's result types from its declaration and draw
themselves in a notebook (``_repr_html_``) by calling the functions here.  ``shardy_py/__init__.py``
installs them when the package is imported (``install``), as MLIR's Python bindings call into the
C++ printer and parser: nothing under ``ir/`` imports ``syntax/``, ``dialects/`` or ``show/``.
"""
from __future__ import annotations

from collections.abc import Callable


def _not_installed(*args, **kwargs):
    raise RuntimeError("shardy_py's printer, parser and pictures are not installed (shardy_py/__init__.py "
                       "installs them when the package is imported)")


#: ``print_attr(attr) -> str``: an sdy attribute's canonical text (``syntax.attr_printer``).
print_attr: Callable = _not_installed
#: ``print_op(op) -> str`` and ``print_module(module) -> str``: MLIR's print (``syntax.printer``).
print_op: Callable = _not_installed
print_module: Callable = _not_installed
#: ``parse_sdy_array(text) -> tuple | None``: the sdy attributes of an array attribute's text
#: (``syntax.sdy_parser``).
parse_sdy_array: Callable = _not_installed
#: ``read_type(text) -> Type``, raising ``AttrSyntaxError`` for text that is not a type, and
#: ``read_attribute(text) -> Attr`` (``syntax.attr_reader``).
read_type: Callable = _not_installed
read_attribute: Callable = _not_installed
#: ``infer_result_types(op) -> [Type]``: the result types the op's declaration defines
#: (``dialects.registry``).
infer_result_types: Callable = _not_installed
#: ``sharding_html(sharding) -> str | None`` and ``module_html(module) -> str``: notebook pictures
#: (``show.view``).
sharding_html: Callable = _not_installed
module_html: Callable = _not_installed

_NAMES = frozenset({"print_attr", "print_op", "print_module", "parse_sdy_array", "read_type", "read_attribute",
                    "infer_result_types", "sharding_html", "module_html"})


def install(**functions: Callable) -> None:
    """Set the functions named (``print_attr=...``); an unknown name is a ``TypeError``."""
    unknown = sorted(functions.keys() - _NAMES)
    if unknown:
        raise TypeError(f"no IR hook named {', '.join(unknown)}")
    globals().update(functions)
