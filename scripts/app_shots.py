"""Screenshots of both game apps in Voila (headless Chromium) at a desk's and a projector's size: the
first screen, and the screen after a few clicks, as a player sees them (the viewport, no scrolling) and
the whole page.

    python scripts/app_shots.py before   # writes artifacts/screenshots/issue11/before-*.png

Uses the browser-test harness (tests/browser/browser_harness.py); the kernels import this checkout.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from browser_harness import CHROMIUM_ARGS, NOTEBOOKS, VoilaServer, find_chromium, local_only, stop  # noqa: E402

SIZES = ((1280, 900), (1024, 768))


def _clicks(page: Any, app: str) -> None:
    """A few moves by clicking: Five Sons asks (and passes a claim if asked to), Hearts passes three cards."""
    if app == "five-sons":
        for _ in range(3):
            for sel in (".qard-no-claim:visible", ".qard-ask:visible"):
                loc = page.locator(sel)
                if loc.count():
                    loc.first.click()
                    page.wait_for_timeout(1500)
                    break
    else:
        cards = page.locator("button.qard-card:visible")
        for i in range(3):
            cards.nth(i).click()
            page.wait_for_timeout(300)
        page.locator(".qard-pass:visible").first.click()
        page.wait_for_timeout(1500)
        for _ in range(2):
            card = page.locator("button.qard-card:not(.qard-illegal):visible")
            if card.count():
                card.first.click()
                page.wait_for_timeout(1200)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("label", help="a prefix for the files, e.g. before or after")
    parser.add_argument("--out", type=Path, default=ROOT / "artifacts" / "screenshots" / "issue11")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    os.environ["PYTHONPATH"] = str(ROOT)  # the kernels import this checkout
    from playwright.sync_api import sync_playwright

    chromium = find_chromium()
    if chromium is None:
        sys.exit("no Chromium found: apt-get install chromium")
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        copy = Path(tmp) / "notebooks"
        shutil.copytree(NOTEBOOKS, copy, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        for app in ("five-sons", "hearts"):
            server = VoilaServer.start(copy / f"app-{app}.ipynb", Path(tmp) / app)
            try:
                for w, h in SIZES:
                    ctx = browser.new_context(viewport={"width": w, "height": h})
                    local_only(ctx)
                    page = ctx.new_page()
                    errors: list[str] = []
                    page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
                    page.goto(server.base + "/", wait_until="load", timeout=180_000)
                    page.locator(".qard-table").first.wait_for(timeout=60_000)
                    page.wait_for_timeout(1500)
                    stem = f"{args.label}-{app}-{w}x{h}"
                    page.screenshot(path=str(args.out / f"{stem}-first.png"))
                    _clicks(page, app)
                    page.screenshot(path=str(args.out / f"{stem}-played.png"))
                    page.screenshot(path=str(args.out / f"{stem}-played-full.png"), full_page=True)
                    print(stem, "errors:", errors)
                    ctx.close()
            finally:
                stop(server.proc)
        browser.close()


if __name__ == "__main__":
    main()
