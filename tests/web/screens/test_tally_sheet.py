"""The quick tally's one-page sheet: a plain form without JavaScript, one entry per changed circle or player."""

from __future__ import annotations

import re

from tests.builders import found
from tests.web.conftest import HX
from tests.web.pages.test_score_pages import seq_of, start_tally


def checked(html: str, name: str) -> str | None:
    """The value of the checked radio (or the value of the number field) called ``name``."""
    radio = re.search(rf'name="{name}" value="(\d+)"[^>]*checked', html)
    if radio:
        return radio.group(1)
    field = re.search(rf'name="{name}" type="number"[^>]*value="(-?\d+)"', html)
    return field.group(1) if field else None


def test_the_sheet_works_as_a_plain_form_and_shows_what_was_saved(client) -> None:
    url = start_tally(client, ("Ana", "Ben"))
    html = client.get(url).data.decode()
    form = {"seq": seq_of(html), "key": "k-plain-sheet", "empty-7": "2", "cube-3": "4", "infamy-1": "33"}
    form |= {"skull-1-3": "2", "diploma-1-3": "1", "ship-0": "2", "halves-0": "1"}
    response = client.post(url + "/sheet", data=form)
    # the page opens at the score, as htmx's answer scrolls to it (a phone whose script had not yet started)
    assert response.status_code == 303 and response.headers["Location"].endswith(url + "#tally-score")
    html = client.get(url).data.decode()
    assert "Entered: 8 of 8 circles, 2 of 2 players." in html
    assert (checked(html, "empty-7"), checked(html, "cube-3"), checked(html, "cube-2")) == ("2", "4", "2")
    assert (checked(html, "infamy-1"), checked(html, "skull-1-3"), checked(html, "ship-0")) == ("33", "2", "2")
    assert checked(html, "halves-0") == "1"
    assert re.search(r'name="diploma-1-3" value="1" checked', html)
    # Ben: 33 + green (space 5, value 5) × 2 = 43; Ana: 0 − loan at space 2 (2) = −2.
    assert "Winner: Ben with 43 infamy" in html


def test_saving_again_records_only_what_changed(client) -> None:
    url = start_tally(client, ("Ana",))
    html = client.get(url).data.decode()
    html = client.post(url + "/sheet", data={"seq": seq_of(html), "key": "k-first-save"}, headers=HX).data.decode()
    first = seq_of(html)
    assert first == 1 + 9  # the start, then eight circles and one player
    form = {"seq": first, "key": "k-second-save", "empty-9": "1", "infamy-0": "0"}
    html = client.post(url + "/sheet", data=form, headers=HX).data.decode()
    assert seq_of(html) == first + 1
    assert checked(html, "empty-9") == "1"


def test_a_repeated_save_is_recorded_once(client) -> None:
    url = start_tally(client, ("Ana",))
    html = client.get(url).data.decode()
    form = {"seq": seq_of(html), "key": "k-double-tap", "infamy-0": "12"}
    first = client.post(url + "/sheet", data=form, headers=HX)
    assert first.headers["HX-Reswap"] == "outerHTML show:#tally-score:top"  # the phone scrolls to the score
    twice = client.post(url + "/sheet", data=form, headers=HX).data.decode()
    assert seq_of(twice) == seq_of(first.data.decode())
    assert re.search(r'<div class="sheet-save">\s*<p class="notice info" role="status">Already recorded.</p>', twice)


def test_a_refused_sheet_records_nothing_and_keeps_what_was_tapped(client) -> None:
    url = start_tally(client, ("Ana",))
    html = client.get(url).data.decode()
    form = {"seq": seq_of(html), "key": "k-refused-sheet", "empty-2": "1", "empty-9": "7", "infamy-0": "27"}
    response = client.post(url + "/sheet", data=form, headers=HX)
    html = response.data.decode()
    assert response.status_code == 422 and "HX-Reswap" not in response.headers  # it stays by the save button
    refusal = found(r'<div class="sheet-save">.*?</div>', html, re.S).group(0)
    assert "Empty shields must be between 0 and 4; you entered 7." in refusal
    assert "Entered: 0 of 8 circles, 0 of 1 players." in html
    assert (checked(html, "empty-2"), checked(html, "infamy-0")) == ("1", "27")


def test_without_javascript_numbers_are_typed_and_the_steppers_are_plain_buttons(client) -> None:
    url = start_tally(client, ("Ana",))
    html = client.get(url).data.decode()
    assert re.search(r'<input id="inf-0" name="infamy-0" type="number" inputmode="numeric"', html)
    steppers = re.findall(r'<button type="button" class="step" data-step="(-?1)" aria-label="([^"]+)"', html)
    assert ("1", "One more: Half diplomas (Ana)") in steppers
    assert "js/tally.js" in html


def test_a_fraud_card_end_game_half_is_entered_on_the_sheet(client) -> None:
    url = start_tally(client, ("Ana",))
    html = client.get(url).data.decode()
    form = {"seq": seq_of(html), "key": "k-fraud-sheet", "infamy-0": "10"}
    form |= {"fraud_effect-0-0": "infamy", "fraud_amount-0-0": "3", "fraud_effect-0-1": "", "fraud_amount-0-1": ""}
    html = client.post(url + "/sheet", data=form, headers=HX).data.decode()
    assert "Winner: Ana with 13 infamy" in html
    assert re.search(r'<details class="sheet-fraud" open>', html)
    assert re.search(r'<option value="infamy" selected>', html)


# Issue 24, item 9: after the tally's score, BG Stats, Share and Print; the shared link opens it read-only.


