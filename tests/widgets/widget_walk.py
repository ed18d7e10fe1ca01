"""Helpers for widget tests: walk a widget tree and collect every synced value."""

from __future__ import annotations

import re
from typing import Any

import ipywidgets as widgets

_MODEL = re.compile(r"IPY_MODEL_[0-9a-f]+")


def all_widgets(root: widgets.Widget) -> list[widgets.Widget]:
    """Every widget reachable from ``root`` through synced traits (children, layout, style...)."""
    seen: dict[int, widgets.Widget] = {}
    stack = [root]
    while stack:
        w = stack.pop()
        if id(w) in seen:
            continue
        seen[id(w)] = w
        for name in w.keys:
            v = getattr(w, name, None)
            if isinstance(v, widgets.Widget):
                stack.append(v)
            elif isinstance(v, (list, tuple)):
                stack.extend(x for x in v if isinstance(x, widgets.Widget))
    return list(seen.values())


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return _MODEL.sub("W", value)
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (bytes, memoryview)):
        return bytes(value)
    return value


def tree_state(root: widgets.Widget) -> list[Any]:
    """The synced state of the whole tree, in a stable order, with model ids blanked.

    Two trees with equal ``tree_state`` look the same to the browser.
    """
    out = []

    def walk(w: widgets.Widget) -> None:
        state = w.get_state()
        out.append((type(w).__name__, _clean({k: v for k, v in state.items()})))
        for name in sorted(w.keys):
            v = getattr(w, name, None)
            if isinstance(v, widgets.Widget):
                walk(v)
            elif isinstance(v, (list, tuple)):
                for x in v:
                    if isinstance(x, widgets.Widget):
                        walk(x)

    walk(root)
    return out


def all_text(root: widgets.Widget) -> str:
    """Every string value in the tree's synced state, joined (for 'does X appear' checks)."""
    parts: list[str] = []

    def collect(v: Any) -> None:
        if isinstance(v, str):
            parts.append(v)
        elif isinstance(v, (list, tuple)):
            for x in v:
                collect(x)
        elif isinstance(v, dict):
            for x in v.values():
                collect(x)

    for w in all_widgets(root):
        collect(w.get_state())
    return "\n".join(parts)
