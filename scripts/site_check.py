"""Build the documentation site and check it in headless Chromium; run by hand, not in CI.

Builds the site with ``mkdocs build --strict``, serves it on 127.0.0.1, and
with Playwright drives Debian's Chromium (``/usr/bin/chromium``) to check that
the navigation renders, the search finds a word, and code blocks are
highlighted. It saves screenshots of the start page and of an API page to
``docs/internal/site-start.png`` and ``docs/internal/site-api.png``.

Needs ``playwright`` (``pip install playwright``; its own browsers are not
used) and ``chromium`` (``apt-get install chromium``)::

    python scripts/site_check.py

Exits 1, naming what is wrong, when a check fails.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: A word the search must find, and the page its results must include.
SEARCH_WORD = "Injected"
#: The screenshots, and the page each shows.
SHOTS = {"site-start.png": "", "site-api.png": "reference/toolcall/"}
#: Seconds to wait for the page to do something: a guard against hanging, not a measurement.
WAIT_MS = 15_000


def build(site: Path) -> None:
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)], cwd=ROOT, check=True)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files and logs nothing, so the check's output stays its own."""

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def served(site: Path) -> Iterator[str]:
    """The site served on a free port of 127.0.0.1; yields its base URL."""
    handler = functools.partial(QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def check_navigation(page: Page) -> list[str]:
    links = page.locator("nav.md-nav--primary a.md-nav__link[href]")
    texts = {text.strip() for text in links.all_inner_texts()}
    wanted = {"Getting started", "OpenAI", "Anthropic", "MCP", "Gemini", "toolcall.errors"}
    return [f"navigation: no link {name!r}" for name in sorted(wanted - texts)]


def check_search(page: Page) -> list[str]:
    page.locator("label.md-search__icon, .md-search__input").first.click()
    # Typed key by key: the search listens to keyboard events, not to a filled-in value.
    page.locator("input.md-search__input").press_sequentially(SEARCH_WORD, delay=50)
    results = page.locator(".md-search-result__item")
    try:
        results.first.wait_for(timeout=WAIT_MS)
    except Exception:  # Playwright's timeout: the search showed nothing
        return [f"search: no results for {SEARCH_WORD!r}"]
    page.keyboard.press("Escape")
    return []


def check_code_blocks(page: Page) -> list[str]:
    # Pygments wraps tokens in spans inside ``pre code``: a keyword's span means the block was highlighted.
    highlighted = page.locator(".highlight pre code span.kn, .highlight pre code span.k")
    return [] if highlighted.count() else ["code blocks: no highlighted pre code element"]


def main() -> int:
    problems: list[str] = []
    with tempfile.TemporaryDirectory() as directory:
        site = Path(directory) / "site"
        build(site)
        with served(site) as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(base, wait_until="networkidle")
            problems += check_navigation(page)
            problems += check_code_blocks(page)
            problems += check_search(page)
            for name, path in SHOTS.items():
                page.goto(base + path, wait_until="networkidle")
                page.screenshot(path=str(ROOT / "docs" / "internal" / name))
            browser.close()
    for problem in problems:
        print(problem, file=sys.stderr)
    print("site check:", "failed" if problems else "navigation, search and code blocks render")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
