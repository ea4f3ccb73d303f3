"""The parts of a game's page, sorted once per layout (``parts._layout``), are the page's parts in its order.

``render_parts`` builds an answer's parts group by group (the fixed ones, the quarters', the shields', the players')
instead of testing ~90 names one by one on every answer; the phone reads the parts' digests in the page's order. So
for every shipped edition, every board side and every player count it allows, the groups put back together are
``part_names`` exactly, and a layout out of that order is refused rather than served in another order.
"""

from __future__ import annotations

import pytest

from companion.game.edition import Edition
from companion.web.screens.parts import PLAYER_PARTS, _by_kind, _layout, _part_names


def _layouts(editions: dict[str, tuple[str, Edition]]) -> list[tuple[tuple[str, ...], int, tuple[str, ...]]]:
    out = []
    for _text, edition in editions.values():
        for side in edition.sides.values():
            for players in side.players:
                out.append((tuple(side.shields), players, edition.quarters))
    return out


def test_every_layout_is_the_page_order_put_back_together(editions: dict[str, tuple[str, Edition]]) -> None:
    layouts = _layouts(editions)
    assert {players for _, players, _ in layouts} >= {2, 3, 4}
    for shields, players, quarters in layouts:
        names = _part_names(shields, players, quarters)
        fixed, by_quarter, by_shield, seats = _layout(names)
        assert (*fixed, *by_quarter, *by_shield, *_by_kind(len(seats))) == names
        assert by_shield == tuple(f"s-{shield}" for shield in shields)
        assert len(seats) == players
        assert seats[players - 1] == tuple(f"{kind}{players - 1}" for kind in PLAYER_PARTS)
        assert not any(name.startswith(("s-", "q-", "qn-")) for name in fixed)


def test_a_layout_out_of_the_page_order_is_refused() -> None:
    names = _part_names(("1a", "1b"), 2, ("lily", "key"))
    shuffled = (names[-1], *names[:-1])  # a player's part first: not the order the phone reads
    with pytest.raises(ValueError, match="page's order"):
        _layout(shuffled)
