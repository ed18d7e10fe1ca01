"""Reading what a Voila page and its kernel say to each other: websocket frames, widget models, card words.

A frame of the Jupyter kernel websocket is a JSON text (protocol v0), a binary v0 frame (JSON then
buffers) or a binary ``v1.kernel.websocket.jupyter.org`` frame (offsets, channel, then header, parent
header, metadata, content and buffers). :func:`decode` returns the JSON messages of a frame;
:func:`buffers` its binary buffers (the charts' PNG pictures, compared by digest: :func:`digest`).
:class:`Models` follows the widget models the messages open and update, so a scan can leave out exactly the
parts that list cards by design. :func:`find_cards` searches text for every form a card takes on the page
or on the wire: its code (in any case where markup puts one), its symbol and name, HTML entities, CSS and
JavaScript escapes, the Unicode playing cards (U+1F0A0-U+1F0FF), and SVG text split across elements.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from qardlab.cards import Card
from qardlab.games.five_sons import phrase

_REF = re.compile(r"IPY_MODEL_([0-9a-f]{32})")


def _json(data: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    return value if isinstance(value, dict) else None


def decode(payload: str | bytes) -> list[dict[str, Any]]:
    """The kernel messages in one websocket frame, as dicts with ``header``, ``content`` (and more)."""
    if isinstance(payload, str):
        msg = _json(payload.encode())
        return [msg] if msg is not None else [{"content": {"raw": payload}}]
    b = bytes(payload)
    # v1: uint64 count of offsets, the offsets, then channel, header, parent, metadata, content, buffers
    if len(b) >= 8:
        n = int.from_bytes(b[:8], "little")
        if 2 <= n <= 1000 and len(b) >= 8 * (n + 1):
            offs = [int.from_bytes(b[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(n)]
            if offs == sorted(offs) and offs[-1] <= len(b) and offs[0] == 8 * (n + 1):
                parts = [b[offs[i] : offs[i + 1] if i + 1 < n else len(b)] for i in range(n)]
                if len(parts) >= 5:
                    msg = {"channel": parts[0].decode("utf-8", "replace")}
                    for key, raw in zip(("header", "parent_header", "metadata", "content"), parts[1:5]):
                        msg[key] = _json(raw) or {}
                    return [msg]
    # v0 binary: uint32 count, uint32 offsets, the JSON message first, then buffers
    if len(b) >= 4:
        n = int.from_bytes(b[:4], "big")
        if 1 <= n <= 1000 and len(b) >= 4 * (n + 1):
            offs = [int.from_bytes(b[4 * (i + 1) : 4 * (i + 2)], "big") for i in range(n)]
            end = offs[1] if n > 1 else len(b)
            msg = _json(b[offs[0] : end]) if offs[0] < len(b) else None
            if msg is not None:
                return [msg]
    return [{"content": {"raw": b.decode("utf-8", "replace")}}]


def buffers(payload: str | bytes) -> list[bytes]:
    """The binary buffers of one websocket frame (a widget's picture), none for a text frame."""
    if isinstance(payload, str):
        return []
    b = bytes(payload)
    if len(b) >= 8:
        n = int.from_bytes(b[:8], "little")
        if 2 <= n <= 1000 and len(b) >= 8 * (n + 1):
            offs = [int.from_bytes(b[8 * (i + 1) : 8 * (i + 2)], "little") for i in range(n)]
            if offs == sorted(offs) and offs[-1] <= len(b) and offs[0] == 8 * (n + 1):
                parts = [b[offs[i] : offs[i + 1] if i + 1 < n else len(b)] for i in range(n)]
                if len(parts) >= 5:
                    return parts[5:]
    if len(b) >= 4:
        n = int.from_bytes(b[:4], "big")
        if 1 <= n <= 1000 and len(b) >= 4 * (n + 1):
            offs = [int.from_bytes(b[4 * (i + 1) : 4 * (i + 2)], "big") for i in range(n)]
            if offs == sorted(offs) and offs[-1] <= len(b):
                return [b[offs[i] : offs[i + 1] if i + 1 < n else len(b)] for i in range(1, n)]
    return []


def digest(data: bytes) -> str:
    """A picture as the scans compare it."""
    return hashlib.sha256(data).hexdigest()


def widget_states(msg: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(model id, state) pairs a message carries: comm_open, an update, or a whole update_states."""
    content = msg.get("content") or {}
    data = content.get("data") or {}
    out: list[tuple[str, dict[str, Any]]] = []
    comm = content.get("comm_id")
    if isinstance(data, dict):
        if isinstance(data.get("state"), dict) and comm:
            out.append((comm, data["state"]))
        states = data.get("states")
        if isinstance(states, dict):  # ipywidgets 8's reply to request_states
            for mid, s in states.items():
                if isinstance(s, dict):
                    out.append((mid, s.get("state", s)))
    return out


@dataclass
class Models:
    """The widget models seen so far: their merged state and who refers to whom."""

    states: dict[str, dict[str, Any]] = field(default_factory=dict)

    def feed(self, msg: dict[str, Any]) -> None:
        for mid, state in widget_states(msg):
            self.states.setdefault(mid, {}).update(state)

    def under(self, css_classes: Iterable[str]) -> set[str]:
        """The models whose DOM classes include one of ``css_classes``, and everything they reach."""
        wanted = set(css_classes)
        roots = [m for m, s in self.states.items() if wanted & set(s.get("_dom_classes") or ())]
        seen: set[str] = set()
        while roots:
            m = roots.pop()
            if m in seen:
                continue
            seen.add(m)
            roots.extend(_REF.findall(json.dumps(self.states.get(m, {}))))
        return seen


def without_models(msg: dict[str, Any], skip: set[str]) -> dict[str, Any]:
    """``msg`` with the states of the models in ``skip`` left out (the rest of it kept)."""
    content = dict(msg.get("content") or {})
    if content.get("comm_id") in skip:
        return {k: v for k, v in msg.items() if k != "content"}
    data = content.get("data")
    if isinstance(data, dict) and isinstance(data.get("states"), dict):
        data = dict(data)
        data["states"] = {m: s for m, s in data["states"].items() if m not in skip}
        content["data"] = data
    return {**msg, "content": content}


def text_of(msg: Any) -> str:
    """Every string inside a message, JSON-escaped characters decoded, joined by newlines."""
    parts: list[str] = []

    def walk(v: Any) -> None:
        if isinstance(v, str):
            parts.append(v)
        elif isinstance(v, dict):
            for k, x in v.items():
                parts.append(str(k))
                walk(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)

    walk(msg)
    return "\n".join(parts)


def _rank_span(card: Card) -> str:
    rank = "10" if card.rank == 10 else card.code[0]
    return f"<span>{rank}</span><span>{card.suit.symbol}</span>"


def strict_forms(card: Card) -> list[str]:
    """Forms that only a card shown face up takes: its face element, a hand button's tooltip, a shown-card
    phrase, an image's alt text. None of them may name a card the player cannot see, anywhere."""
    return [
        f'data-card="{card.code}"',
        f'data-card="{card.code.lower()}"',
        f'title="{card.name}',
        _rank_span(card),
        f"the {card.symbol}.",
        f"{card.name}: click",
        f"{card.name}: shown",
        f'alt="{card.name}',
        f'alt="{card.code}"',
        f'alt="{card.code.lower()}"',
        f'aria-label="{card.name}',
    ]


#: each suit's symbols: black and white, each maybe followed by a variation selector (text or emoji style)
_SUIT_SYMBOLS = {"♣": "♣♧", "♦": "♦♢", "♥": "♥♡", "♠": "♠♤"}
#: the first of each suit's Unicode playing cards (the ace; the rank is added, the knight C skipped)
_UNICODE_SUIT = {"♠": 0x1F0A0, "♥": 0x1F0B0, "♦": 0x1F0C0, "♣": 0x1F0D0}


def unicode_card(card: Card) -> str:
    """The card's Unicode playing card (U+1F0A1 is the ace of spades; jacks 0xB, queens 0xD, kings 0xE)."""
    rank = {14: 1, 11: 0xB, 12: 0xD, 13: 0xE}.get(card.rank, card.rank)
    return chr(_UNICODE_SUIT[card.suit.symbol] + rank)


def _rank_forms(card: Card) -> str:
    return "(?:10|T)" if card.rank == 10 else re.escape(card.code[0])


def loose_patterns(card: Card, five_sons: bool = False) -> list[re.Pattern[str]]:
    """Every word for the card: its code as a token, its symbol (rank then any form of its suit sign, maybe
    apart), its name (and, for a Five Sons number card, the words of a question: "eight sons"), its Unicode
    playing card; its code in lower case where markup puts a code (a quoted value, ``card-qs``, a file name
    ``qs.svg``, an attribute or query value ``=qs``, a line of its own). For a card nobody has named in
    public."""
    code = re.escape(card.code)
    suit = f"[{_SUIT_SYMBOLS[card.suit.symbol]}][\ufe0e\ufe0f]?"
    words = [rf"{_rank_forms(card)}[ \t]*{suit}", re.escape(card.name)]
    if five_sons and card.suit.symbol == "♥" and not card.is_face:
        words.append(re.escape(phrase("JC", card).split(" has ", 1)[1]))
    pats = [re.compile(rf"(?<![A-Za-z0-9_]){code}(?![A-Za-z0-9_])")]
    pats += [re.compile(rf"(?<![0-9]){w}", re.IGNORECASE) for w in words]
    pats.append(re.compile(re.escape(unicode_card(card))))
    pats += [
        re.compile(rf"(?<=[\"'#]){code}(?=[\"'])", re.IGNORECASE),
        re.compile(rf"(?<==){code}(?=[\s>&\"'])", re.IGNORECASE),
        re.compile(rf"(?<=card[-_]){code}(?![A-Za-z0-9])", re.IGNORECASE),
        re.compile(rf"(?<=[/\"'-]){code}(?=\.(?:svg|png|jpe?g|gif|webp)\b)", re.IGNORECASE),
        re.compile(rf"^{code}$", re.IGNORECASE | re.MULTILINE),
    ]
    return pats


_CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})[ \t]?")
_JS_ESCAPE = re.compile(r"\\u\{?([0-9a-fA-F]{4,6})\}?")
_TAG = re.compile(r"<[^>]*>")


