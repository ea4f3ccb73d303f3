"""First load of a page in Chromium (Pixel 7 profile, a fresh context each): every resource's bytes on the wire
(compressed as served) and decompressed."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import sync_playwright

from testkit.live_client import CHROMIUM_ARGS, chromium_path

__all__ = ["bench_first_load"]


def bench_first_load(port: int, pages: dict[str, str]) -> dict[str, Any]:
    """Open each page in a fresh Pixel 7 context; every response's bytes on the wire and decompressed."""
    results: dict[str, Any] = {}
    base = f"http://127.0.0.1:{port}"
    with sync_playwright() as pw:
        launch: dict[str, Any] = {"args": CHROMIUM_ARGS, "headless": True}
        executable = chromium_path()  # else Playwright's own download
        if executable:
            launch["executable_path"] = executable
        browser = pw.chromium.launch(**launch)
        results["browser"] = browser.version
        device = dict(pw.devices["Pixel 7"])
        for label, path in pages.items():
            context = browser.new_context(**device)
            page = context.new_page()
            seen: list[Any] = []

            def finished(req: Any, into: list[Any] = seen) -> None:
                into.append(req)

            page.on("requestfinished", finished)
            page.goto(base + path, wait_until="load")
            page.wait_for_timeout(750)  # deferred scripts, icons
            resources = []
            for req in seen:
                response = req.response()
                if response is None:
                    continue
                kind = (response.headers.get("content-type") or "").split(";")[0]
                if kind == "text/event-stream":
                    continue
                sizes = req.sizes()
                try:
                    body = len(response.body())
                except Exception:  # a redirect has no body
                    body = 0
                resources.append(
                    {
                        "url": req.url.removeprefix(base)[:60],
                        "type": kind,
                        "encoding": response.headers.get("content-encoding", ""),
                        "wire_bytes": sizes["responseBodySize"],
                        "bytes": body,
                    }
                )
            context.close()
            results[label] = {
                "path": path,
                "resources": resources,
                "wire_bytes": sum(r["wire_bytes"] for r in resources),
                "bytes": sum(r["bytes"] for r in resources),
            }
        browser.close()
    return results
