"""Take the README's picture of a lesson: open a notebook in JupyterLab in headless Chromium, Run All,
scroll to a widget, save a PNG under docs/.

    python scripts/screenshot.py 01-five-sons-first-game.ipynb docs/lesson.png --scroll-to ".qard-hand"

Uses the browser-test harness (tests/browser/browser_harness.py) and Debian's Chromium.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from browser_harness import (  # noqa: E402
    CHROMIUM_ARGS,
    LabServer,
    find_chromium,
    local_only,
    open_notebook,
    run_all,
)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("notebook", help="file name under notebooks/")
    parser.add_argument("output", type=Path, help="PNG to write, e.g. docs/lesson.png")
    parser.add_argument("--scroll-to", default='[class*="qard-"]', help="CSS selector to bring into view")
    parser.add_argument("--nth", type=int, default=0, help="which match of --scroll-to")
    parser.add_argument("--block", default="start", choices=["start", "center", "end"], help="where it lands")
    parser.add_argument("--width", type=int, default=1100)
    parser.add_argument("--height", type=int, default=700)
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    chromium = find_chromium()
    if chromium is None:
        sys.exit("no Chromium found: apt-get install chromium")
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        lab = LabServer.start(Path(tmp))
        try:
            browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": args.width, "height": args.height})
            local_only(context)
            page = context.new_page()
            open_notebook(page, lab, args.notebook)
            run_all(page)
            page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
            page.evaluate("() => window.jupyterapp.shell.collapseRight()")
            target = page.locator(args.scroll_to).nth(args.nth)
            target.wait_for(state="attached", timeout=30_000)
            target.evaluate("(el, block) => el.scrollIntoView({block})", args.block)
            page.wait_for_timeout(500)
            args.output.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(args.output))
            browser.close()
        finally:
            lab.stop()
    print(f"wrote {args.output} ({args.output.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
