"""The report in a real browser: Debian's chromium, driven by Playwright, opens the front page of
a report the size of the main job in under two seconds and follows one drill-down.

The browser is installed by this set-up when missing (``apt-get install chromium``, as root,
as CI runs); Playwright drives it through ``executable_path`` (no bundled browser download).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time

import pytest

from conformance.report import write_reports

from .synthetic import main_job_rows, write_dataset

pytestmark = pytest.mark.slow

OPEN_LIMIT_S = 2.0
# Flags for a sandboxed machine with a closed network: no background connections at start.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _chromium() -> str:
    found = shutil.which("chromium")
    if found:
        return found
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        pytest.fail("chromium is missing and cannot be installed here (needs root and apt-get): "
                    "install Debian's chromium package")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, timeout=600)
    subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], check=True, env=env, timeout=1200)
    return shutil.which("chromium") or pytest.fail("apt-get installed chromium but it is not on PATH")


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=_chromium(), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def main_job_report(tmp_path_factory):
    root = tmp_path_factory.mktemp("browser")
    summary = write_reports(write_dataset(main_job_rows(), root / "results", parts=8), root / "report")
    assert summary.total > 100_000
    return root / "report"


def test_front_page_opens_fast_and_a_drill_down_renders(browser, main_job_report):
    page = browser.new_page()
    started = time.monotonic()
    page.goto((main_job_report / "index.html").as_uri(), wait_until="load")
    opened = time.monotonic() - started
    assert opened < OPEN_LIMIT_S, f"front page took {opened:.2f} s"
    load_ms = page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
    assert load_ms < OPEN_LIMIT_S * 1000
    assert page.locator("h1").inner_text().startswith("Conformance report")
    engines = page.locator("#engines + p + table tbody tr")
    assert engines.count() == 13
    # the front page is the status table; a square drills down to the cells behind it
    status = page.locator("table.status").first
    assert status.is_visible() and status.locator("td.st a").count() > 13
    status.locator("td.st a", has_text="\u2717").first.click()  # a square with wrong cells
    page.wait_for_load_state("load")
    assert "/status/parquet/" in page.url
    evidence = page.locator("a[href*='pairs/'] >> visible=true")  # the failing cells, listed
    assert evidence.count() > 0
    evidence.first.click()
    page.wait_for_load_state("load")
    anchor = page.url.split("#")[1]
    assert page.locator(f"[id='{anchor}']").is_visible()
    page.go_back()
    page.go_back()
    # drill down: an engine's page, then one pair of its cells with the evidence anchored
    page.locator("a[href='engines/engine03.html']").first.click()
    page.wait_for_load_state("load")
    assert page.locator("h1").inner_text().startswith("engine03")
    assert page.locator("td", has_text="reads").first.is_visible()
    page.goto((main_job_report / "grid.html").as_uri(), wait_until="load")
    square = page.locator("table.grid td.sq.fails a").first
    square.click()
    page.wait_for_load_state("load")
    assert page.url.split("/")[-2] == "pairs"
    failed = page.locator("h2", has_text="Failed")
    assert failed.is_visible() and page.locator("table.fails tbody tr").count() > 0
    page.close()
