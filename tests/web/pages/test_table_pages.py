"""The table: joining by QR or code, seats and the table mode, read-only big screens."""

from __future__ import annotations

import io
import json
import re

from tests.builders import found
from tests.web.conftest import HX, Phone


def test_the_join_page_shows_a_qr_code_and_a_short_code(phone: Phone, client) -> None:
    phone.create()
    page = client.get(phone.url + "/join").data.decode()
    assert page.count("<svg viewBox=") >= 2 and 'class="segno"' in page  # the game's QR and the viewer's QR
    code = found(r"Short code: <strong>([A-Z0-9]{5}-[A-Z0-9]{5})</strong>", page).group(1)
    response = client.get(f"/j/{code.lower()}")
    assert response.status_code == 303 and response.headers["Location"] == phone.url + "/join"
    missing = client.get("/j/AAAAA-AAAAA")
    assert missing.status_code == 404 and "No game has the code" in missing.data.decode()


def test_the_join_page_gives_the_api_tokens_and_they_open_the_game(phone: Phone, client) -> None:
    phone.create()
    page = client.get(phone.url + "/join").data.decode()
    tokens = dict(re.findall(r"<dt>(Read token|Write token)</dt><dd><code>([^<]+)</code>", page))
    assert set(tokens) == {"Read token", "Write token"}
    game_id = phone.url.rsplit("/", 1)[-1]
    reader = {"Authorization": f"Bearer {tokens['Read token']}"}
    writer = {"Authorization": f"Bearer {tokens['Write token']}"}
    read = client.get(f"/api/v1/games/{game_id}", headers=reader)
    assert read.status_code == 200 and [p["name"] for p in read.get_json()["state"]["players"]] == ["Ana", "Ben"]
    loan = {"type": "TakeLoan", "data": {"player": 0}}
    body = {"expected_seq": phone.seq, "idempotency_key": "join-api-loan-1", "command": loan}
    denied = client.post(f"/api/v1/games/{game_id}/commands", json=body, headers=reader)
    assert denied.status_code == 403
    done = client.post(f"/api/v1/games/{game_id}/commands", json=body, headers=writer)
    assert done.status_code == 200, done.get_json()


def test_in_seats_mode_a_phone_acts_only_for_its_own_seat(phone: Phone, client) -> None:
    phone.create(table_mode="seats")
    response = phone.post("loan", {"player": 0})
    assert response.status_code == 403
    assert "This phone has not taken a seat" in phone.html
    client.post(phone.url + "/seat", data={"seat": "1"})
    phone.open()
    response = phone.post("loan", {"player": 0})
    assert response.status_code == 403
    assert "This phone sits for Ben: Ana acts from their own phone." in phone.html
    client.post(phone.url + "/seat", data={"seat": "0"})
    phone.open()
    assert phone.post("loan", {"player": 0}).status_code == 200
    log = json.loads(client.get(phone.url + "/export.json").data)
    assert log["events"][-1]["actor"] == "seat:0"


def test_in_shared_mode_any_phone_acts_for_the_active_player(phone: Phone) -> None:
    phone.create()
    assert phone.post("loan", {"player": 0}).status_code == 200


def test_the_table_mode_is_switched_in_the_log(phone: Phone, client) -> None:
    phone.create()
    client.get(phone.url + "/join")
    response = client.post(phone.url + "/mode", data={"seq": phone.seq, "key": "mode-key-01", "mode": "seats"})
    assert response.status_code == 303
    history = client.get(phone.url + "/history").data.decode()
    assert "Each player now acts from their own phone (seats)." in history


def viewer_url(client, phone: Phone) -> str:
    page = client.get(phone.url + "/join").data.decode()
    return found(r'href="http://localhost(/v/[^"]+)"', page).group(1)


def test_a_viewer_page_reads_never_writes_and_never_shows_the_game_address(phone: Phone, client) -> None:
    phone.create()
    url = viewer_url(client, phone)
    page = client.get(url).data.decode()
    game_id = phone.url.rsplit("/", 1)[-1]
    assert "Big screen · read only" in page
    assert game_id not in page
    assert "<form" not in page and 'role="button"' not in page
    assert client.post(url, data={}).status_code == 405
    assert client.post(url + "/loan", data={}).status_code in (404, 405)
    fragment = client.get(url, headers=HX).data.decode()
    assert fragment.lstrip().startswith('<div id="game"') and game_id not in fragment


