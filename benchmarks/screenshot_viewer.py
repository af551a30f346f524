"""Regenerate the README's viewer screenshot (``docs/figures/viewer.png``).

Usage (from the repository root)::

    .venv/bin/python -m benchmarks.screenshot_viewer [--out docs/figures/viewer.png]
        [--width 1280] [--height 820] [--chromium /usr/bin/chromium]

What it does:

1. Builds an index of ``examples/corpus`` in a temporary folder (``citerag ingest``), writes a
   token file and starts ``citerag serve`` on a free loopback port; waits for ``/ready``.
2. Drives Debian's ``chromium`` headless with Playwright (no ``playwright install``): opens
   ``/app/``, signs in, asks "What was Northwind's total revenue in 2025?", clicks ``[1]``
   and waits until the cited PDF page is shown with its highlight.
3. Saves a screenshot of the window as a PNG, then stops the server and removes the folder.

Nothing here touches the network beyond 127.0.0.1.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.common import TOKEN, start_server, stop_servers, wait_ready

REPO = Path(__file__).resolve().parents[1]
QUESTION = "What was Northwind's total revenue in 2025?"
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


def screenshot(url: str, out: Path, chromium: str, width: int, height: int) -> None:
    """Sign in, ask, open ``[1]`` and save the window as a PNG."""
    from playwright.sync_api import expect, sync_playwright

    wait = 120_000
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as profile:
        context = pw.chromium.launch_persistent_context(
            profile,
            executable_path=chromium,
            args=CHROMIUM_ARGS,
            viewport={"width": width, "height": height},
        )
        try:
            page = context.pages[0] if context.pages else context.new_page()
            page.goto(f"{url}/app/")
            page.fill("#token", TOKEN)
            page.press("#token", "Enter")
            expect(page.locator("#workspace")).to_be_visible(timeout=wait)
            page.fill("#question", QUESTION)
            page.click("#ask-button")
            expect(page.locator("#result")).to_have_attribute("data-state", "done", timeout=wait)
            page.locator("#answer button.marker", has_text="[1]").first.click()
            expect(page.locator("#viewer")).to_have_attribute("data-state", "ready", timeout=wait)
            page.locator("#question").blur()
            out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(out))
        finally:
            context.close()


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, start the server, take the screenshot, stop the server."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--out", type=Path, default=REPO / "docs" / "figures" / "viewer.png")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=820)
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = ap.parse_args(argv)
    if not Path(args.chromium).exists():
        raise SystemExit(f"no chromium at {args.chromium} (apt-get install -y chromium)")
    work = Path(tempfile.mkdtemp(prefix="citerag-shot-"))
    proc: subprocess.Popen | None = None
    try:
        proc, url = start_server(work, None)  # index examples/corpus, serve it
        wait_ready(url, proc)
        screenshot(url, args.out, args.chromium, args.width, args.height)
        print(f"wrote {args.out}")
    finally:
        stop_servers(proc)
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
