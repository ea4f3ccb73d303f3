"""Properties of random legal play (hypothesis): souls land only on empty shields and never
beyond their circle; replaying the log always gives the live state; undo restores exactly."""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.game.commands import (
    Accuse,
    BringSoul,
    CreateGame,
    DeliverBarrel,
    EndTurn,
    ExchangeFlorins,
    MoveSoul,
    PlaceDisc,
    PlayFraud,
    RaiseCube,
    ReturnFromTower,
    RevealPlagueCard,
    SendMember,
    TakeBarrel,
    TakeGuest,
    TakeLoan,
    UseGuardian,
    UseStyx,
)
from companion.game.edition import Edition
from companion.game.legal import turn_options
from companion.game.projection import evolve, replay
from companion.game.rules import decide, decide_create
from companion.game.state import GameState, Phase
from companion.game.timeline import Recorded, build_timeline, decide_redo, decide_undo
from companion.web.florence_view import accuse_prep
from events.catalog import EndgameHalf, Event, FraudPlay, GuardianUse, Reward, SoulBroughtIn, SoulMoved
from tests.builders import seats


@dataclass
class Play:
    """A game driven by random legal choices, keeping the log as the store would."""

    edition: Edition
    records: list[Recorded] = field(default_factory=list)
    live: GameState | None = None

    def append(self, events: list[Event]) -> None:
        first = len(self.records) + 1
        self.records += [Recorded(first + i, first, e) for i, e in enumerate(events)]

    def replayed(self) -> GameState:
        return replay(self.edition, build_timeline(self.records).effective_events())


FRAUD = FraudPlay("lineup", (2,), Reward("nothing"), EndgameHalf("always", "infamy", effect_amount=2))


def florence_choices(state: GameState, player: int) -> list[object]:
    f = turn_options(state).florence
    assert f is not None
    out: list[object] = []
    for s in f.sends:
        out += [SendMember(player, kind, s.location, bribe=bool(s.bribe), borrow=True) for kind, _ in s.kinds]
    for c in f.accusations:
        if not c.allowed:
            continue
        circle = int(next(loc for loc in state.edition.raw["locations"] if loc["id"] == c.location)["circle"])
        prep = accuse_prep(state, player, c.location)
        assert prep is not None
        out.append(
            Accuse(
                player,
                c.location,
                bribe=c.needs_bribe,
                borrow=True,
                bonus=None if circle in state.bonus_tiles else Reward("florins", 1),
                dante_fraud=FRAUD if prep.dante_kind == "fraud" else None,
            )
        )
    out += list(f.council)
    return out


def action_choices(state: GameState, player: int) -> list[object]:
    pl = state.p[player]
    options = turn_options(state).location_options
    out: list[object] = [EndTurn(player)]
    space = [i for i, fl in enumerate(pl.tower) if len(fl.pieces) < 3]
    if "exchange" in options and pl.florins:
        out.append(ExchangeFlorins(player, 1))
    if "passage" in options:
        out += [RaiseCube(player, c) for c, sp in sorted(state.phlegethon.items()) if sp < 4][:1]
        free = [g for g in state.side.gates if g not in pl.discs]
        if free and len(pl.discs) < 4:
            out.append(PlaceDisc(player, free[0]))
    if "underworld" in options:
        if state.cemetery:
            colour = min(state.cemetery)
            out.append(UseStyx(player, colour, 1, first_track=2, borrow=True))
        empty = [s for s in state.side.shields if not state.occupied(s)]
        for guardian in state.guardians:
            out.append(UseGuardian(player, GuardianUse(guardian, empty[0], effect=False), borrow=True))
    if "fraud" in options:
        out.append(PlayFraud(player, FRAUD, borrow=True))
    if "deliver" in options and pl.pieces("barrel"):
        out.append(DeliverBarrel(player, pl.pieces("barrel")[0].colour))
    if "take" in options and space:
        colours = pl.market_barrels if state.action == "market" else pl.palace_guests
        if colours:
            cls = TakeBarrel if state.action == "market" else TakeGuest
            out.append(cls(player, min(colours), space[0]))
    if "home" in options:
        for i, fl in enumerate(pl.tower):
            for piece in fl.pieces:
                if piece.kind in ("noble", "urchin"):
                    out.append(ReturnFromTower(player, (i,), (piece.kind,)))
                    break
    return out


