"""Issue 26, item 4: a right-to-left name is isolated wherever it is shown, as on the other pages:
in the live presence list, in the play-time table, and as an edition's name (from its file or saved)."""

from __future__ import annotations

import io
import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Flask

from companion.editions import library
from companion.web.http.db import service
from companion.web.live.stream import presence_html

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "base-two-players.json"
RLO = "\u202e"
WORDS = {"here": "here", "away": "away", "shared": "shared phones: %(n)s", "viewer": "big screens: %(n)s"}


def isolated(page: str, name: str) -> bool:
    """Whether every showing of ``name`` on ``page`` is inside a <bdi> or between FSI and PDI (a form's
    hidden value, sent back as it is, is no showing)."""
    shown = [m.start() for m in re.finditer(re.escape(name), page) if not page[: m.start()].endswith('value="')]
    return bool(shown) and all(page[:at].endswith("<bdi>") or page[:at].endswith("\u2068") for at in shown)


def test_the_presence_list_isolates_a_right_to_left_name() -> None:
    html = presence_html([(f"{RLO}Ana", "A"), ("Ben", "B")], {"0": 1}, WORDS)
    assert isolated(html, f"{RLO}Ana"), html
    assert "<bdi>Ben" not in html  # a left-to-right name stays as typed


def test_the_play_time_table_isolates_a_right_to_left_name(app: Flask) -> None:
    client = app.test_client()
    text = FIXTURE.read_text(encoding="utf-8").replace('"Ana"', f'"{RLO}Ana"')
    data = json.loads(text)
    start = datetime(2026, 11, 28, 19, 30, tzinfo=UTC)
    for row in data["events"]:  # one minute per action, so the table has times to show
        row["recorded_at"] = (start + timedelta(minutes=row["action"] - 1)).isoformat(timespec="milliseconds")
    body = {"file": (io.BytesIO(json.dumps(data).encode()), "game.json")}
    made = client.post("/import", data=body, content_type="multipart/form-data")
    assert made.status_code == 303, made.data
    page = client.get(made.headers["Location"] + "/score").get_data(as_text=True)
    table = page.split('class="card play-time"', 1)[1].split("</section>", 1)[0]
    assert isolated(table, f"{RLO}Ana"), table


def _shipped(app: Flask) -> dict[str, Any]:
    with app.app_context():
        svc = service()
        return dict(json.loads(svc.library.edition_text(next(iter(svc.library.shipped.values()))[1].content_hash)))


def test_edition_names_are_isolated_from_the_file_and_as_saved(app: Flask) -> None:
    client = app.test_client()
    text = library.to_text(library.with_name(_shipped(app), f"{RLO}Board file"))
    opened = client.post("/editions/import", data={"text": text})
    assert opened.status_code == 303, opened.data
    draft = opened.headers["Location"].split("?")[0]
    assert client.post(f"{draft}/save", data={"name": f"{RLO}Our board"}).status_code == 303
    page = client.get("/editions").get_data(as_text=True)
    assert isolated(page, f"{RLO}Our board"), page
    shared = client.post("/editions/mine/share", data={"name": f"{RLO}Our board"})
    assert shared.status_code == 303
    page = client.get(shared.headers["Location"]).get_data(as_text=True)
    assert isolated(page, f"{RLO}Our board")
    assert client.post("/editions/mine/publish", data={"name": f"{RLO}Our board", "published": "yes"}).status_code < 400
    page = client.get("/editions/published").get_data(as_text=True)
    assert f"{RLO}Our board" not in page or isolated(page, f"{RLO}Our board")
