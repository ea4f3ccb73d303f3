"""The Florence phase (seed 000 p.12; RULES.md §3.7, §4.2): given a table / when a member is sent / then…

Layout (the edition's default, used when none is dealt): Lily: Haystack + Bonfire; Eagle:
Banquet + Wall; Key: Bank + Market; Cross: Courtyard + Palace.
"""

from __future__ import annotations

from companion.game.commands import EndTurn, HoldCouncil, SendMember
from companion.game.legal import florence_options
from companion.game.state import Phase
from events.catalog import (
    CoinsGained,
    CoinsPaid,
    CouncilHeld,
    GuestTaken,
    InfamyChanged,
    MemberSent,
    MemberWentHome,
    TowerFloorBuilt,
    TurnEnded,
    TurnQuarterSet,
    UrchinJoined,
)
from tests.builders import Table


def florence(table: Table, quarter: str, *given) -> Table:
    """Ana's Florence phase in ``quarter`` after the given events (earlier turns)."""
    return table.create().given(*given, TurnQuarterSet(0, quarter))


def earlier(player: int, kind: str, location: str) -> tuple:
    """A member placed on an earlier turn of a two-player game; Ana (0) is active afterwards."""
    if player == 0:
        return (MemberSent(0, kind, location, False), TurnEnded(0, 1), TurnEnded(1, 0))
    return (TurnEnded(0, 1), MemberSent(1, kind, location, False), TurnEnded(1, 0))


def test_a_member_goes_to_a_location_of_the_turns_quarter(table: Table) -> None:
    florence(table, "key")
    events = table.when(SendMember(0, "noble", "bank"))
    assert events[0] == MemberSent(0, "noble", "bank", False)
    state = table.state
    assert state.p[0].placed == (("bank", "noble"),)
    assert state.p[0].home_nobles == 3


def test_an_occupied_location_can_still_be_chosen(table: Table) -> None:
    florence(table, "key", *earlier(0, "noble", "bank"), *earlier(1, "noble", "bank"))
    table.when(SendMember(0, "noble", "bank"))
    assert table.state.p[0].members_at("bank") == ("noble", "noble")
    assert table.state.p[1].members_at("bank") == ("noble",)


def test_another_quarter_is_refused_without_the_bribe(table: Table) -> None:
    florence(table, "key")
    exc = table.refused(SendMember(0, "noble", "haystack"), "wrong_quarter")
    assert exc.params["quarter"] == "lily" and exc.params["turn_quarter"] == "key"
    offered = [c.params.get("location") for c in exc.alternatives]
    assert "bank" in offered and "market" in offered
    assert exc.alternatives[-1].command == SendMember(0, "noble", "haystack", bribe=True)


def test_the_bribe_opens_any_quarter_for_two_drachmas(table: Table) -> None:
    florence(table, "key")
    drachmas = table.state.p[0].drachmas
    events = table.when(SendMember(0, "noble", "haystack", bribe=True))
    assert CoinsPaid(0, 0, 2, "bribe") in events
    assert table.state.p[0].drachmas == drachmas - 2


def test_no_bribe_is_charged_inside_the_turns_quarter(table: Table) -> None:
    florence(table, "key")
    events = table.when(SendMember(0, "noble", "bank", bribe=True))
    assert not any(isinstance(e, CoinsPaid) for e in events)


def test_a_noble_pays_a_florin_at_a_special_location(table: Table) -> None:
    florence(table, "key")
    events = table.when(SendMember(0, "noble", "market"))
    assert CoinsPaid(0, 1, 0, "special_entry") in events
    assert table.state.p[0].florins == 2


def test_an_urchin_enters_a_special_location_free(table: Table) -> None:
    florence(table, "key", UrchinJoined(0, "home"))
    events = table.when(SendMember(0, "urchin", "market"))
    assert not any(isinstance(e, CoinsPaid) for e in events)
    assert table.state.p[0].florins == 3


def test_a_noble_without_florins_cannot_enter_a_special_location(table: Table) -> None:
    table.create(start_florins=(0, 0)).given(TurnQuarterSet(0, "key"))
    table.refused(SendMember(0, "noble", "market"), "needs_florin")


def test_only_members_at_home_can_be_sent(table: Table) -> None:
    florence(table, "key")
    exc = table.refused(SendMember(0, "urchin", "bank"), "no_member_home")
    assert [c.params["kind"] for c in exc.alternatives] == ["noble"]


def test_the_florence_phase_comes_after_the_hell_phase(table: Table) -> None:
    table.create()
    table.refused(SendMember(0, "noble", "bank"), "not_in_phase_florence")


def test_the_haystack_brings_an_urchin_beside_the_member(table: Table) -> None:
    florence(table, "lily")
    events = table.when(SendMember(0, "noble", "haystack"))
    assert events[-1] == UrchinJoined(0, "haystack")
    assert table.state.p[0].members_at("haystack") == ("noble", "urchin")
    assert table.state.p[0].reserve_urchins == 3


