"""Corrections from the phone: a value set to match the board; an earlier entry replaced."""

from __future__ import annotations

import re
from typing import Any

from tests.web.conftest import Phone


def correct(phone: Phone, what: str, *, player: int, target_key: str, value: int, reason: str) -> Any:
    """The correction form, posted as the browser posts it (no htmx): ``what`` set to ``value``."""
    fields = {"what": what, "player": player, "target_key": target_key, "value": value, "reason": reason}
    return phone.post("correct", fields, htmx=False)


def test_a_correction_from_the_page_is_recorded_with_its_reason(phone: Phone, client) -> None:
    phone.create()
    page = client.get(phone.url + "/correct").data.decode()
    assert "Correct the app to match the board" in page
    response = correct(phone, "resource", player=1, target_key="drachmas", value=6, reason="Ben found three more")
    assert response.status_code == 303
    assert phone.open().stat(1, "drachmas") == 6
    history = client.get(phone.url + "/history").data.decode()
    assert "Correction: Ben drachmas 3 → 6 (Ben found three more)." in history


def test_an_out_of_range_correction_is_refused_with_the_range(phone: Phone, client) -> None:
    phone.create()
    client.get(phone.url + "/correct")
    response = correct(phone, "skull", player=0, target_key="5", value=7, reason="oops")
    assert response.status_code == 422
    assert "The skull level must be between 0 and 4; you entered 7." in response.data.decode()


def test_an_earlier_entry_is_replaced_after_a_preview(phone: Phone, client) -> None:
    phone.create(plague=("5", "2"))
    phone.post("bring", {"player": 0, "colour": 5, "shield": "1a"})  # entry 3
    phone.end_turn(0, "banquet")
    history = client.get(phone.url + "/history").data.decode()
    assert "Correct this entry" in history
    page = client.get(phone.url + "/replace?target=3").data.decode()
    options = re.findall(r'choice=([^"&]+)"', page)
    assert "bring-5-1e" in options
    preview = client.get(phone.url + "/replace?target=3&choice=bring-5-1e").data.decode()
    assert "they all still hold" in preview
    response = client.post(
        phone.url + "/replace",
        data={"seq": phone.open().seq, "key": "replace-key-1", "target": 3, "choice": "bring-5-1e"},
    )
    assert response.status_code == 303
    assert re.search(r'aria-label="1E, circle 1, Eagle: blue soul, standing', phone.open().html)


def test_a_replacement_that_breaks_a_later_entry_names_it(phone: Phone, client) -> None:
    phone.create(plague=("5", "2"))
    phone.post("bring", {"player": 0, "colour": 5, "shield": "1a"})
    phone.end_turn(0, "banquet")  # entries 5 (send) and 7 (end turn)
    preview = client.get(phone.url + "/replace?target=3&choice=bring-5-1b").data.decode()  # 1B shows the Key
    assert "Entry #5 would no longer hold" in preview
    assert "Undo from #5" in preview
