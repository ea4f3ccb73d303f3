"""The score sheet and the quick tally on the phone."""

from __future__ import annotations

import re

from tests.builders import found, game_view
from tests.web.conftest import HX, Phone


def test_the_score_sheet_during_play_says_if_the_game_ended_now(phone: Phone, client) -> None:
    phone.create()
    page = client.get(phone.url + "/score").data.decode()
    assert "If the game ended now" in page
    assert "Shared first place: Ana, Ben" in page  # both at 0
    assert page.count('class="card player-score"') == 2
    assert "<svg" in page and "Infamy over the turns" in page
    assert "<script" not in page.split("Infamy over the turns")[1]


def start_tally(client, names=("Ana", "Ben", "Cleo")) -> str:
    response = client.post("/tally", data={"key": "tally-key-01", "name": list(names)})
    assert response.status_code == 303
    return response.headers["Location"]


def seq_of(html: str) -> int:
    return int(found(r'data-seq="(\d+)"', html).group(1))


def test_a_quick_tally_scores_as_entries_arrive(client) -> None:
    url = start_tally(client)
    html = client.get(url).data.decode()
    response = client.post(
        url + "/circle", data={"seq": seq_of(html), "key": "k-circle-1", "circle": 3, "empty": 1, "cube": 4}, headers=HX
    )
    html = response.data.decode()
    response = client.post(
        url + "/player",
        data={
            "seq": seq_of(html),
            "key": "k-player-1",
            "player": 1,
            "infamy": 20,
            "skulls": ["0", "2", "0", "0", "0", "0", "0", "0"],
            "diplomas": ["3"],
            "half_diplomas": "0",
            "ship": "0",
            "fraud_effect": ["", ""],
            "fraud_amount": ["", ""],
            "fraud_track": ["", ""],
        },
        headers=HX,
    )
    html = response.data.decode()
    assert response.status_code == 200
    assert "Winner: Ben with 28 infamy" in html  # 20 + green 4 (space 4, one empty) × 2
    row = found(r'aria-label="Ben, circle 3">(.*?)</tr>', html, re.S).group(1)
    assert "4 × 2 = <strong>8</strong>" in row


def test_an_out_of_range_tally_entry_is_refused_with_the_range(client) -> None:
    url = start_tally(client)
    html = client.get(url).data.decode()
    response = client.post(
        url + "/circle", data={"seq": seq_of(html), "key": "k-circle-x", "circle": 9, "empty": 7, "cube": 2}, headers=HX
    )
    assert response.status_code == 422
    assert "Empty shields must be between 0 and 4; you entered 7." in response.data.decode()


def test_a_tally_entry_can_be_undone(client) -> None:
    url = start_tally(client, ("Ana",))
    html = client.get(url).data.decode()
    html = client.post(
        url + "/circle", data={"seq": seq_of(html), "key": "k-circle-2", "circle": 2, "empty": 3, "cube": 2}, headers=HX
    ).data.decode()
    assert "Entered: 1 of 8 circles" in html
    html = client.post(url + "/undo", data={"seq": seq_of(html), "key": "k-undo-0001"}, headers=HX).data.decode()
    assert "Entered: 0 of 8 circles" in html


# Issue 24, the score page's polish: the winner at the fold, a chart that ends on the final score,
# the players' own colours, and a heading (title, day, length) that is printed too.


def test_the_winner_comes_right_under_the_title_before_everything_else(client) -> None:
    from tests.web.pages.test_after_game import timed_log, upload

    url = upload(client, timed_log())
    html = client.get(url + "/score").data.decode()
    order = [
        html.index("<h1>Final score</h1>"),
        html.index("Winner: Ana with 3 infamy"),
        html.index('id="after-title"'),
        html.index('class="card player-score"'),
        html.index('id="chart-title"'),
    ]
    assert order == sorted(order)
    assert html.count('class="card winner"') == 1  # not drawn again with the breakdown


def test_the_sheet_heading_names_the_game_the_day_and_the_length(client) -> None:
    from tests.web.pages.test_after_game import timed_log, upload

    url = upload(client, timed_log())  # 19:30 on 28 November 2026, over 68 minutes later
    html = client.get(url + "/score").data.decode()
    head = html.split("<h1>Final score</h1>", 1)[1].split("</section>", 1)[0]
    facts = found(r'<p class="sheet-facts">(.*?)</p>', head, re.S).group(1)
    assert "<strong>Inferno</strong>" in facts
    assert '<span class="sheet-date">November 28, 2026</span>' in facts
    assert '<span class="sheet-length">1 h 8 min at the table</span>' in facts
    assert "hint" not in head.split("sheet-facts")[0]  # not a .hint, which the print stylesheet hides
    client.get("/lang/es")
    html = client.get(url + "/score").data.decode()
    assert "28 de noviembre de 2026" in html and "1 h 8 min de partida" in html


def test_the_chart_ends_on_the_final_score_and_says_so(client) -> None:
    from companion.formats.export import score_export
    from tests.web.pages.test_after_game import timed_log, upload

    url = upload(client, timed_log())
    html = client.get(url + "/score").data.decode()
    _edition, sheet = score_export(timed_log())
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th>((?:<td>-?\d+</td>)+)</tr>', html)
    label, cells = rows[-1]
    assert label == "Final"
    assert [int(v) for v in re.findall(r"<td>(-?\d+)</td>", cells)] == [p.total for p in sheet.players]
    last_turn = [int(v) for v in re.findall(r"<td>(-?\d+)</td>", rows[-2][1])]
    assert last_turn != [p.total for p in sheet.players]  # the in-play infamy differs: the final point matters
    chart = html.split('class="chart"', 1)[1].split("</svg>", 1)[0]
    assert "Infamy after each turn, then the final score" in chart and ">Final<" in chart
    assert "The last point, “Final”, is the final score" in html


def test_during_play_the_chart_says_it_shows_infamy_scored_so_far(phone: Phone, client) -> None:
    phone.create()
    html = client.get(phone.url + "/score").data.decode()
    assert "Infamy scored during play so far; diplomas, fraud cards and loans count at the end." in html
    assert '<th scope="row">Final</th>' not in html


def test_the_chart_draws_each_player_in_their_own_colour(phone: Phone, client) -> None:
    phone.create()
    view_html = client.get(phone.url + "/score").data.decode()
    with client.application.app_context():
        from companion.web.http.db import service

        view = game_view(service().view(phone.url.rsplit("/", 1)[1]))
        hexes = [view.edition.player_hex(p.colour) for p in view.state.players]
    chart = view_html.split('class="chart"', 1)[1].split("</svg>", 1)[0]
    styles = re.findall(r"\.color-(\d+)[^{]*\{[^}]*?(?:stroke|fill):\s*(#[0-9a-fA-F]{3,8})", chart)
    drawn = {int(i): h.lower() for i, h in styles}
    assert [drawn[i] for i in range(len(hexes))] == [h.lower() for h in hexes]
