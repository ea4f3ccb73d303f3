"""Our games: the games a phone remembers, each player's figures across them, and the CSV."""

from __future__ import annotations

import csv
import io
import re

from flask.testing import FlaskClient

from companion.formats.export import score_export
from tests.builders import found
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
    ana = found(r'<tr aria-label="Ana">(.*?)</tr>', html, re.S).group(1)
    cells = re.findall(r"<td>([^<]*)</td>", ana)
    assert cells == ["2", "2", f"{float(totals['Ana'])}", str(totals["Ana"])]
    ben = re.findall(r"<td>([^<]*)</td>", found(r'<tr aria-label="Ben">(.*?)</tr>', html, re.S).group(1))
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


def test_a_quick_tally_is_listed_in_our_games_and_counts_once_complete(client: FlaskClient) -> None:
    from tests.web.conftest import HX
    from tests.web.pages.test_score_pages import seq_of, start_tally

    url = start_tally(client, ("Ana", "Ben"))
    html = client.get("/our-games").data.decode()
    assert f'href="{url}"' in html and "Quick tally" in html and "not all entered yet" in html
    assert "Winner:" not in html  # nothing is won before every entry is made
    page = client.get(url).data.decode()
    form = {"seq": seq_of(page), "key": "k-our-games-tally", "infamy-1": "33", "infamy-0": "20"}
    client.post(url + "/sheet", data=form, headers=HX)
    html = client.get("/our-games").data.decode()
    assert f'href="{url}"' in html and "Winner: Ben" in html
    ben = re.findall(r"<td>([^<]*)</td>", found(r'<tr aria-label="Ben">(.*?)</tr>', html, re.S).group(1))
    assert ben == ["1", "1", "33.0", "33"]
    rows = list(csv.DictReader(io.StringIO(client.get("/our-games.csv").data.decode())))
    assert [(r["player"], r["score"], r["winner"], r["finished"], r["kind"]) for r in rows] == [
        ("Ana", "20", "false", "true", "tally"),
        ("Ben", "33", "true", "true", "tally"),
    ]
    client.get("/lang/es")
    assert "Recuento rápido" in client.get("/our-games").data.decode()


def test_the_csv_marks_no_winner_in_an_unfinished_game_and_names_its_charset_once(client: FlaskClient) -> None:
    upload(client, timed_log(last_action=10))  # both players still on 0 infamy: both "first"
    response = client.get("/our-games.csv")
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.DictReader(io.StringIO(response.data.decode())))
    assert len(rows) == 2 and {r["place"] for r in rows} == {"1"}
    assert [(r["winner"], r["finished"], r["kind"]) for r in rows] == [("false", "false", "game")] * 2
