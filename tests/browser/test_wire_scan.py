"""The browser secrecy scan (``wire.py``) has teeth for every form a card can take (issue 25, section 5).

Before, its text scan missed lower-case codes, HTML entities, Unicode playing cards, SVG and CSS forms, and it
never looked at the charts' pictures. Each form is planted here in the place a browser would get it (a widget
state message on the wire, or the page's markup) and the scan must name the card; ordinary words that look
like codes ("As", ``<th>``, ``js/``) must not trip it. No browser: these run with the unit tests.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wire import buffers, decode, digest, find_cards, text_of, unicode_card  # noqa: E402

from qardlab.cards import Card  # noqa: E402

QS, AS, JS, TH = (Card.parse(c) for c in ("QS", "AS", "JS", "TH"))

#: (form, where it is planted): each newly covered form, as markup or as a widget's state would carry it
PLANTED = [
    ("lower-case code as a value", '<div class="qard-card" data-c="qs"></div>'),
    ("lower-case code, strict", '<button data-card="qs">'),
    ("lower-case code in a class", '<span class="card-qs">'),
    ("lower-case code in an SVG link", '<svg><use href="#qs"/></svg>'),
    ("lower-case file name", '<img src="/static/cards/qs.svg">'),
    ("lower-case query value", '<a href="?card=qs&x=1">'),
    ("HTML named entity", "<b>Q&spades;</b>"),
    ("HTML decimal entity", "<b>Q&#9824;</b>"),
    ("HTML hex entity", "<b>Q&#x2660;</b>"),
    ("Unicode playing card", f"<span>{unicode_card(QS)}</span>"),
    ("white suit sign", "<i>Q♤</i>"),
    ("emoji-style suit", "<i>Q♠\ufe0f</i>"),
    ("SVG text split", '<svg><text x="1">Q</text><text x="9">♠</text></svg>'),
    ("SVG text, entity", "<svg><text>Q</text> <text>&#x2660;</text></svg>"),
    ("CSS content escape", '<style>.x::after{content:"Q\\2660"}</style>'),
    ("CSS Unicode card escape", '<style>.x::after{content:"\\1F0AD"}</style>'),
    ("JavaScript escape", "<div onclick=\"show('Q\\u2660')\">"),
]


@pytest.mark.parametrize("form,markup", PLANTED, ids=[f for f, _ in PLANTED])
def test_a_planted_card_is_found_on_the_page(form: str, markup: str) -> None:
    found = find_cards(markup, [QS], [QS])
    assert found and all(f.startswith("QS:") for f in found), (form, found)


@pytest.mark.parametrize("form,markup", PLANTED, ids=[f for f, _ in PLANTED])
def test_a_planted_card_is_found_on_the_wire(form: str, markup: str) -> None:
    """The same markup inside a widget's state, as a JSON frame carries it."""
    frame = json.dumps({"header": {}, "content": {"data": {"state": {"value": markup}}}})
    [msg] = decode(frame)
    assert find_cards(text_of(msg), [], [QS]), form


def test_a_code_alone_in_a_widgets_state_is_found() -> None:
    frame = json.dumps({"content": {"data": {"state": {"card": "qs", "tooltip": "as"}}}})
    found = find_cards(text_of(decode(frame)[0]), [], [QS, AS])
    assert sorted(f.split(":")[0] for f in found) == ["AS", "QS"]


CLEAN = [
    "As Bob asked, the Queen showed a card.",
    "<table><tr><th>x</th><td>1</td></tr></table>",
    '<script src="static/js/require.js"></script><link href="/js/x.css">',
    '<div class="js-plotly jp-th qard-card-back">',
    "Questions: 3 · ask Q and S · qsort · the query string qs and more",
    '<option value="ts">TypeScript</option> <a href="#top">',
]


@pytest.mark.parametrize("text", CLEAN)
def test_words_that_look_like_codes_are_not_cards(text: str) -> None:
    assert find_cards(text, [QS, AS, JS, TH], [QS, AS, JS, TH]) == []


def test_a_frames_pictures_are_read_and_compared_by_digest() -> None:
    """A binary frame's buffers (a chart's PNG) come out whole in both wire formats, for the scan to compare
    by digest (two pictures of one length are two digests)."""
    msg = json.dumps({"header": {}, "content": {"data": {"buffer_paths": [["value"]]}}}).encode()
    one, two = b"\x89PNG" + bytes(range(60)), b"\x89PNG" + bytes(reversed(range(60)))
    parts = [b"iopub", b"{}", b"{}", b"{}", msg, one]
    head = 8 * (len(parts) + 1)
    offsets, at = [], head
    for p in parts:
        offsets.append(at)
        at += len(p)
    v1 = (
        len(parts).to_bytes(8, "little")
        + b"".join(o.to_bytes(8, "little") for o in offsets)
        + b"".join(parts)
    )
    assert buffers(v1) == [one]
    v0 = (2).to_bytes(4, "big") + (12).to_bytes(4, "big") + (12 + len(msg)).to_bytes(4, "big") + msg + two
    assert buffers(v0) == [two]
    assert buffers(json.dumps({"a": 1})) == []
    assert len(one) == len(two) and digest(one) != digest(two)
