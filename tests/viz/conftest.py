"""Browser fixtures for the page tests: Debian's headless Chromium driven by playwright (no browser download)."""

from __future__ import annotations

from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
VIEWER_READY = "window.kgViewer && window.kgViewer.state.ready"



@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if not CHROMIUM.exists():
        pytest.skip("needs Debian's chromium at /usr/bin/chromium (scripts/install-system-deps.sh)")
    sync_api = pytest.importorskip("playwright.sync_api")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), args=ARGS, headless=True,
            viewport={"width": 1280, "height": 800},
        )
        yield context
        context.close()


@pytest.fixture
def open_page(browser):
    """Open a file in a new tab; the tab records console errors, page errors, dialogs and
    every request that leaves the file (a self-contained page makes none)."""
    pages = []

    def opener(path: Path, timeout: float = 30_000, ready: str = VIEWER_READY):
        page = browser.new_page()
        page.problems, page.dialogs, page.requests = [], [], []
        page.on("console", lambda m: m.type == "error" and page.problems.append(m.text))
        page.on("pageerror", lambda e: page.problems.append(str(e)))
        page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
        page.on("request", lambda r: r.url.startswith(("file:", "data:", "blob:")) or page.requests.append(r.url))
        page.goto(path.resolve().as_uri())
        page.wait_for_function(ready, timeout=timeout)
        pages.append(page)
        return page

    yield opener
    for page in pages:
        page.close()
