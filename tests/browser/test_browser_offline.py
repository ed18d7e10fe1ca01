"""A classroom without internet: the Voila apps ask nothing of any server but 127.0.0.1, and the icon font
(Font Awesome, which ipywidgets' Play and Button icons use) still loads, from Voila itself.

Voila 0.5's own "lab" template links Font Awesome from a CDN; qardlab's Voila template
(share/jupyter/voila/templates/qardlab, selected by jupyter-config/) drops those links, since the page's
bundle already carries the font."""

from __future__ import annotations

import re
import shutil
from typing import Any

import pytest
from browser_harness import NOTEBOOKS, ROOT, assert_rendered, voila_errors

pytestmark = pytest.mark.browser

LOCAL = re.compile(r"^(https?|wss?)://(127\.0\.0\.1|localhost)(:\d+)?/|^(data|blob|about):")

JS_ICON_FONT = """async () => {
  await document.fonts.load('900 16px "Font Awesome 5 Free"');
  await document.fonts.ready;
  const faces = [...document.fonts].filter((f) => f.family.includes('Font Awesome'));
  const icons = [...document.querySelectorAll('i.fa')].filter((e) => e.offsetParent !== null);
  return {
    loaded: faces.filter((f) => f.status === 'loaded').map((f) => f.family),
    check: document.fonts.check('900 16px "Font Awesome 5 Free"'),
    icons: icons.length,
    iconFonts: icons.slice(0, 5).map((e) => getComputedStyle(e, '::before').fontFamily),
    iconWidths: icons.slice(0, 5).map((e) => e.getBoundingClientRect().width),
  };
}"""


def test_template_and_config_are_in_the_package_data() -> None:
    """The template that drops the CDN links, and the two configs that select it, are installed."""
    text = (ROOT / "pyproject.toml").read_text()
    for path in (
        "share/jupyter/voila/templates/qardlab/index.html.j2",
        "share/jupyter/voila/templates/qardlab/conf.json",
        "jupyter-config/voila.json",
        "jupyter-config/jupyter_server_config.d/qardlab-voila.json",
    ):
        assert (ROOT / path).is_file(), path
        assert path in text, f"{path} is not in pyproject.toml's data-files"


@pytest.mark.parametrize("name", ["app-five-sons.ipynb", "app-hearts.ipynb"])
def test_app_asks_nothing_of_the_internet(name: str, voila: Any, page: Any, tmp_path: Any) -> None:
    """Every request the page makes goes to 127.0.0.1, and the icon font is loaded and used."""
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    copy = tmp_path / "notebooks"
    shutil.copytree(NOTEBOOKS, copy, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    server = voila(copy / name)
    page.goto(server.base + "/", wait_until="load", timeout=180_000)
    assert not voila_errors(page), voila_errors(page)
    assert_rendered(page, (".qard-app", ".qard-table"), timeout_ms=60_000)
    # the replay stepper (whose Play widget draws four icons) is hidden in live play: ask for it
    page.locator(".qard-replay-toggle").first.click()
    page.locator(".qard-stepper .widget-play").first.wait_for(state="visible", timeout=30_000)
    fonts = page.evaluate(JS_ICON_FONT)
    page.wait_for_timeout(300)
    elsewhere = sorted({u for u in requests if not LOCAL.match(u)})
    assert requests and not elsewhere, f"requests that left 127.0.0.1: {elsewhere}"
    assert fonts["check"] and any("Font Awesome 5 Free" in f for f in fonts["loaded"]), fonts
    assert fonts["icons"] > 0, "no visible icon on the page (the replay stepper's Play widget has four)"
    assert all("Font Awesome" in f for f in fonts["iconFonts"]), fonts
    assert all(w > 4 for w in fonts["iconWidths"]), f"icons drawn empty: {fonts}"
    assert not page.watch.errors, page.watch.errors
