"""Our games: the games a phone remembers, each player's figures across them, and the CSV."""

from __future__ import annotations

import csv
import io
import re

from flask.testing import FlaskClient

from companion.formats.export import score_export
from tests.web.pages.test_after_game import timed_log, upload


def test_our_games_lists_the_phones_games_with_figures_a_chart_and_a_csv(client: FlaskClient) -> None:
    finished = timed_log()
    _edition, sheet = score_export(finished)
    totals = {p.name: p.total for p in sheet.players}
    first = upload(client, finished)
    second = upload(client, finished)
    going = upload(client, timed_log(last_action=69))
    other_phone = client.application.test_client()
    upload(other_phone, timed_log())  # never listed on this phone

    html = client.get("/our-games").data.decode()
    for url in (first, second, going):
        assert f'href="{url}/score"' in html
    assert html.count("still going") == 1
    assert html.count("Winner: Ana") == 2
    ana = re.search(r'<tr aria-label="Ana">(.*?)</tr>', html, re.S).group(1)
    cells = re.findall(r"<td>([^<]*)</td>", ana)
    assert cells == ["2", "2", f"{float(totals['Ana'])}", str(totals["Ana"])]
    ben = re.findall(r"<td>([^<]*)</td>", re.search(r'<tr aria-label="Ben">(.*?)</tr>', html, re.S).group(1))
    assert ben == ["2", "0", f"{float(totals['Ben'])}", str(totals["Ben"])]
    chart = html.split('class="chart"')[1]
    assert "<svg" in chart and "<script" not in chart

    response = client.get("/our-games.csv")
    assert response.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(response.data.decode())))
    assert len(rows) == 6  # three games, two players each
    done = [r for r in rows if r["finished"] == "true"]
    assert {(r["player"], int(r["score"]), r["winner"]) for r in done} == {
        ("Ana", totals["Ana"], "true"),
        ("Ben", totals["Ben"], "false"),
    }
    assert all(r["date"] == "2026-11-28 19:30" for r in rows)


def test_a_name_that_looks_like_a_formula_is_defused_in_the_csv(client: FlaskClient) -> None:
    data = timed_log()
    data["setup"]["players"][1]["name"] = "=HYPERLINK(1)"
    for row in data["events"]:
        if row["type"] == "GameCreated":
            row["data"]["players"][1]["name"] = "=HYPERLINK(1)"
        if row["command"] and row["command"]["type"] == "CreateGame":
            row["command"]["data"]["players"][1]["name"] = "=HYPERLINK(1)"
    upload(client, data)
    text = client.get("/our-games.csv").data.decode()
    assert "'=HYPERLINK(1)" in text
    assert "\n=HYPERLINK" not in text and ",=HYPERLINK" not in text