def test_the_polling_fallback_reports_the_seq(phone: Phone, client) -> None:
    phone.create()
    assert client.get(phone.url + "/seq").get_json() == {"seq": phone.seq}
    url = viewer_url(client, phone)
    assert json.loads(client.get(url + "/seq").data) == {"seq": phone.seq}


def test_the_history_filters_by_player_and_turn_and_folds_undone_entries(phone: Phone, client) -> None:
    phone.create()
    phone.post("loan", {"player": 0})
    phone.post("undo", {})
    phone.post("bring", {"player": 0, "colour": 5, "shield": "1a"})
    phone.end_turn(0, "banquet")
    phone.post("bring", {"player": 1, "colour": 2, "shield": "1b"})
    page = client.get(phone.url + "/history").data.decode()
    assert "1 entry taken back" in page
    main = page.split("<ol")[1]
    assert main.count("took a loan") == 1  # once, inside the folded undo, not as its own entry
    bens = client.get(phone.url + "/history?player=1").data.decode()
    assert "Ben paid Charon" in bens and "Ana paid Charon" not in bens
    turn2 = client.get(phone.url + "/history?turn=2").data.decode()
    assert "Ben paid Charon" in turn2 and "Ana paid Charon" not in turn2


def test_a_step_page_shows_the_game_after_that_entry_with_replay_controls(phone: Phone, client) -> None:
    phone.create()
    phone.post("bring", {"player": 0, "colour": 5, "shield": "1a"})  # entry 3
    phone.end_turn(0, "banquet")
    page = client.get(phone.url + "/at/3").data.decode()
    history = client.get(phone.url + "/history").data.decode()
    assert "#3" in history  # the history's number of this entry…
    assert "Entry #3" in page and "Step 2 of" not in page  # …is the step page's (issue 24, item 8)
    assert 'rel="prev"' in page and 'rel="next"' in page
    assert re.search(r'aria-label="1A, circle 1, Eagle: blue soul, standing', page)
    assert re.findall(r'data-stat="drachmas">(\d+)<', page)[0] == "2"
    assert "<form" in page and "Clone the game from this step" in page
    first = client.get(phone.url + "/at/1").data.decode()
    assert "1A, circle 1, Eagle: blue soul" not in first


def test_export_import_and_clone(phone: Phone, client) -> None:
    phone.create()
    phone.post("bring", {"player": 0, "colour": 5, "shield": "1a"})
    exported = client.get(phone.url + "/export.json")
    assert exported.headers["Content-Disposition"].startswith("attachment")
    data = json.loads(exported.data)
    text = client.get(phone.url + "/export.txt").data.decode()
    assert "Ana paid Charon 1 drachma and brought one blue soul into Limbo at 1A." in text
    upload = client.post(
        "/import", data={"file": (io.BytesIO(exported.data), "game.json")}, content_type="multipart/form-data"
    )
    assert upload.status_code == 303
    imported = client.get(upload.headers["Location"]).data.decode()
    assert re.findall(r'data-stat="drachmas">(\d+)<', imported)[0] == "2"
    clone = client.post(phone.url + "/clone", data={"at": "1"})
    assert clone.status_code == 303 and clone.headers["Location"] != phone.url
    cloned = json.loads(client.get(clone.headers["Location"] + "/export.json").data)
    assert len(cloned["events"]) == 2 < len(data["events"])


def test_importing_a_file_that_is_not_a_game_explains_why(client) -> None:
    bad = client.post(
        "/import", data={"file": (io.BytesIO(b'{"format": "x"}'), "x.json")}, content_type="multipart/form-data"
    )
    assert bad.status_code == 422 and "cannot be imported" in bad.data.decode()
    assert client.post("/import", data={}, content_type="multipart/form-data").status_code == 400


def test_a_step_page_tells_an_undone_entry_from_an_undo_or_redo_entry(phone: Phone, client) -> None:
    phone.create()
    taken = phone.seq + 1  # an entry is named by its first event
    phone.post("bring", {"player": 0, "colour": 5, "shield": "1a"})
    phone.post("undo", {})
    undo = phone.seq
    phone.post("bring", {"player": 0, "colour": 2, "shield": "1a"})
    phone.post("undo", {})
    phone.post("redo", {})
    redo = phone.seq
    assert "(later undone)" in client.get(f"{phone.url}/at/{taken}").data.decode()
    for seq in (undo, redo):
        page = client.get(f"{phone.url}/at/{seq}").data.decode()
        assert f"Entry #{seq} (undo or redo)" in page and "later undone" not in page
