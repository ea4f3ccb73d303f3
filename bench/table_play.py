"""A table's play over HTTP, as ``static/js/table.js`` and the game page send it.

The benchmark's phone (``Phone``) holds what the page holds: the seq its screen was drawn at and the
fingerprint of each part it shows (``data-parts``), sent as ``HX-Game-Parts`` with every tap; it reads
the new seq and fingerprints from each answer's ``HX-Trigger-After-Settle``. A soul brought in or
moved is first chosen on the map (a GET of the game with ``select=``, the round trip the page makes)
and then landed (a POST with the fields the map's ``hx-vals`` carry); a guardian used at the Bonfire is
first chosen in its group (``guardian=``), then its new shield on the map (``gto=``), and then used.
Florence's and the locations' controls post the fields their forms carry.

Which command comes next is chosen from the legal commands of the game as recorded
(``testkit.random_play.choices``), read by the benchmark's own ``GameService`` on the same database;
a command that would end the game is set aside, so a game can be played on for as long as asked.

``MIX`` names the kinds a table's mix is made of; ``play_mix`` times each answer by kind, each followed by
a bare durable insert sent right after it (interleaved).

With ``gap``, every request a player sends (a choice on the map, a tap) and every bare insert is sent only after the
servers have been left alone that long, as a lone table's taps find the server (seconds apart). Every
``control_every``-th step a control insert (a bare insert) is also timed in the tap's own place
(``MixResult.control``): the same request timed in both places must read the same, or the places are not alike and
the ratio of a tap to the bare insert reads the places, not the app. Sent back to back (``gap=0``), a request finds
the server warm from the one before, or slowed by the tail of its answer, or the client cold from choosing the next
command.
"""

from __future__ import annotations

