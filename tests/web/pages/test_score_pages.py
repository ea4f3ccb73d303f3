"""The score sheet and the quick tally on the phone."""

from __future__ import annotations

import re

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
    return int(re.search(r'data-seq="(\d+)"', html).group(1))


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
    row = re.search(r'aria-label="Ben, circle 3">(.*?)</tr>', html, re.S).group(1)
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
