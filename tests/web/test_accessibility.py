"""Accessibility checks that could fail: WCAG AA contrast of the theme colours, labelled controls."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.web.conftest import Phone

CSS = (Path(__file__).resolve().parents[2] / "static" / "css" / "app.css").read_text(encoding="utf-8")

# (text, background) pairs the pages use for words.
PAIRS = [
    ("ink", "bg"),
    ("ink", "card"),
    ("muted", "card"),
    ("muted", "bg"),
    ("accent", "card"),
    ("accent", "bg"),
    ("accent-ink", "accent"),
    ("bad-ink", "bad-bg"),
    ("warn-ink", "warn-bg"),
    ("ok", "card"),
]


def variables(block: str) -> dict[str, str]:
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", block))


def themes() -> dict[str, dict[str, str]]:
    light = variables(CSS.split("@media (prefers-color-scheme: dark)")[0])
    dark_block = CSS.split("@media (prefers-color-scheme: dark)")[1].split("}\n}")[0]
    return {"light": light, "dark": {**light, **variables(dark_block)}}


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_text_colours_meet_wcag_aa_contrast(theme: str) -> None:
    colours = themes()[theme]
    failing = [
        (fg, bg, round(contrast(colours[fg], colours[bg]), 2))
        for fg, bg in PAIRS
        if contrast(colours[fg], colours[bg]) < 4.5
    ]
    assert failing == []


def test_the_contrast_check_would_catch_a_pale_colour() -> None:
    assert contrast("#777777", "#888888") < 4.5 and contrast("#000000", "#ffffff") == pytest.approx(21)


class Controls(HTMLParser):
    """Collects form controls and the labels that name them."""

    def __init__(self) -> None:
        super().__init__()
        self.controls: list[dict[str, str]] = []
        self.label_for: set[str] = set()
        self.in_label = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "label":
            self.in_label += 1
            if a.get("for"):
                self.label_for.add(a["for"])
        if tag in ("input", "select", "textarea") and a.get("type") != "hidden":
            a["_wrapped"] = "1" if self.in_label else ""
            self.controls.append(a)

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self.in_label -= 1


def unlabelled(html: str) -> list[str]:
    parser = Controls()
    parser.feed(html)
    return [
        c.get("name", "?")
        for c in parser.controls
        if not (c.get("aria-label") or c["_wrapped"] or c.get("id", "") in parser.label_for)
    ]


def test_every_control_on_the_main_pages_has_a_label(phone: Phone, client) -> None:
    assert unlabelled(client.get("/").data.decode()) == []
    phone.create()
    assert unlabelled(phone.html) == []
    phone.post("bring", {"player": 0, "colour": 5, "shield": "1d"})  # Lily: the Bonfire
    phone.florence(0, "bonfire")
    assert unlabelled(phone.open().html) == []
    assert unlabelled(client.get(phone.url + "/correct").data.decode()) == []
    assert unlabelled(client.get(phone.url + "/history").data.decode()) == []
    tally = client.post("/tally", data={"key": "tally-key-01", "name": ["Ana"]}).headers["Location"]
    assert unlabelled(client.get(tally).data.decode()) == []


def test_the_check_would_catch_an_unlabelled_input() -> None:
    assert unlabelled('<form><input name="x"><label for="y">Y</label><input id="y" name="y"></form>') == ["x"]
