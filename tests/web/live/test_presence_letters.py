"""Issue 24, item 5: the presence list marks each player with the letter their pieces show in the
reader's language (navy is "azul marino", so M in Spanish, as on the markers; never N there)."""

from __future__ import annotations

import http.client
import re

from testkit.live_client import Stream


def test_the_presence_list_shows_the_spanish_letters_of_the_markers(server: tuple[str, int]) -> None:
    conn = http.client.HTTPConnection(*server, timeout=10)
    body = "key=letters-create-1&name=Ana&name=Ben&colour=navy&colour=forest&plague=2&plague=3"
    conn.request("POST", "/games", body=body, headers={"Content-Type": "application/x-www-form-urlencoded"})
    game = conn.getresponse().getheader("Location")
    assert game is not None
    conn.close()
    spanish = {"Accept-Language": "es"}
    conn = http.client.HTTPConnection(*server, timeout=10)
    conn.request("GET", game, headers=spanish)
    page = conn.getresponse().read().decode()
    conn.close()
    markers = re.findall(r'<span class="marker"[^>]*>(\w)</span>', page)
    assert set(markers) == {"M", "B"}, markers  # the markers' Spanish letters
    stream = Stream(*server, f"{game}/events", headers=spanish)
    try:
        assert stream.when(lambda s: "Ana" in s.presence(), 3), stream.presence()
        letters = re.findall(r'<span aria-hidden="true">(\w)</span>', stream.presence())
        assert letters == ["M", "B"], stream.presence()
    finally:
        stream.close()
