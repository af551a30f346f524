"""Regenerate the web app's screenshots for docs/guides/web-app.md.

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.screenshot_web_app [--out-dir docs/figures]
        [--width 1280] [--height 820] [--chromium /usr/bin/chromium]

What it does: indexes ``examples/corpus`` into a temporary folder and starts
``citerag serve`` on a free loopback port (as ``screenshot_viewer.py`` does), then drives
Debian's ``chromium`` headless with Playwright: a two-turn conversation with a follow-up
(``web-app-conversation.png``), the Documents tab after uploading one file
(``web-app-documents.png``), the parsing review of the annual report
(``web-app-review.png``) and a refusal with *Where it looked* open and its first passage in
the viewer (``web-app-refusal.png``). ``--only NAME`` takes one of them (the others are
still driven through, unsaved). Nothing here touches the network beyond 127.0.0.1.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.common import TOKEN, start_server, stop_servers, wait_ready
from benchmarks.screenshot_viewer import CHROMIUM_ARGS

REPO = Path(__file__).resolve().parents[1]
FIRST = "What was Northwind's total revenue in 2025?"
FOLLOW_UP = "And the year before?"
UPLOAD = b"# Kestrel lighthouse\n\nThe Kestrel lighthouse lamp is serviced every 14 days.\n"
REFUSED = "How do I renew a UK passport?"
#: The screenshots, by the name ``--only`` takes.
SHOTS = ("conversation", "documents", "review", "refusal")


def screenshots(
    url: str, out_dir: Path, chromium: str, width: int, height: int, only: str | None = None
) -> None:
    """Sign in, converse, upload, review, ask what the corpus does not say; save the PNGs
    (``only``: just that one)."""
    from playwright.sync_api import expect, sync_playwright

    wait = 120_000
    out_dir.mkdir(parents=True, exist_ok=True)

    def shot(page: Any, name: str) -> None:
        if only in (None, name):
            page.screenshot(path=str(out_dir / f"web-app-{name}.png"))

    with sync_playwright() as pw, tempfile.TemporaryDirectory() as profile:
        context = pw.chromium.launch_persistent_context(
            profile,
            executable_path=chromium,
            args=CHROMIUM_ARGS,
            viewport={"width": width, "height": height},
        )
        try:
            page = context.pages[0] if context.pages else context.new_page()
            page.goto(f"{url}/")
            page.fill("#token", TOKEN)
            page.press("#token", "Enter")
            expect(page.locator("#thread")).to_have_attribute("data-restored", "0", timeout=wait)
            for question in (FIRST, FOLLOW_UP):
                page.fill("#question", question)
                page.click("#ask-button")
                expect(page.locator("#result")).to_have_attribute(
                    "data-state", "done", timeout=wait
                )
            page.locator("#rewritten summary").click()
            page.locator("#answer button.marker", has_text="[1]").first.click()
            expect(page.locator("#viewer")).to_have_attribute("data-state", "ready", timeout=wait)
            page.locator("#question").blur()
            shot(page, "conversation")

            page.click("#tab-docs")
            page.set_input_files(
                "#file-input",
                files=[{"name": "lighthouse.md", "mimeType": "text/markdown", "buffer": UPLOAD}],
            )
            expect(page.locator("#upload-list li").first).to_have_attribute(
                "data-status", "indexed", timeout=wait
            )
            expect(page.locator('#docs-body tr[data-name="lighthouse.md"]')).to_have_attribute(
                "data-status", "indexed", timeout=wait
            )
            shot(page, "documents")

            page.locator(
                '#docs-body tr[data-name="annual_report_2025.pdf"] button.review-doc'
            ).click()
            expect(page.locator("#review-pages")).to_have_attribute(
                "data-state", "ready", timeout=wait
            )
            second = page.locator("#review-pages .review-page").nth(1)
            second.evaluate("(el) => el.scrollIntoView({block: 'start'})")
            page.wait_for_function(
                "(el) => el.complete && el.naturalWidth > 0",
                arg=second.locator("img").element_handle(),
                timeout=wait,
            )
            shot(page, "review")

            page.click("#tab-ask")
            page.click("#new-thread")  # an empty thread: the refusal at the top
            page.fill("#question", REFUSED)
            page.click("#ask-button")
            expect(page.locator("#result")).to_have_attribute("data-state", "done", timeout=wait)
            page.locator("#looked summary").click()
            page.locator("#looked-list button.source").first.click()
            expect(page.locator("#viewer")).to_have_attribute("data-state", "ready", timeout=wait)
            page.locator("#question").blur()
            page.evaluate("window.scrollTo(0, 0)")
            shot(page, "refusal")
        finally:
            context.close()


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, start the server, take the screenshots, stop the server."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--out-dir", type=Path, default=REPO / "docs" / "figures")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=820)
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    ap.add_argument("--only", choices=SHOTS, default=None, help="save only this screenshot")
    args = ap.parse_args(argv)
    if not Path(args.chromium).exists():
        raise SystemExit(f"no chromium at {args.chromium} (apt-get install -y chromium)")
    work = Path(tempfile.mkdtemp(prefix="citerag-shots-"))
    proc: subprocess.Popen | None = None
    try:
        proc, url = start_server(work, None)
        wait_ready(url, proc)
        screenshots(url, args.out_dir, args.chromium, args.width, args.height, args.only)
        print(f"wrote {1 if args.only else len(SHOTS)} screenshot(s) to {args.out_dir}")
    finally:
        stop_servers(proc)
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