def choices(state: GameState) -> list[object]:
    options = turn_options(state)
    player = state.active
    out: list[object] = []
    if options.plague_due:
        out.append(RevealPlagueCard(player, (2, 5, 7, 9)))
        out.append(RevealPlagueCard(player, (), deck_empty=True))
        return out
    for m in options.hell_moves:
        if m.kind == "bring":
            out.append(BringSoul(player, m.colour, m.landing, borrow=True))
        else:
            assert m.start is not None
            out.append(MoveSoul(player, m.start, m.landing, via=m.path, borrow=True))
    if state.phase is Phase.FLORENCE:
        out += florence_choices(state, player)
    elif state.phase is Phase.ACTION:
        out += action_choices(state, player)
    elif options.can_end_turn:
        out.append(EndTurn(player))
    if state.phase is not Phase.OVER and len(out) < 3:
        out.append(TakeLoan(player))
    return out


def check_board(state: GameState) -> None:
    for shield, soul in state.hell.items():
        circle = state.side.shields[shield].circle
        assert circle <= soul.colour, f"{soul} beyond its circle on {shield}"
        if circle == soul.colour:
            assert soul.laid, f"{soul} reached its circle on {shield} but stands"
    assert not set(state.hell) & set(state.guardians.values())


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.integers(1, 4), card=st.lists(st.integers(1, 9), min_size=2, max_size=6))
def test_random_legal_play_keeps_every_invariant(edition: Edition, data, players: int, card: list[int]) -> None:
    play = Play(edition)
    play.append(decide_create(edition, CreateGame(players=seats(players), plague_card=tuple(card))))
    live = play.replayed()
    for _ in range(data.draw(st.integers(5, 120), label="steps")):
        if live.phase is Phase.OVER:
            break
        roll = data.draw(st.integers(0, 9), label="roll")
        timeline = build_timeline(play.records)
        if roll == 0 and timeline.undoable:
            before_last = replay(
                edition, [e for a in timeline.actions if a.seq in timeline.done[:-1] for e in a.events]
            )
            play.append(list(decide_undo(timeline)))
            live = play.replayed()
            assert live == before_last, "undo did not restore the exact prior state"
            continue
        if roll == 1 and timeline.undone:
            play.append([decide_redo(timeline)])
            live = play.replayed()
            continue
        options = choices(live)
        command = data.draw(st.sampled_from(options), label="command")
        events = decide(live, command)
        for evt in events:
            if isinstance(evt, SoulMoved):
                assert evt.path[-1] not in live.hell, "a soul landed on an occupied shield"
                assert all(s in live.hell or s in live.guardians.values() for s in evt.path[:-1])
            if isinstance(evt, SoulBroughtIn):
                assert not live.occupied(evt.shield)
        play.append(events)
        for evt in events:
            live = evolve(live, evt)
        check_board(live)
        assert live == play.replayed(), "replaying the log does not give the live state"


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_undo_of_any_move_restores_the_exact_prior_state(edition: Edition, data) -> None:
    play = Play(edition)
    play.append(decide_create(edition, CreateGame(players=seats(2), plague_card=(3, 5, 7, 9))))
    live = play.replayed()
    for _ in range(data.draw(st.integers(1, 25))):
        options = [c for c in choices(live) if isinstance(c, (BringSoul, MoveSoul, EndTurn))]
        if not options:
            break
        before = live
        command = data.draw(st.sampled_from(options))
        play.append(decide(live, command))
        if isinstance(command, (BringSoul, MoveSoul)):
            play.append(list(decide_undo(build_timeline(play.records))))
            assert play.replayed() == before
            play.append([decide_redo(build_timeline(play.records))])
        live = play.replayed()
