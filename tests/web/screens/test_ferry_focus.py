"""The ferry's last step (its landings, listed above the map) is the element a phone brings into view."""

from __future__ import annotations

import json

from tests.web.conftest import Phone, ben_holds_a_bell


def focus_of(client, url: str) -> str:
    answer = client.get(url, headers={"HX-Request": "true", "HX-Game-Parts": "turn:x"})
    assert answer.status_code == 200
    return json.loads(answer.headers["HX-Trigger-After-Settle"])["game:update"]["focus"]


def test_the_ferry_landing_step_takes_the_focus_and_the_earlier_steps_keep_the_map_prompt(client) -> None:
    phone = Phone(client)
    ben_holds_a_bell(phone)
    assert focus_of(client, phone.url + "?ferry=1e&fsoul=1a") == "map-prompt"
    assert focus_of(client, phone.url + "?ferry=1e&fsoul=1a&fside=1c") == "ferry-landing"
    assert 'id="ferry-landing"' in client.get(phone.url + "?ferry=1e&fsoul=1a&fside=1c").data.decode()