def _char(m: re.Match[str]) -> str:
    n = int(m.group(1), 16)
    return chr(n) if 0 < n <= 0x10FFFF else m.group(0)


def readings(text: str) -> list[str]:
    """``text`` and what it reads as once decoded: HTML entities (``&spades;``, ``&#9824;``), CSS escapes
    (``\\2660``), JavaScript escapes (``\\u2660``), and with its tags taken out (an SVG's ``<text>Q</text>
    <text>♠</text>``). The scans search every reading."""
    out = [text]
    for reading in (html.unescape(text), _JS_ESCAPE.sub(_char, _CSS_ESCAPE.sub(_char, text))):
        if reading not in out:
            out.append(reading)
    bare = _TAG.sub("", html.unescape(_CSS_ESCAPE.sub(_char, text)))
    if bare not in out:
        out.append(bare)
    return out


#: words that name a card but say nothing of where it is: the game's title, the rules' reasons for a
#: refused card (a hand's button tooltip)
STATIC_TEXTS = (
    re.compile("The King of Hearts has Five Sons"),
    re.compile("a heart or the Queen of spades may not be played on the first trick"),
    re.compile(r"the holder of [2-9TJQKA][CDHS] must lead it"),
)


def find_cards(
    text: str,
    forbidden: Iterable[Card],
    loose: Iterable[Card] = (),
    five_sons: bool = False,
    said: Iterable[str] = (),
) -> list[str]:
    """What ``text`` gives away: a strict form of a forbidden card, or any word for a ``loose`` one.

    ``said``: sentences said in public that the loose scan leaves out (a card played in an earlier hand
    of a Hearts match is in the log, and back in someone's hand now)."""
    found = []
    forbidden, loose = list(forbidden), list(loose)
    if forbidden:
        strict_text = "\n".join(readings(text)[:2])  # as sent, and with its entities decoded
        for c in forbidden:
            for form in strict_forms(c):
                if form in strict_text:
                    found.append(f"{c.code}: {form!r}")
    if not loose:
        return found
    for static in STATIC_TEXTS:
        text = static.sub("", text)
    for sentence in said:
        text = text.replace(sentence, "")
    variants = readings(text)
    for c in loose:
        for p in loose_patterns(c, five_sons):
            for variant in variants:
                m = p.search(variant)
                if m:
                    lo, hi = max(0, m.start() - 60), m.end() + 60
                    found.append(f"{c.code}: {m.group(0)!r} in …{variant[lo:hi]!r}…")
                    break
    return found
