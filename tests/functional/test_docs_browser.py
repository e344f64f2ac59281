"""The docs page in a real headless browser (Debian's chromium driven by Playwright) against a live server.

CI installs chromium (.ci/run); without it this test fails rather than skips: the page is only known to
work when a browser has rendered it.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import sync_playwright

PNG = b"\x89PNG\r\n\x1a\n"


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail("no chromium on PATH: install Debian's chromium (apt-get install -y chromium)")
    return found


def test_docs_page_renders_the_operations(live_server: str, tmp_path: Path) -> None:
    requested: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=_chromium(), headless=True)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1600})
            page.on("request", lambda request: requested.append(request.url))
            page.goto(live_server + "/docs")
            page.wait_for_selector(".opblock-summary-path", timeout=60_000)
            paths = page.locator(".opblock-summary-path").all_inner_texts()
            summaries = page.locator(".opblock-summary-description").all_inner_texts()
            # a person opens "Create content": its description, its example body, the body's schema
            create = page.locator(".opblock-post").filter(
                has=page.locator(".opblock-summary-description", has_text=re.compile("^Create content$"))
            )
            create.locator(".opblock-summary").click()
            create.locator(".opblock-body").wait_for(timeout=30_000)
            opened = create.locator(".opblock-body").inner_text()
            create.locator(".opblock-section-request-body").get_by_text("Schema", exact=True).click()
            schema = create.locator(".opblock-section-request-body .model-box").first.inner_text()
            screenshot = tmp_path / "docs.png"
            page.screenshot(path=str(screenshot))
        finally:
            browser.close()
    assert any(path.replace("\u200b", "") == "/content/objects" for path in paths), paths[:20]
    assert len(summaries) == len(paths) and "Load a section" in summaries  # plain words, every operation
    assert "content/create" in opened and "Errors:" in opened  # who may call it, what its errors mean
    assert '"ContentCreate"' in opened and "mainLanguageCode" in opened  # the example body
    assert "ContentCreate" in schema and "ContentType" in schema  # the body's schema, its properties
    spec = httpx.get(live_server + "/api/ibexa/v2/openapi.json").json()
    assert len(paths) == sum(len(item) for item in spec["paths"].values())  # every operation is listed
    assert screenshot.read_bytes().startswith(PNG)
    assert screenshot.stat().st_size > 10_000
    assert requested
    assert all(url.startswith(live_server) for url in requested), requested  # nothing from elsewhere
