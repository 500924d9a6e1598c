"""Pictures of shardings: how a tensor's pieces are laid out over devices.

``python -m shardy_py show FILE`` draws every sharded value of a module in the terminal;
in notebooks ``ShardingView(sharding, mesh, shape)``, ``Module`` and ``TensorShardingAttr``
(with an inline mesh) draw themselves as HTML; ``before_after(module, propagated)`` draws each
value's sharding before propagation next to the one after; ``describe(rule, op)`` and ``RuleView(rule, op)``
show an op sharding rule readably (text, HTML tables).  ``shardy_py.show.lexer.SdyLexer`` is the
Pygments lexer the pictures and error messages are highlighted with.

Names load on first use, so importing the lexer (a Pygments plugin) stays cheap.
"""
from __future__ import annotations

import importlib

_EXPORTS = {
    "ShardingView": "shardy_py.show.view",
    "module_pictures": "shardy_py.show.view",
    "module_html": "shardy_py.show.view",
    "sharding_html": "shardy_py.show.view",
    "render_text": "shardy_py.show.terminal",
    "render_html": "shardy_py.show.html",
    "html_page": "shardy_py.show.html",
    "compute_layout": "shardy_py.show.layout",
    "Layout": "shardy_py.show.layout",
    "LayoutError": "shardy_py.show.layout",
    "SdyLexer": "shardy_py.show.lexer",
    "before_after": "shardy_py.show.side_by_side",
    "BeforeAfter": "shardy_py.show.side_by_side",
    "RuleView": "shardy_py.show.rule_view",
    "describe": "shardy_py.show.rule_view",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'shardy_py.show' has no attribute {name!r}")
