"""Random legal play: every command the active player may send now, for property tests and the
benchmark (``bench/``), which drive whole games through the real rules with it."""

from __future__ import annotations

import random

from companion.game.commands import (
    Accuse,
    BringSoul,
    Command,
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
from companion.game.errors import RuleViolation
from companion.game.legal import turn_options
from companion.game.projection import evolve
from companion.game.rules import decide
from companion.game.state import GameState, Phase
from companion.web.screens.florence_board import accuse_prep
from events.catalog import EndgameHalf, FraudPlay, GuardianUse, Reward

__all__ = ["FRAUD", "action_choices", "choices", "florence_choices", "play"]

FRAUD = FraudPlay("lineup", (2,), Reward("nothing"), EndgameHalf("always", "infamy", effect_amount=2))


def florence_choices(state: GameState, player: int) -> list[Command]:
    """Legal Florence-phase commands for ``player``."""
    f = turn_options(state).florence
    if f is None:
        return []
    out: list[Command] = []
    for s in f.sends:
        out += [SendMember(player, kind, s.location, bribe=bool(s.bribe), borrow=True) for kind, _ in s.kinds]
    for c in f.accusations:
        if not c.allowed:
            continue
        circle = int(next(loc for loc in state.edition.raw["locations"] if loc["id"] == c.location)["circle"])
        prep = accuse_prep(state, player, c.location)
        if prep is None:
            continue
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


def action_choices(state: GameState, player: int) -> list[Command]:
    """Legal action-phase commands for ``player`` (one of each kind, to keep the choice small)."""
    pl = state.p[player]
    options = turn_options(state).location_options
    out: list[Command] = [EndTurn(player)]
    space = [i for i, fl in enumerate(pl.tower) if len(fl.pieces) < 3]
    if "exchange" in options and pl.florins:
        out.append(ExchangeFlorins(player, 1))
    if "passage" in options:
        out += [RaiseCube(player, c) for c, sp in sorted(state.phlegethon.items()) if sp < 4][:1]
        free = [gate for gate in state.side.gates if gate not in pl.discs]
        if free and len(pl.discs) < 4:
            out.append(PlaceDisc(player, free[0]))
    if "underworld" in options:
        open_tracks = [
            int(t)
            for t in state.edition.section("tracks")["first_four"]
            if pl.skull(int(t), state.edition.first_level) < state.edition.track_length
        ]
        if state.cemetery and open_tracks:  # a track whose skull is at its end is refused (styx_track_at_end)
            out.append(UseStyx(player, min(state.cemetery), 1, first_track=open_tracks[0], borrow=True))
        empty = [s for s in state.side.shields if not state.occupied(s)]
        if empty:
            out += [UseGuardian(player, GuardianUse(gd, empty[0], effect=False), borrow=True) for gd in state.guardians]
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
            piece = next((pc for pc in fl.pieces if pc.kind in ("noble", "urchin")), None)
            if piece is not None:
                out.append(ReturnFromTower(player, (i,), (piece.kind,)))
    return out


def choices(state: GameState, rng: random.Random | None = None, allow_deck_end: bool = True) -> list[Command]:
    """Legal commands for the active player now.

    When a plague card is due: a random card from ``rng`` (or souls 2, 5, 7, 9 without one), and
    the end of the deck if ``allow_deck_end``. A loan is offered when few other moves are.
    """
    options = turn_options(state)
    player = state.active
    out: list[Command] = []
    if options.plague_due:
        souls = tuple(sorted(rng.choices(range(1, 10), k=rng.randint(2, 6)))) if rng else (2, 5, 7, 9)
        out.append(RevealPlagueCard(player, souls))
        if allow_deck_end:
            out.append(RevealPlagueCard(player, (), deck_empty=True))
        return out
    for m in options.hell_moves:
        if m.kind == "bring":
            out.append(BringSoul(player, m.colour, m.landing, borrow=True))
        elif m.start is not None:
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


def play(state: GameState, rng: random.Random, tries: int) -> GameState:
    """Random play from ``state``: ``tries`` times, one of ``choices`` picked with ``rng`` and decided
    (one the rules refuse is passed over); stops early when the game ends."""
    for _ in range(tries):
        if state.ended:
            break
        try:
            events = decide(state, rng.choice(choices(state, rng)))
        except RuleViolation:
            continue  # the generator offers a few commands the rules refuse
        for event in events:
            state = evolve(state, event)
    return state
