"""The words on the score pages read right: plurals, articles, no empty lines, tracks by name (en and es)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from companion.game.edition import parse_edition
from companion.game.scoring import BoardFacts, PlayerFacts, score
from companion.readmodels.scoresheet import scoresheet_text
from companion.web.screens.charts import infamy_chart
from companion.web.words.glossary import describe_reward
from events.catalog import Reward
from tests.web.conftest import HX, Phone
from tests.web.pages.test_score_pages import seq_of, start_tally

EDITION = parse_edition(
    (Path(__file__).resolve().parents[3] / "companion" / "editions" / "inferno-base.json").read_text()
)


def text_of(html: str) -> str:
    """The page as a reader sees it: tags dropped, spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def tally_with_ben_on_two_halves(client, language: str = "en") -> str:
    """A one-player tally: Ben, two half diplomas, skulls on Heresy (1) and Fraud (1), Ship on 0."""
    client.get(f"/lang/{language}")
    url = start_tally(client, ("Ben",))
    html = client.get(url).data.decode()
    form = {"seq": seq_of(html), "key": "k-sheet-words", "infamy-0": "10", "halves-0": "2", "ship-0": "0"}
    form |= {f"skull-0-{c}": "0" for c in range(2, 10)} | {"skull-0-6": "1", "skull-0-8": "1", "empty-8": "2"}
    response = client.post(url + "/sheet", data=form, headers=HX)
    assert response.status_code == 200, response.data
    return text_of(response.data.decode())


def test_the_half_diplomas_name_their_track_in_words_and_a_ship_at_home_prints_no_loan(client) -> None:
    page = tally_with_ben_on_two_halves(client)
    assert "2 half diplomas → a diploma on Heresy" in page
    assert "Loans" not in page
    assert "−0" not in page


def test_the_same_lines_in_spanish(client) -> None:
    page = tally_with_ben_on_two_halves(client, "es")
    assert "2 medios diplomas → un diploma en Herejía" in page
    assert "Préstamos" not in page


def test_a_ship_away_from_home_prints_its_penalty(client) -> None:
    url = start_tally(client, ("Ana",))
    html = client.get(url).data.decode()
    form = {"seq": seq_of(html), "key": "k-sheet-loan1", "infamy-0": "5", "ship-0": "3"}
    page = text_of(client.post(url + "/sheet", data=form, headers=HX).data.decode())
    assert "Loans: Ship on space 3 −4" in page


def sheet_for(ship: int, halves: int) -> str:
    board = BoardFacts(empty=dict.fromkeys(EDITION.track_circles, 0), cubes=dict.fromkeys(EDITION.track_circles, 2))
    player = PlayerFacts("Ben", 10, {6: 1, 8: 1}, frozenset(), halves, ship)
    return scoresheet_text(score(EDITION, board, [player]), EDITION)


def test_the_plain_text_score_names_tracks_and_skips_an_empty_loan() -> None:
    text = sheet_for(ship=0, halves=3)
    assert "half diplomas: 3 → a diploma on Heresy (circle 6) (best choice, not yet confirmed), 1 left over" in text
    assert "loans" not in text
    assert "loans: Ship on space 2" in sheet_for(ship=2, halves=0)
    assert "half diplomas" not in sheet_for(ship=2, halves=0)


def test_the_chart_labels_every_shown_turn_in_full() -> None:
    points: list[tuple[str, tuple[int, ...]]] = [(str(turn), (turn, 2 * turn)) for turn in range(1, 25)]
    svg = infamy_chart(["Ana", "Ben"], ["#aa2222", "#2222aa"], points, "Infamy after each turn")
    labels = re.findall(r'<text x="[^"]+" y="[^"]+" class="major">([^<]*)</text>', svg)
    assert "…" not in svg
    assert labels[:6] == ["1", "5", "9", "13", "17", "21"]


@pytest.fixture
def spanish(app: Flask) -> Iterator[None]:
    with app.test_request_context(headers={"Accept-Language": "es"}):
        yield


@pytest.fixture
def english(app: Flask) -> Iterator[None]:
    with app.test_request_context(headers={"Accept-Language": "en"}):
        yield


@pytest.mark.usefixtures("english")
def test_a_reward_counts_in_english() -> None:
    assert describe_reward(Reward("florins", 1)) == "1 florin"
    assert describe_reward(Reward("drachmas", 2)) == "2 drachmas"
    assert describe_reward(Reward("infamy", 1)) == "1 infamy"


@pytest.mark.usefixtures("spanish")
def test_a_reward_counts_in_spanish() -> None:
    assert describe_reward(Reward("florins", 1)) == "1 florín"
    assert describe_reward(Reward("florins", 3)) == "3 florines"


def history_after_entering_the_bonfire(phone: Phone, client, language: str) -> tuple[str, str]:
    client.get(f"/lang/{language}")
    phone.create()
    phone.post("bring", {"player": 0, "colour": 5, "shield": "1d"})  # Lily: the Bonfire
    game = text_of(phone.html)
    phone.florence(0, "bonfire")
    return game, text_of(client.get(phone.url + "/history").data.decode())


def test_coins_and_quarters_read_right_in_english(phone: Phone, client) -> None:
    game, history = history_after_entering_the_bonfire(phone, client, "en")
    assert "The soul ended on a shield of the Lily quarter" in game
    assert "Ana sent a noble to the Bonfire. Ana paid 1 florin (to enter a special location)." in history
    assert "(s)" not in history and "0 drachma" not in history


def test_coins_and_quarters_read_right_in_spanish(phone: Phone, client) -> None:
    game, history = history_after_entering_the_bonfire(phone, client, "es")
    assert "El Alma acabó en un escudo del quartiere Lirio" in game
    assert "Ana envió un noble a " in history and "Ana pagó 1 florín (" in history
    assert "(es)" not in history and "0 dracma" not in history