import html
import json
import random
import re
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from bench.served import Answer, Client
from companion.game.commands import (
    Accuse,
    BringSoul,
    Command,
    DeliverBarrel,
    EndTurn,
    ExchangeFlorins,
    HoldCouncil,
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
from companion.game.rules import decide
from companion.game.state import GameState, Phase
from companion.web.http.server_timing import parse as parse_server_timing
from companion.web.screens.parts import merge_parts
from events.catalog import GameEnded
from testkit.random_play import choices

__all__ = ["CARD", "MIX", "MixResult", "Phone", "form_of", "kind_of", "play_mix"]

HTMX = {"HX-Request": "true"}
MIX = ("bring", "move", "send", "end-turn", "loan", "undo", "redo", "guardian", "fraud")
"""The kinds a table's taps are timed by: every one of them must be in the benchmark's report."""
SELECT = "select"  # the page's choice before a tap (a GET), timed on its own: a soul on the map before a bring or
# a move, a guardian at the Bonfire and its new shield before its use
CARD = "card"  # a form the page fetches on its own right after an answer shows it (the Wall's fraud card)
LAZY = re.compile(r'hx-get="([^"]+)" hx-trigger="load[,"]')


def kind_of(command: object) -> str:
    """The mix kind of a command (its form's name for the ones outside ``MIX``)."""
    names: dict[type, str] = {
        BringSoul: "bring",
        MoveSoul: "move",
        SendMember: "send",
        EndTurn: "end-turn",
        TakeLoan: "loan",
        UseGuardian: "guardian",
        PlayFraud: "fraud",
        Accuse: "accuse",
        HoldCouncil: "council",
        RevealPlagueCard: "plague",
    }
    return names.get(type(command), "location")


def _flag(value: bool) -> str:
    return "true" if value else "false"


def form_of(command: object, state: GameState) -> tuple[str, dict[str, Any], tuple[dict[str, str], ...]]:
    """(path under the game, the form's fields, the choices made on the page first) for ``command``: each choice
    is the query of the link tapped (``select=`` a soul on the map; at the Bonfire ``guardian=`` a guardian, then
    ``gto=`` its new shield on the map).

    The fields are those the page's control sends (the map's ``hx-vals``, the form's inputs)."""
    p = getattr(command, "player", state.active)
    base: dict[str, Any] = {"player": p}
    c: Any = command
    if isinstance(command, BringSoul):
        select = f"cemetery-{c.colour}"
        return "bring", {**base, "colour": c.colour, "select": select, "shield": c.shield}, ({"select": select},)
    if isinstance(command, MoveSoul):
        fields = {**base, "from_shield": c.from_shield, "select": c.from_shield, "to_shield": c.to_shield}
        return "move", {**fields, "via": ",".join(c.via)}, ({"select": c.from_shield},)
    if isinstance(command, TakeLoan):
        return "loan", base, ()
    if isinstance(command, EndTurn):
        return "end-turn", base, ()
    if isinstance(command, SendMember):
        fields = {**base, "kind": c.kind, "location": c.location}
        fields["bribe_for"] = c.location if c.bribe else ""
        fields["borrow_for"] = c.location if c.bribe else ""
        return "send", fields, ()
    if isinstance(command, Accuse):
        fields = {**base, "location": c.location, "bribe": _flag(c.bribe), "borrow": _flag(c.borrow)}
        if c.bonus is not None:
            fields.update(bonus_kind=c.bonus.kind, bonus_amount=c.bonus.amount)
        if c.dante_fraud is not None:
            fields.update(dante_fraud="true", **_fraud_fields(c.dante_fraud))
        return "accuse", fields, ()
    if isinstance(command, HoldCouncil):
        return "council", {**base, "choice": c.choice, "source": c.source, "kind": c.kind, "colour": c.colour}, ()
    if isinstance(command, RevealPlagueCard):
        counts: dict[int, int] = {}
        for soul in c.souls:
            counts[soul] = counts.get(soul, 0) + 1
        return "plague", {**base, **{f"plague_{k}": v for k, v in counts.items()}}, ()
    if isinstance(command, UseGuardian):
        u = c.use
        fields = {**base, "guardian": u.guardian, "to_shield": u.to_shield, "effect": _flag(u.effect)}
        chosen = {"guardian": u.guardian}
        steps = (chosen, {**chosen, "gto": u.to_shield}) if u.to_shield else (chosen,)
        return "location/guardian", {**fields, "borrow": _flag(c.borrow)}, steps
    if isinstance(command, PlayFraud):
        return "location/fraud", {**base, **_fraud_fields(c.play), "borrow": _flag(c.borrow)}, ()
    location: dict[type, Callable[[Any], tuple[str, dict[str, Any]]]] = {
        ExchangeFlorins: lambda c: ("exchange", {"florins": c.florins}),
        RaiseCube: lambda c: ("cube", {"circle": c.circle}),
        PlaceDisc: lambda c: ("disc", {"gate": c.gate}),
        DeliverBarrel: lambda c: ("deliver", {"colour": c.colour}),
        TakeBarrel: lambda c: ("barrel", {"colour": c.colour, "floor": c.floor}),
        TakeGuest: lambda c: ("guest", {"colour": c.colour, "floor": c.floor}),
        ReturnFromTower: lambda c: ("home", {"member": [f"{f}:{k}" for f, k in zip(c.floors, c.kinds, strict=True)]}),
        UseStyx: lambda c: (
            "styx",
            {
                "colour": c.colour,
                "count": c.count,
                "first_track": c.first_track,
                "last_track": c.last_track,
                "borrow": _flag(c.borrow),
            },
        ),
    }
    option, fields = location[type(command)](command)
    return f"location/{option}", {**base, **fields}, ()


def _fraud_fields(fraud: Any) -> dict[str, Any]:
    e = fraud.endgame
    return {
        "fraud_source": fraud.source,
        "fraud_barrels": list(fraud.barrels),
        "reward_kind": fraud.reward.kind if fraud.reward.kind != "nothing" else "",
        "eg_requirement": e.requirement,
        "eg_effect": e.effect,
        "eg_effect_amount": e.effect_amount,
    }


@dataclass
class Phone:
    """One phone at the table: its connection, the seq and parts its screen shows."""

    client: Client
    game_id: str
    seq: int = 0
    parts: str = ""
    lazy: list[Answer] = field(default_factory=list)  # the answers fetched on their own (``LAZY``), not yet counted
    sent_at: float = 0.0  # ``time.perf_counter()`` when the last tap that records was sent

    def open(self) -> Answer:
        """The game page, read whole (its CSRF token, seq and parts)."""
        answer = self.client.get(f"/g/{self.game_id}")
        self.seq = int(_attr(answer.text, "data-seq"))
        self.parts = _attr(answer.text, "data-parts")
        return answer

    def _headers(self, trigger: str | None = None) -> dict[str, str]:
        headers = {**HTMX, "HX-Game-Parts": self.parts, "HX-Target": "game"}
        if trigger:
            headers["HX-Trigger"] = trigger
        return headers

    def _take(self, answer: Answer) -> None:
        raw = answer.headers.get("hx-trigger-after-settle")
        if raw:
            update = json.loads(raw)["game:update"]
            self.seq = int(update["seq"])
            self.parts = str(update["parts"]) if "parts" in update else merge_parts(self.parts, update["changed"])
            if update.get("more"):  # parts left for a second answer, asked for at once (table.js), counted as lazy
                more = self.client.get(f"/g/{self.game_id}", {**self._headers("live-trigger"), "HX-Game-More": "1"})
                self.lazy.append(more)
                self._take(more)
        for path in LAZY.findall(answer.text):  # what htmx fetches as soon as the answer is swapped in
            self.lazy.append(self.client.get(html.unescape(path), HTMX))

    def choose(self, choice: dict[str, str]) -> Answer:
        """A tap choosing a soul on the map or a guardian at the Bonfire (the link's address)."""
        query = urlencode({"at": self.seq}) + "&" + urlencode(choice)
        answer = self.client.get(f"/g/{self.game_id}?{query}", self._headers())
        if answer.status != 200:
            raise RuntimeError(f"choosing {choice}: HTTP {answer.status}")
        self._take(answer)
        return answer

    def refresh(self) -> Answer:
        """What the live trigger fetches when the stream names a newer seq."""
        answer = self.client.get(f"/g/{self.game_id}", self._headers("live-trigger"))
        if answer.status != 200:
            raise RuntimeError(f"refresh: HTTP {answer.status}")
        self._take(answer)
        return answer

    def send(self, path: str, fields: dict[str, Any]) -> Answer:
        """A tap that records: the form's fields, the screen's seq, a fresh key."""
        form = {"seq": self.seq, "key": uuid.uuid4().hex, **fields}
        self.sent_at = time.perf_counter()
        answer = self.client.post(f"/g/{self.game_id}/{path}", form, self._headers())
        self._take(answer)
        return answer


def _attr(html: str, name: str) -> str:
    marker = f'{name}="'
    start = html.index(marker) + len(marker)
    return html[start : html.index('"', start)]


@dataclass
class MixResult:
    """Seconds and answer bytes by kind, the bare inserts sent between them, and what was refused; with the servers'
    ``Server-Timing`` (``--server-timing``), each answer's milliseconds in the app and its CPU there, by kind
    (``inside``) and for the bare inserts (``bare_inside``), each with the seconds the client waited."""

    seconds: dict[str, list[float]] = field(default_factory=dict)
    body_bytes: dict[str, list[int]] = field(default_factory=dict)
    bare: list[float] = field(default_factory=list)
    control: list[float] = field(default_factory=list)  # bare inserts timed in a tap's place (``play_mix``)
    refused: int = 0
    inside: dict[str, list[Inside]] = field(default_factory=dict)
    bare_inside: list[Inside] = field(default_factory=list)

    def add(self, kind: str, answer: Answer) -> None:
        self.seconds.setdefault(kind, []).append(answer.seconds)
        self.body_bytes.setdefault(kind, []).append(answer.body_bytes)
        found = server_split(answer)
        if found is not None:
            self.inside.setdefault(kind, []).append(found)

    def add_bare(self, answer: Answer) -> None:
        self.bare.append(answer.seconds)
        found = server_split(answer)
        if found is not None:
            self.bare_inside.append(found)

    def add_lazy(self, phone: Phone) -> None:
        """The forms ``phone`` fetched on its own after its last answer, counted as ``CARD``."""
        for answer in phone.lazy:
            self.add(CARD, answer)
        phone.lazy.clear()


Inside = tuple[float, float, float]
"""One answer's milliseconds: waited by the client, in the app, the app's CPU (``Server-Timing``)."""


def server_split(answer: Answer) -> Inside | None:
    """The answer's wait and its ``Server-Timing`` (``companion.web.http.server_timing``), None without it."""
    metrics = parse_server_timing(answer.headers.get("server-timing"))
    if "app" not in metrics:
        return None
    return answer.seconds * 1000, metrics["app"], metrics.get("cpu", metrics["app"])


def _legal(state: GameState, rng: random.Random) -> list[tuple[str, Command]]:
    """The commands the active player may send now that do not end the game, with their kinds."""
    offered = choices(state, rng, allow_deck_end=False)
    if state.phase is not Phase.OVER and not any(isinstance(c, TakeLoan) for c in offered):
        offered.append(TakeLoan(state.active))
    out = []
    for command in offered:
        try:
            events = decide(state, command)
        except RuleViolation:
            continue
        if not any(isinstance(e, GameEnded) for e in events):
            out.append((kind_of(command), command))
    return out


def _pick(legal: list[tuple[str, Command]], counts: dict[str, int], rng: random.Random, state: GameState) -> Command:
    """The command of the kind sent least so far; a send goes where a guardian or a fraud card waits."""

    by_kind: dict[str, list[Command]] = {}
    for kind, command in legal:
        by_kind.setdefault(kind, []).append(command)
    least = min(counts.get(k, 0) for k in by_kind)  # the others (a council, a plague card) count alike
    kind = rng.choice(sorted(k for k in by_kind if counts.get(k, 0) == least))
    options = by_kind[kind]
    if kind == "send":
        wanted = [loc for loc, k in (("bonfire", "guardian"), ("wall", "fraud")) if counts.get(k, 0) <= least]
        aimed = [c for c in options if getattr(c, "location", "") in wanted]
        options = aimed or options
    if kind == "move":  # the map lands a simple move in one tap; a toll asks to confirm first
        pay = state.p[state.active].drachmas
        simple = [m for m in options if _toll(state, m) <= pay]
        options = simple or options
    return rng.choice(options)


def _toll(state: GameState, move: object) -> int:
    for m in turn_options(state).hell_moves:
        if m.start == getattr(move, "from_shield", None) and m.landing == getattr(move, "to_shield", None):
            return int(m.total_drachmas)
    return 0


GAP = 0.03
"""Seconds the benchmark leaves the servers alone before each timed request (``bench/run.py --gap``): long enough
that an insert after another process's insert times as one after a long pause (``bench/README.md``, the method)."""
CONTROL_EVERY = 3
"""Every this many steps, a bare insert is also timed in the tap's place (``bench/run.py``: with a gap, or asked)."""


@dataclass
class _Pace:
    """How ``play_mix`` spaces and follows its requests: ``gap`` seconds of ``pause`` before each, a bare insert on
    ``bare`` after each tap, and every ``control_every``-th step a control insert in the tap's place."""

    phone: Phone
    bare: Client | None
    result: MixResult
    gap: float
    control_every: int
    pause: Callable[[float], None]

    def alone(self) -> None:
        """Leave the servers alone ``gap`` seconds before the next timed request."""
        if self.gap > 0:
            self.pause(self.gap)

    def then_bare(self) -> None:
        """After a tap: count what the page fetched on its own, then time one bare insert."""
        self.result.add_lazy(self.phone)
        if self.bare is not None:
            self.alone()
            self.result.add_bare(self.bare.post("/hit", {"key": uuid.uuid4().hex}, HTMX))

    def control(self, step: int) -> None:
        """On a control step, a bare insert timed where the tap is about to be sent."""
        if self.bare is not None and self.control_every > 0 and step % self.control_every == 0:
            self.alone()
            self.result.control.append(self.bare.post("/hit", {"key": uuid.uuid4().hex}, HTMX).seconds)


def play_mix(
    phone: Phone,
    bare: Client | None,
    state_of: Callable[[], tuple[GameState, bool, bool]],
    steps: int,
    rng: random.Random,
    undo_every: int = 5,
    counts: dict[str, int] | None = None,
    gap: float = 0.0,
    control_every: int = 0,
    pause: Callable[[float], None] = time.sleep,
) -> MixResult:
    """``steps`` taps of a table's mix on ``phone``'s game, each followed by a bare insert on ``bare`` (if any).

    ``state_of()`` gives the recorded game's state and whether an undo and a redo are possible.
    Every ``undo_every``-th step is an undo followed by its redo (the game moves on). ``counts`` (the kinds
    sent so far) is kept by a caller that plays one tap at a time, so that the kind sent least is chosen
    across its calls too, not only within one. ``gap``: seconds of ``pause`` before every request a player sends (a
    choice, a tap, a loan's confirmation, an undo, a redo) and every bare insert. With ``bare``, every
    ``control_every``-th step (none at 0) a bare insert is timed in the tap's place too, after the choices, and on an
    undo's step before the undo and before its redo (``MixResult.control``). What the page fetches at once after an
    answer (the Wall's form, ``CARD``; the second answer of a tap past ``ANSWER_BUDGET``) is fetched at once."""
    result = MixResult()
    counts = {} if counts is None else counts
    pace = _Pace(phone, bare, result, gap, control_every, pause)
    alone, then_bare, control = pace.alone, pace.then_bare, pace.control

    for step in range(steps):
        state, undoable, _ = state_of()
        if step % undo_every == undo_every - 1 and undoable:
            for path in ("undo", "redo"):
                control(step)  # the places of an undo and of its redo are timed too
                before = phone.seq
                alone()
                answer = phone.send(path, {})
                if phone.seq <= before:
                    raise RuntimeError(f"the {path} recorded nothing (seq {before})")
                result.add(path, answer)
                counts[path] = counts.get(path, 0) + 1
                then_bare()
            continue
        legal = _legal(state, rng)
        if not legal:
            raise RuntimeError("no legal command that leaves the game going")
        if {kind for kind, _ in legal} == {"loan"} and undoable:
            # the last turn of a complete game: all but a loan would end it; the table takes back a tap
            alone()
            answer = phone.send("undo", {})
            result.add("undo", answer)
            counts["undo"] = counts.get("undo", 0) + 1
            then_bare()
            continue
        command = _pick(legal, counts, rng, state)
        kind = kind_of(command)
        path, fields, taps_first = form_of(command, state)
        for choice in taps_first:
            alone()
            result.add(SELECT, phone.choose(choice))
            then_bare()
        control(step)  # after the choices
        before = phone.seq
        alone()
        answer = phone.send(path, fields)
        if phone.seq <= before:  # a loan to confirm, or a refusal: the page's confirmation is the next tap
            alone()
            answer = phone.send(path, {**fields, "confirm_loan": "true"})
            if phone.seq <= before:
                result.refused += 1
                phone.open()
                continue
        result.add(kind, answer)
        counts[kind] = counts.get(kind, 0) + 1
        then_bare()
    return result


def timed_seconds(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start
