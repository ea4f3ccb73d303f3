"""Location actions after a member is placed (RULES.md §3.7): each effect within its limits, once."""

from __future__ import annotations

from companion.game.commands import (
    DeliverBarrel,
    ExchangeFlorins,
    MoveInTower,
    PlaceDisc,
    RaiseCube,
    ReturnFromTower,
    SendMember,
    TakeBarrel,
    TakeGuest,
)
from events.catalog import (
    AccuserToTower,
    BarrelDelivered,
    BarrelTaken,
    CoinsGained,
    CubeMoved,
    DiscPlaced,
    FlorinsExchanged,
    GuestTaken,
    InfamyChanged,
    MemberSent,
    MemberWentHome,
    OptionTaken,
    PieceMoved,
    TowerFloorBuilt,
    TurnQuarterSet,
)
from tests.builders import Table


def at(table: Table, location: str, quarter: str, *given, **create) -> Table:
    """Ana has just placed a noble on ``location`` (in ``quarter``), after the given events."""
    table.create(**create).given(*given, TurnQuarterSet(0, quarter))
    table.when(SendMember(0, "noble", location))
    return table


def test_the_bonfire_changes_up_to_three_florins(table: Table) -> None:
    at(table, "bonfire", "lily", start_florins=(5, 5))
    table.refused(ExchangeFlorins(0, 4), "out_of_range")
    events = table.when(ExchangeFlorins(0, 3))
    assert events == [OptionTaken(0, "bonfire", "exchange"), FlorinsExchanged(0, 3, 3)]
    table.refused(ExchangeFlorins(0, 1), "option_used")


def test_the_wall_changes_up_to_two_florins(table: Table) -> None:
    at(table, "wall", "eagle", start_florins=(5, 5))
    table.refused(ExchangeFlorins(0, 3), "out_of_range")
    table.when(ExchangeFlorins(0, 2))


def test_the_bonfire_raises_a_cube_or_places_a_disc_not_both(table: Table) -> None:
    at(table, "bonfire", "lily")
    start = table.state.phlegethon[6]
    assert table.when(RaiseCube(0, 6))[-1] == CubeMoved(0, 6, start + 1, "bonfire")
    table.refused(PlaceDisc(0, "gate-6a"), "option_used")


def test_a_disc_goes_on_a_gate_of_the_wall(table: Table) -> None:
    at(table, "bonfire", "lily")
    assert table.when(PlaceDisc(0, "gate-6b"))[-1] == DiscPlaced(0, "gate-6b")
    assert "gate-6b" in table.state.p[0].discs


def test_the_market_adds_a_barrel_to_an_empty_space_never_twice_one_colour(table: Table) -> None:
    at(table, "market", "key", BarrelTaken(0, 2, 0))
    table.refused(TakeBarrel(0, 2, 0), "barrel_not_in_market")
    assert table.when(TakeBarrel(0, 3, 0))[-1] == BarrelTaken(0, 3, 0)
    assert {p.colour for p in table.state.p[0].pieces("barrel")} == {2, 3}


def test_a_full_floor_takes_nothing_more(table: Table) -> None:
    full = (GuestTaken(0, 6, 0), GuestTaken(0, 7, 0), GuestTaken(0, 8, 0))
    at(table, "market", "key", *full, TowerFloorBuilt(0, 1))  # floor 1 has room: the Market is open
    exc = table.refused(TakeBarrel(0, 3, 0), "floor_full")
    assert [c.params for c in exc.alternatives] == [{"floor": 1}]


def test_the_palace_pays_florins_equal_to_the_floor_height(table: Table) -> None:
    at(table, "palace", "cross", TowerFloorBuilt(0, 1), TowerFloorBuilt(0, 2))
    events = table.when(TakeGuest(0, 7, 2))
    assert events[1:] == [GuestTaken(0, 7, 2), CoinsGained(0, 2, 0, "palace")]
    table.refused(TakeGuest(0, 6, 0), "option_used")


def test_a_guest_colour_already_in_the_tower_is_refused(table: Table) -> None:
    at(table, "palace", "cross", GuestTaken(0, 7, 0))
    table.refused(TakeGuest(0, 7, 0), "guest_not_in_palace")


def test_the_wall_delivers_a_barrel_for_infamy(table: Table) -> None:
    at(table, "wall", "eagle", BarrelTaken(0, 4, 0))
    events = table.when(DeliverBarrel(0, 4))
    first = table.edition.section("actions")["barrel_delivery_infamy"][0]
    assert events[1:] == [BarrelDelivered(0, 4, 0), InfamyChanged(0, first, "barrel")]
    assert not table.state.p[0].pieces("barrel") and 4 in table.state.p[0].barrels_delivered


def test_the_courtyard_sends_up_to_two_tower_members_home(table: Table) -> None:
    at(table, "courtyard", "cross", MemberSent(0, "noble", "bank", False), AccuserToTower(0, "bank", "noble", 0))
    table.refused(ReturnFromTower(0, (0, 0, 0), ("noble",) * 3), "out_of_range")
    events = table.when(ReturnFromTower(0, (0,), ("noble",)))
    assert events[1:] == [MemberWentHome(0, "noble", "tower", 0)]
    assert table.state.p[0].home_nobles == 3  # 4 − the one now in the Courtyard


def test_the_courtyard_rearranges_the_tower(table: Table) -> None:
    at(table, "courtyard", "cross", TowerFloorBuilt(0, 1), GuestTaken(0, 9, 0))
    assert table.when(MoveInTower(0, "guest", 9, 0, 1))[-1] == PieceMoved(0, "guest", 9, 0, 1)
    assert table.state.p[0].floor_of("guest", 9) == 1
    table.when(MoveInTower(0, "guest", 9, 1, 0))  # rearranging is one effect, move by move


def test_an_effect_of_another_location_is_refused(table: Table) -> None:
    at(table, "bank", "key")
    exc = table.refused(ExchangeFlorins(0, 1), "not_at_this_location")
    assert exc.params["location"] == "bank"