def test_the_banquet_builds_the_next_floor(table: Table) -> None:
    florence(table, "eagle")
    events = table.when(SendMember(0, "noble", "banquet"))
    assert events[-1] == TowerFloorBuilt(0, 1)
    assert [f.height for f in table.state.p[0].tower] == [0, 1]


def test_the_bank_pays_two_florins_and_one_per_guest(table: Table) -> None:
    florence(table, "key", GuestTaken(0, 6, 0), GuestTaken(0, 7, 0))
    events = table.when(SendMember(0, "noble", "bank"))
    assert events[-1] == CoinsGained(0, 4, 0, "bank")


def test_the_turn_ends_after_the_location_action(table: Table) -> None:
    florence(table, "key")
    table.when(SendMember(0, "noble", "bank"))
    assert table.state.phase is Phase.ACTION
    assert table.when(EndTurn(0)) == [TurnEnded(0, 1)]


def test_the_council_is_refused_while_a_member_can_be_sent(table: Table) -> None:
    florence(table, "key")
    table.refused(HoldCouncil(0, "none"), "council_not_forced")


def nobody_home(player: int) -> tuple:
    """Every noble of ``player`` placed on earlier turns (at the Bank, where no guest is needed)."""
    return tuple(e for _ in range(4) for e in earlier(player, "noble", "courtyard"))


def test_with_nobody_home_but_an_accusation_possible_the_council_is_refused(table: Table) -> None:
    florence(table, "key", *nobody_home(0))
    assert table.state.p[0].at_home == 0  # all four nobles stand in the Courtyard, where Ana may accuse
    exc = table.refused(HoldCouncil(0, "member", "courtyard", "noble"), "council_not_forced")
    assert exc.params["at_home"] == 0


def test_the_council_costs_two_infamy_and_brings_one_member_home(table: Table) -> None:
    florence(table, "key", *nobody_home(0), GuestTaken(0, 6, 0), GuestTaken(0, 7, 0), GuestTaken(0, 8, 0))
    # The ground floor is full (3 spaces): the accuser has nowhere to go, so no accusation is possible.
    events = table.when(HoldCouncil(0, "member", "courtyard", "noble"))
    assert events == [CouncilHeld(0), InfamyChanged(0, -2, "council"), MemberWentHome(0, "noble", "courtyard", -1)]
    assert table.state.p[0].infamy == -2 and table.state.p[0].home_nobles == 1
    assert table.state.phase is Phase.DONE


def test_the_council_can_send_a_guest_back_to_the_palace(table: Table) -> None:
    florence(table, "key", *nobody_home(0), GuestTaken(0, 6, 0), GuestTaken(0, 7, 0), GuestTaken(0, 8, 0))
    table.when(HoldCouncil(0, "guest", colour=7))
    assert 7 in table.state.p[0].palace_guests and not table.state.p[0].has_in_tower("guest", 7)


# Issue 24, item 3: the Market and the Palace put a piece on an empty space of the tower (RULES.md §3.7);
# with no empty space their action cannot be done, so a member is not sent there (and no florin is paid).
FULL_TOWER = (GuestTaken(0, 6, 0), GuestTaken(0, 7, 0), GuestTaken(0, 8, 0))


def test_the_market_is_not_offered_to_a_full_tower(table: Table) -> None:
    florence(table, "key", *FULL_TOWER)
    offered = {send.location for send in florence_options(table.state, 0).sends}
    assert "market" not in offered
    assert "bank" in offered  # the free location of the Key quarter still is


def test_the_market_with_a_full_tower_is_refused_with_the_rule_and_the_alternatives(table: Table) -> None:
    florence(table, "key", *FULL_TOWER)
    florins = table.state.p[0].florins
    exc = table.refused(SendMember(0, "noble", "market"), "no_tower_space")
    assert exc.params == {"location": "market"}
    assert "3.7" in exc.rule  # the Market's rule: a barrel onto an empty tower space
    assert [c.params.get("location") for c in exc.alternatives] == ["bank"]
    assert table.state.p[0].florins == florins  # nothing charged


def test_the_palace_with_a_full_tower_is_refused_too(table: Table) -> None:
    florence(table, "cross", *FULL_TOWER)
    assert "palace" not in {send.location for send in florence_options(table.state, 0).sends}
    table.refused(SendMember(0, "noble", "palace", bribe=True), "no_tower_space")


def test_a_second_floor_with_room_opens_the_market_again(table: Table) -> None:
    florence(table, "key", *FULL_TOWER, TowerFloorBuilt(0, 1))
    assert "market" in {send.location for send in florence_options(table.state, 0).sends}
    events = table.when(SendMember(0, "noble", "market"))
    assert CoinsPaid(0, 1, 0, "special_entry") in events