def _saved_tally(client, names=("Ana", "Ben")) -> tuple[str, str]:
    url = start_tally(client, names)
    html = client.get(url).data.decode()
    form = {"seq": seq_of(html), "key": "k-whole-sheet", "infamy-1": "33", "infamy-0": "20"}
    html = client.post(url + "/sheet", data=form, headers=HX).data.decode()
    return url, html


def test_an_incomplete_tally_offers_no_bg_stats_yet_and_says_when_it_will(client) -> None:
    url = start_tally(client, ("Ana", "Ben"))
    html = client.get(url).data.decode()
    assert "app.bgstatsapp.com" not in html and "data-share " not in html
    assert "Once every circle and every player is entered, the result can be logged in BG Stats" in html


def test_a_complete_tally_offers_bg_stats_share_and_print_under_the_winner(client) -> None:
    from tests.web.pages.test_after_game import bgstats_json

    _url, html = _saved_tally(client)
    winner = html.index("Winner: Ben with 33 infamy")
    after = html.index('id="tally-after-title"')
    breakdown = html.index('class="card player-score"')
    assert winner < after < breakdown  # the winner first, then what to do with the result
    play = bgstats_json(html)
    assert play["sourceName"] == "Inferno Companion" and play["game"]["sourceGameId"] == "inferno-red-mojo-2024"
    assert [(p["name"], p["score"], p["winner"]) for p in play["players"]] == [("Ana", 20, False), ("Ben", 33, True)]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"])
    assert "durationMin" not in play  # the tally did not time the game
    assert re.search(r'<button type="button" class="secondary" data-print>Print</button>', html)
    # The heading printed with the sheet: the title, the day, and that the tally was not timed.
    facts = found(r'<p class="sheet-facts">(.*?)</p>', html, re.S).group(1)
    assert "<strong>Inferno</strong>" in facts and "not timed: entered after the game" in facts
    assert re.search(r'class="sheet-date">[A-Z][a-z]+ \d{1,2}, \d{4}<', facts)


def test_the_shared_link_of_a_tally_opens_its_score_read_only(app) -> None:
    client = app.test_client()
    url, _html = _saved_tally(client)
    html = client.get(url, headers={"Host": "inferno.example.org"}).data.decode()
    button = found(r"<button[^>]*data-share [^>]*>", html).group(0)
    assert "Inferno: Ben wins (Ben 33, Ana 20)." in button
    link = found(r'data-share-url="([^"]*)"', button).group(1)
    assert link.startswith("http://inferno.example.org/tally/result/")
    assert url.rsplit("/", 1)[1] not in link  # the read token, never the tally's own address
    assert "only works on this network" not in html
    friend = app.test_client()
    page = friend.get(link.removeprefix("http://inferno.example.org")).data.decode()
    assert "Winner: Ben with 33 infamy" in page and "Final score" in page
    assert "<form" not in page.split("<main", 1)[1] and "/sheet" not in page
    assert friend.get("/tally/result/not-a-token").status_code == 404


def test_on_a_local_address_the_share_keeps_the_link_and_says_who_can_open_it(client) -> None:
    url, html = _saved_tally(client)
    button = found(r"<button[^>]*data-share [^>]*>", html).group(0)
    token = url.rstrip("/").split("/")[-1]
    assert re.search(r'data-share-url="http://localhost/tally/result/[^"]+"', button), button
    assert token not in button  # the read-only result, never the tally's own address
    assert "(localhost), which only works on this network: people at the table can open it" in html
    client.get("/lang/es")
    html = client.get(url).data.decode()
    assert "solo funciona en esta red" in html and "Anotar esta partida en BG Stats" in html


def test_a_configured_public_address_is_the_one_shared(tmp_path) -> None:
    from companion.web import create_app

    app = create_app(
        {
            "DATABASE": str(tmp_path / "public.sqlite3"),
            "SECRET_KEY": "t",
            "WTF_CSRF_ENABLED": False,
            "PUBLIC_URL": "https://inferno.example.org",
        }
    )
    client = app.test_client()
    public = {"Host": "inferno.example.org"}
    made = client.post("/tally", data={"key": "tally-key-pub", "name": ["Ana", "Ben"]}, headers=public)
    url = made.headers["Location"]
    html = client.get(url, headers=public).data.decode()
    form = {"seq": seq_of(html), "key": "k-public-sheet", "infamy-1": "5"}
    html = client.post(url + "/sheet", data=form, headers={**HX, **public}).data.decode()
    link = found(r'data-share-url="([^"]*)"', html).group(1)
    assert link.startswith("https://inferno.example.org/tally/result/")
    assert "only works on this network" not in html


def test_a_sheet_from_a_screen_behind_the_log_gets_the_conflict_even_when_a_rule_would_refuse_it(client) -> None:
    """A rule judges the sheet the phone saw; from an old screen the phone first gets the fresh sheet (409)."""
    url = start_tally(client, ("Ana",))
    old = seq_of(client.get(url).data.decode())
    client.post(url + "/sheet", data={"seq": old, "key": "k-other-phone", "infamy-0": "5"}, headers=HX)
    now = seq_of(client.get(url).data.decode())
    for form in (
        {"seq": old, "key": "k-stale-illegal", "empty-9": "7"},  # a rule would refuse it (0 to 4 empty shields)
        {"seq": old, "key": "k-stale-legal", "empty-9": "1"},
    ):
        response = client.post(url + "/sheet", data=form, headers=HX)
        html = response.data.decode()
        assert response.status_code == 409, (form, response.status_code)
        assert "This screen was out of date" in html and "you entered 7" not in html
        assert seq_of(client.get(url).data.decode()) == now
