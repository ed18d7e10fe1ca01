"""The element helper: markup as a tree of elements, escaped once when written out.

``el("span", "Q♥", cls="qard-card", data_card="QH", style={"color": red})`` is an element; its text
and attributes are plain Python strings, escaped by :func:`to_html` (HTML) or :func:`to_xml` (SVG), so no
caller writes markup by hand and no name can break the page. The tree is
:class:`xml.etree.ElementTree.Element` (the standard library's), so a test may walk it.

This module imports nothing from the package: every layer may use it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

__all__ = ["Child", "el", "raw", "wrapped", "to_html", "to_xml", "style_text"]

Child = Union[ET.Element, str, int, float, None, Iterable[Any]]


def style_text(style: Union[str, Mapping[str, Any], None]) -> str:
    """CSS declarations from a mapping (None and "" values left out) or a ready string."""
    if style is None:
        return ""
    if isinstance(style, str):
        return style
    return ";".join(f"{k.replace('_', '-')}:{v}" for k, v in style.items() if v is not None and v != "")


def el(
    tag: str,
    *children: Child,
    cls: Union[str, Sequence[Optional[str]], None] = None,
    style: Union[str, Mapping[str, Any], None] = None,
    **attrs: Any,
) -> ET.Element:
    """An element ``<tag>`` with ``children`` (elements, text, numbers, or lists of them; None is skipped).

    ``cls`` a class name or a list of them (None and "" skipped); ``style`` CSS properties (a mapping, or
    a string); other keyword arguments are attributes (``data_seat=1`` is ``data-seat="1"``, a trailing
    ``_`` is dropped: ``for_=`` is ``for``; None or False leaves one out, True writes it empty)."""
    e = ET.Element(tag)
    if cls:
        names = cls if isinstance(cls, str) else " ".join(c for c in cls if c)
        if names:
            e.set("class", names)
    if style:
        css = style if isinstance(style, str) else style_text(style)
        if css:
            e.set("style", css)
    for k, v in attrs.items():
        if v is None or v is False:
            continue
        e.set(k.rstrip("_").replace("_", "-"), "" if v is True else _number(v))
    if children:
        _append(e, children)
    return e


def _number(v: Any) -> str:
    """An attribute value; a float without a useless ".0" (SVG coordinates)."""
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def _append(parent: ET.Element, children: Iterable[Any]) -> None:
    for c in children:
        if c is None:
            continue
        if isinstance(c, ET.Element):
            parent.append(c)
        elif isinstance(c, (str, int, float)):
            text = str(c)
            if len(parent):
                last = parent[-1]
                last.tail = (last.tail or "") + text
            else:
                parent.text = (parent.text or "") + text
        else:
            _append(parent, c)


def raw(markup: str) -> ET.Element:
    """Well-formed markup made by another function of the package as an element of the tree."""
    return ET.fromstring(markup)


def wrapped(markup: str, tag: str = "div", **attrs: Any) -> str:
    """HTML the package made (a hand, a felt, a log: HTML, with void elements such as ``<br>``, so not
    parsed again by :func:`raw`) inside an element ``<tag>`` made by :func:`el` with ``attrs``."""
    empty = to_html(el(tag, **attrs))  # <tag ...></tag>
    end = f"</{tag}>"
    return empty[: -len(end)] + markup + end


def to_html(e: ET.Element) -> str:
    """The element as HTML (empty elements written open and closed, as HTML needs)."""
    return ET.tostring(e, encoding="unicode", method="html")


def to_xml(e: ET.Element) -> str:
    """The element as XML (SVG: empty elements self-closed)."""
    return ET.tostring(e, encoding="unicode", method="xml")
