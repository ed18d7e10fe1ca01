"""Issue 10 §5: the HTML has one home. The element helper escapes what it writes, every colour is named in
the palette or the style sheet, and one grid renderer with one shading serves every grid."""

from __future__ import annotations

import io
import re
import tokenize
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from qardlab import palette
from qardlab.cards import Card, hand_element, hand_html
from qardlab.render import style
from qardlab.render.grid import cell_color, cell_text, grid_html
from qardlab.render.markup import el, to_html, to_xml

ROOT = Path(__file__).resolve().parents[2]
#: the only files of the package that may spell a colour
COLOUR_HOMES = {"qardlab/palette.py", "qardlab/render/style.py"}
_HEX = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?(?:[0-9a-fA-F]{2})?\b")
_NAMED = re.compile(r"^(?:white|black|red|crimson|green|blue|grey|gray|navy|orange|yellow)$")


def test_element_helper_escapes_text_and_attributes() -> None:
    e = el(
        "span",
        'Bob <b>&</b> "Eve"',
        el("i", "x<y"),
        " & tail",
        cls=["a", None, "b"],
        title='say "hi" <now>',
        data_seat=3,
        hidden=True,
        skipped=None,
        off=False,
        style={"color": "red", "left": None},
    )
    html = to_html(e)
    assert "<b>" not in html and "&lt;b&gt;&amp;&lt;/b&gt;" in html
    assert "x&lt;y" in html and "</i> &amp; tail" in html
    assert 'title="say &quot;hi&quot; <now&gt;"' in html  # a quoted attribute: "<" cannot open a tag there
    assert 'class="a b"' in html and 'data-seat="3"' in html and 'hidden=""' in html
    assert "skipped" not in html and "off" not in html and 'style="color:red"' in html
    # what it writes parses back to the same words: nothing a name holds can break the page
    back = ET.fromstring(to_xml(e))
    assert back.text == 'Bob <b>&</b> "Eve"' and back.get("title") == 'say "hi" <now>'
    assert "".join(back.itertext()) == 'Bob <b>&</b> "Eve"x<y & tail'


def test_element_helper_writes_empty_html_elements_open_and_closed() -> None:
    assert to_html(el("div")) == "<div></div>"
    assert to_xml(el("line", x1=1.0, y1=2.5)) == '<line x1="1" y1="2.5" />'


class _Tags(HTMLParser):
    """The start tags a browser would see."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.titles: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)
        self.titles += [v for k, v in attrs if k == "title"]


def _parse(markup: str) -> _Tags:
    p = _Tags()
    p.feed(markup)
    return p


def test_a_hostile_name_stays_text_in_grid_and_hand() -> None:
    c = Card.parse("QH")
    html = grid_html({c: {0: "yes", 1: 0.25}}, [0, 1], {0: "<script>x</script>", 1: "B&B"})
    assert "script" not in _parse(html).tags and "&lt;script&gt;" in html and "B&amp;B" in html
    row = _parse(hand_html([c], title='"><img src=x>'))
    assert "img" not in row.tags and 'Queen of Hearts: "><img src=x>' in row.titles


def _colour_literals(path: Path) -> list[tuple[int, str]]:
    """Colour literals in the string constants of a Python file (comments and docstrings left out)."""
    found = []
    tokens = list(tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline))
    for i, tok in enumerate(tokens):
        if tok.type not in (tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", -1)):
            continue
        before = tokens[i - 1].type if i else tokenize.NEWLINE
        if before in (
            tokenize.INDENT,
            tokenize.NEWLINE,
            tokenize.NL,
            tokenize.DEDENT,
        ) and tok.string.startswith(('"""', "'''", 'r"""')):
            continue  # a docstring
        text = tok.string.strip("'\"rbfu")
        for m in _HEX.finditer(tok.string):
            found.append((tok.start[0], m.group(0)))
        if _NAMED.match(text):
            found.append((tok.start[0], text))
    return found


def test_no_colour_literal_lives_outside_the_palette_and_the_style_sheet() -> None:
    offenders = {}
    for path in sorted((ROOT / "qardlab").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel in COLOUR_HOMES:
            continue
        hits = _colour_literals(path)
        if hits:
            offenders[rel] = hits
    assert not offenders, f"colour literals outside {sorted(COLOUR_HOMES)}: {offenders}"


def test_the_colour_test_finds_a_literal(tmp_path: Path) -> None:
    """The grep above is real: it finds a hex colour and a named one in a string, not in a comment."""
    sample = tmp_path / "colour_sample.py"
    sample.write_text(
        '"""doc #abc"""\nx = "color:#c8102e"  # #fff in a comment\ny = "white"\n', encoding="utf-8"
    )
    assert _colour_literals(sample) == [(2, "#c8102e"), (3, "white")]


def test_one_shading_for_every_grid() -> None:
    """The widget grid, a Knowledge's table and Hearts' counting panel shade a cell the same way."""
    from qardlab.widgets import grid as widget_grid

    assert widget_grid.cell_color is cell_color and widget_grid.cell_text is cell_text
    assert cell_color("yes") == palette.GRID_YES and cell_color("no") == palette.GRID_NO
    assert cell_color(None) == palette.GRID_UNKNOWN == palette.PAPER
    assert cell_color(0.5) == palette.probability_shade(0.5) != cell_color(0.9)
    assert cell_text(1.0) == "✓" and cell_text(0.0) == "✗" and cell_text(0.255) == "26%"
    html = grid_html({Card.parse("KS"): {0: 0.5}}, [0], {0: "Bob"})
    assert f"background:{palette.probability_shade(0.5)}" in html and 'class="qard-prob"' in html


def test_one_style_sheet_holds_the_felt_the_table_the_grid_and_the_focus_ring() -> None:
    from qardlab.widgets import base, felt

    sheet = style.STYLESHEET
    assert base.TABLE_CSS == sheet and felt.FELT_CSS in sheet and palette.FOCUS_CSS in sheet
    for cls in (
        "qard-felt-ring",
        "qard-seat",
        "qard-dealer",
        "qard-turn",
        "qard-felt-prompt",
        "qard-grid-table",
        "qard-status-error",
        "qard-marked",
    ):
        assert f".{cls}" in sheet, cls
    named = {v for v in vars(palette).values() if isinstance(v, str)}
    assert _HEX.findall(sheet) and all(c in named for c in _HEX.findall(sheet))  # every colour a palette name


@pytest.mark.parametrize("deck", ["two", "four"])
def test_one_row_of_cards_for_hands_backs_and_shown_cards(deck: str) -> None:
    cards = [Card.parse("QH"), Card.parse("2C")]
    with palette.using(deck):
        row = to_html(hand_element(cards, backs=2, title="shown to you"))
    assert row.count('class="qard-card"') == 2 and row.count("qard-card-back") == 2
    assert 'aria-label="Queen of Hearts: shown to you"' in row and palette.suit_color("C", deck) in row
    assert 'aria-label="Queen of Hearts, Two of Clubs, 2 hidden cards"' in row
    assert "no cards" in hand_html([]) and "qard-none" in hand_html([])
