"""Every refusal the core can raise is declared once, has a sentence in English and Spanish, and
reads in words: found statically (every raise site) and dynamically (random play with wrong taps)."""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask_babel import force_locale

from companion.game import commands as cmd
from companion.game.commands import CreateGame
from companion.game.edition import Edition
from companion.game.errors import Choice, RuleViolation
from companion.game.projection import evolve, replay
from companion.game.refusals import (
    CHOICES,
    REFUSALS,
    ChoiceKind,
    Kind,
    Refusal,
    UndeclaredRefusal,
    placeholders,
    refusal,
)
from companion.game.rules import decide, decide_create
from companion.game.rules.hell import why_stuck
from companion.game.state import GameState, Phase
from companion.service import refusal_of
from companion.web import create_app
from companion.web.words.glossary import guardian_note, player_letter
from companion.web.words.refusals import describe_choice, describe_refusal, describe_rule
from events.catalog import EndgameHalf, FraudPlay, GuardianUse, Reward
from testkit.random_play import choices
from tests.builders import seats

ROOT = Path(__file__).resolve().parents[3]
PO = ROOT / "companion" / "translations" / "es" / "LC_MESSAGES" / "messages.po"
SOURCES = sorted((ROOT / "companion").rglob("*.py"))  # the core, the service and the web layer alike
RAW = re.compile(r"choice\.|%\(|\b[a-z]+_[a-z_]+\b|gate-")


# --- statically: every raise site -------------------------------------------------------------


def _functions(tree: ast.Module) -> Iterator[ast.AST]:
    yield tree
    yield from (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))


def _strings(node: ast.AST | None) -> set[str]:
    return (
        {n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)} if node else set()
    )


def _codes(arg: ast.expr, scope: ast.AST, module: ast.Module) -> set[str] | None:
    """The codes a call's first argument can be: literals, a local chosen among literals, or a table."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return {arg.value}
    if isinstance(arg, ast.IfExp):
        body, orelse = _codes(arg.body, scope, module), _codes(arg.orelse, scope, module)
        return None if body is None or orelse is None else body | orelse
    name = arg.value if isinstance(arg, ast.Subscript) else arg
    if isinstance(name, ast.Name):
        values = [
            n.value
            for where in (scope, module)
            for n in ast.walk(where)
            if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name.id for t in n.targets)
        ]
        if values and isinstance(arg, ast.Subscript):
            return {
                v.value
                for d in values
                if isinstance(d, ast.Dict)
                for v in d.values
                if isinstance(v, ast.Constant) and isinstance(v.value, str)
            }
        if values and all(isinstance(v, (ast.Constant, ast.IfExp)) for v in values):
            return set().union(*(_strings(v) for v in values))
    return None


def raise_sites() -> Iterator[tuple[str, str, str, ast.Call, ast.AST, ast.Module]]:
    """(place, class name, code, call, enclosing function, module) for every RuleViolation and Choice."""
    for path in SOURCES:
        module = ast.parse(path.read_text(encoding="utf-8"))
        for scope in _functions(module):
            for node in ast.walk(scope):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                if name not in ("RuleViolation", "Choice"):
                    continue
                codes = _codes(node.args[0], scope, module)
                place = f"{path.relative_to(ROOT)}:{node.lineno}"
                assert codes, f"{place}: a {name} code the test cannot read; use a literal or a table of literals"
                for code in codes:
                    yield place, name, code, node, scope, module


def test_every_raise_site_uses_a_declared_code_with_its_declared_parameters() -> None:
    problems = []
    sites = list(raise_sites())
    for place, name, code, call, _, _ in sites:
        entry: Any = REFUSALS.get(code) if name == "RuleViolation" else CHOICES.get(code)
        if entry is None:
            problems.append(f"{place}: {name} {code!r} is not in the catalogue")
            continue
        params = call.args[1] if len(call.args) > 1 else None
        if params is None:
            given: set[str] = set()
            spread = False
        elif isinstance(params, ast.Dict):
            given = {k.value for k in params.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
            spread = any(k is None for k in params.keys)
        else:
            continue  # a variable: the constructor checks it when it runs (see the dynamic test)
        text = entry.sentence if name == "RuleViolation" else entry.phrase
        declared = set(entry.params)
        if not getattr(entry, "open", False) and given - declared:
            problems.append(f"{place}: {code} passes undeclared {sorted(given - declared)}")
        if not spread and placeholders(text) - given:
            problems.append(f"{place}: {code} lacks {sorted(placeholders(text) - given)} for its sentence")
    assert problems == []
    raised = {code for _, name, code, *_ in sites if name == "RuleViolation"}
    assert len(raised) >= 100, "the walk found too few raise sites to be looking in the right place"


def test_a_code_outside_the_catalogue_or_a_parameter_it_does_not_declare_cannot_be_built() -> None:
    with pytest.raises(UndeclaredRefusal):
        RuleViolation("no_such_code_anywhere", {})
    with pytest.raises(UndeclaredRefusal):
        RuleViolation("not_your_turn", {"player": 1})  # its sentence names the active player too
    with pytest.raises(UndeclaredRefusal):
        RuleViolation("game_exists", {"stray": 1})
    with pytest.raises(UndeclaredRefusal):
        Choice("choice.track", {})
    with pytest.raises(UndeclaredRefusal):
        Choice("choice.nowhere", {})
    turn = refusal_of(RuleViolation("not_your_turn", {"player": 1, "active": 0}))
    assert turn["rule"] == "Reference §4" and turn["sentence"] == "It is %(active)s's turn, not %(player)s's."


def test_every_sentence_is_in_the_spanish_catalogue_with_the_same_placeholders() -> None:
    with PO.open("rb") as handle:
        spanish = {
            m.id: m.string for m in read_po(handle) if isinstance(m.id, str) and m.id and isinstance(m.string, str)
        }
    texts = [e.sentence for e in REFUSALS.values()] + [c.phrase for c in CHOICES.values()]
    problems = []
    for text in texts:
        translated = spanish.get(text)
        if not translated:
            problems.append(f"no Spanish for {text!r}")
        elif placeholders(translated) != placeholders(text):
            problems.append(f"placeholders differ: {text!r} -> {translated!r}")
    entries: list[Refusal | ChoiceKind] = [*REFUSALS.values(), *CHOICES.values()]
    for entry in entries:
        text = entry.sentence if isinstance(entry, Refusal) else entry.phrase
        if placeholders(text) - set(entry.params):
            problems.append(f"{text!r} names parameters it does not declare")
    assert problems == []


PARENTHETICAL_PLURAL = re.compile(r"\w\((?:s|es|as|os)\)")  # "loan(s)", "florín(es)", "marcador(es)"


def test_no_sentence_of_the_catalogue_hedges_a_plural_with_a_parenthesis_in_either_language() -> None:
    """Issue 24's polish: a player reads "2 loans" or "loans needed: 2", never "2 loan(s)". The catalogue has
    no plural forms, so its sentences are written to read for any number, in English and in Spanish."""
    with PO.open("rb") as handle:
        spanish = {
            m.id: m.string for m in read_po(handle) if isinstance(m.id, str) and m.id and isinstance(m.string, str)
        }
    texts = [e.sentence for e in REFUSALS.values()] + [c.phrase for c in CHOICES.values()]
    hedged = [t for text in texts for t in (text, spanish.get(text, "")) if PARENTHETICAL_PLURAL.search(t)]
    assert hedged == []


# --- every entry rendered in words, in English and Spanish --------------------------------------

SAMPLES: dict[Kind, Any] = {
    Kind.NUMBER: 3,
    Kind.TEXT: "Zed",
    Kind.HIDDEN: ["4c"],
    Kind.COLOUR: 5,
    Kind.COLOURS: [2, 7],
    Kind.PLAYER: 1,
    Kind.PLAYER_COLOUR: "forest",
    Kind.PLAYER_COLOURS: ["forest", "gold"],
    Kind.NAMES: ["Zed"],
    Kind.SHIELD: "4c",
    Kind.SHIELDS: ["2b", "3a"],
    Kind.CIRCLE: 4,
    Kind.TRACK: 6,
    Kind.TRACKS: [2, 9],
    Kind.LOCATION: "bonfire",
    Kind.LOCATIONS: ["bonfire", "wall"],
    Kind.QUARTER: "lily",
    Kind.GUARDIAN: "medusa",
    Kind.GATE: "gate-6a",
    Kind.MEMBER: "urchin",
    Kind.PIECE: "barrel",
    Kind.REWARD: "cube_right",
    Kind.REQUIREMENT: "skull_at_least",
    Kind.EFFECT: "infamy_per_diploma",
    Kind.FIELD: "start_florins",
    Kind.PHASE: "florence",
    Kind.OPTION: "underworld",
    Kind.SOURCE: "lineup",
    Kind.MODE: "seats",
    Kind.ENTRY: 12,
    Kind.CORRECTION: "reserve_urchins",
    Kind.CONDITIONS: {"guardian_circle_at_least": 5},
    Kind.END: "final_turns_done",
    Kind.STEP: "pagan",
    Kind.COUNCIL: "member",
    Kind.FLOOR: 2,
    Kind.REFUSAL: "wrong_quarter",
}
RAW_SAMPLES = ("4c", "2b", "bonfire", "lily", "medusa", "gate-6a", "lineup", "underworld", "skull_at_least")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Flask:
    folder = tmp_path_factory.mktemp("words")
    return create_app({"TESTING": True, "DATABASE": str(folder / "w.sqlite3"), "SECRET_KEY": "t"})


@pytest.fixture(scope="module")
def game(edition: Edition) -> GameState:
    return replay(edition, decide_create(edition, CreateGame(players=seats(2), plague_card=(2, 3))))


def _sample(kinds: Any) -> dict[str, Any]:
    params = {name: SAMPLES[kind] for name, kind in kinds.items()}
    if "why" in params:  # a wrapped refusal carries its own parameters beside it
        params |= {name: SAMPLES[kind] for name, kind in refusal(params["why"]).params.items()}
    if Kind.COUNCIL in kinds.values():
        params |= {"choice": "member", "source": "bonfire", "kind": "noble", "colour": 0}
    return params


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_entry_reads_in_words_in_both_languages(app: Flask, game: GameState, language: str) -> None:
    problems = []
    with app.test_request_context(), force_locale(language):
        for code, entry in REFUSALS.items():
            exc = RuleViolation(code, _sample(entry.params))
            text = describe_refusal(exc, game) + " " + describe_rule(exc)
            if RAW.search(text) or code in text or any(raw in text for raw in RAW_SAMPLES):
                problems.append(f"{code}: {text}")
        for key, kind in CHOICES.items():
            text = describe_choice(key, _sample(kind.params), game)
            if RAW.search(text) or any(raw in text for raw in RAW_SAMPLES):
                problems.append(f"{key}: {text}")
        shown = describe_refusal(RuleViolation("not_your_turn", {"player": 1, "active": 0}), game)
        rule = describe_rule(RuleViolation("beyond_colour_circle", _sample(REFUSALS["beyond_colour_circle"].params)))
    assert problems == []
    assert "Ben" in shown and "Ana" in shown  # players by name
    assert rule == {"en": "Rulebook p. 11", "es": "Reglamento p. 11"}[language]


def test_spanish_shows_spanish_words_for_colours_circles_and_citations(app: Flask, game: GameState) -> None:
    exc = RuleViolation("beyond_colour_circle", {"colour": 3, "circle": 3, "from": "2b", "to": "4c", "legal": []})
    with app.test_request_context(), force_locale("es"):
        text = describe_refusal(exc, game)
        tracks = describe_choice("choice.track", {"track": 2}, game)
        guardian = describe_rule(RuleViolation("guardian_push_landing", {"shield": "4c"}))
    assert "verde" in text and "Gula (círculo 3)" in text and "4C" in text
    assert tracks == "El marcador de Lujuria"
    assert guardian == "Reglamento pp. 22–23"


# --- dynamically: random play with wrong taps, every refusal recorded and read -------------------


def _wrong_taps(state: GameState, rng: random.Random) -> list[cmd.Command]:
    """Commands a hurried table might send now: most are refused, each for its own reason."""
    p = state.active
    others = [i for i in range(len(state.players)) if i != p] or [p]
    shields = [*state.side.shields, "9z"]
    locations = [loc["id"] for loc in state.edition.raw["locations"]]
    guardians = [*state.guardians, "minos"]
    gates = [*state.side.gates, "gate-1a"]

    def shield() -> str:
        return rng.choice(shields)

    def colour() -> int:
        return rng.randint(1, 9)

    reward = Reward(rng.choice(["florins", "skull", "disc", "cube_right", "nothing", "gold"]), rng.randint(0, 9))
    endgame = EndgameHalf(
        rng.choice(["always", "barrels", "skull_at_least", "nope"]),
        rng.choice(["infamy", "skull", "nope"]),
        amount=rng.randint(0, 6),
        effect_amount=rng.randint(0, 14),
    )
    fraud = FraudPlay(rng.choice(["hand", "lineup", "deck", "pocket"]), (colour(),), reward, endgame)
    use = GuardianUse(
        rng.choice(guardians),
        shield(),
        effect=rng.random() < 0.7,
        targets=tuple(shield() for _ in range(rng.randint(0, 2))),
        destinations=(shield(),) if rng.random() < 0.5 else (),
        desk_below=shield() if rng.random() < 0.5 else "",
        desk_from=shield() if rng.random() < 0.3 else "",
    )
    floor = rng.randint(0, 3)
    return [
        cmd.MoveSoul(rng.choice(others), shield(), shield()),
        cmd.MoveSoul(p, shield(), shield()),
        cmd.BringSoul(p, colour(), shield()),
        cmd.SendMember(p, rng.choice(["noble", "urchin"]), rng.choice(locations), bribe=rng.random() < 0.3),
        cmd.Accuse(p, rng.choice(locations), member=rng.choice(["", "noble", "urchin"]), bribe=rng.random() < 0.5),
        cmd.Accuse(p, rng.choice(locations), bribe=True, borrow=True, bonus=reward, dante_fraud=fraud),
        cmd.HoldCouncil(p, rng.choice(["member", "guest", "barrel", "none"]), "tower", "noble", colour()),
        cmd.EndTurn(p),
        cmd.RevealPlagueCard(p, tuple(colour() for _ in range(rng.randint(0, 7)))),
        cmd.ExchangeFlorins(p, rng.randint(0, 5)),
        cmd.RaiseCube(p, rng.randint(0, 10)),
        cmd.PlaceDisc(p, rng.choice(gates)),
        cmd.DeliverBarrel(p, colour()),
        cmd.TakeBarrel(p, colour(), floor),
        cmd.TakeGuest(p, colour(), floor),
        cmd.ReturnFromTower(p, (floor,), (rng.choice(["noble", "urchin", "guest"]),)),
        cmd.MoveInTower(p, rng.choice(["noble", "guest", "barrel"]), colour(), floor, rng.randint(0, 3)),
        cmd.UseGuardian(p, use, borrow=rng.random() < 0.5),
        cmd.UseStyx(p, colour(), rng.randint(0, 4), rng.randint(1, 9), rng.randint(1, 9), borrow=True),
        cmd.PlayFraud(p, fraud, borrow=rng.random() < 0.5),
        cmd.SummonFerryman(p, shield(), shield(), shield(), shield()),
    ]


def _one_legal_step(state: GameState, rng: random.Random) -> GameState:
    """One random command of ``testkit/random_play`` that the rules accept."""
    legal = choices(state, rng)
    rng.shuffle(legal)
    for command in legal:
        try:
            events = decide(state, command)
        except RuleViolation:
            continue
        for evt in events:
            state = evolve(state, evt)
        return state
    raise AssertionError("random play found no legal command")


def _play_and_collect(edition: Edition, seed: int, expansion: bool) -> list[tuple[GameState, RuleViolation]]:
    rng = random.Random(seed)
    players = 2 + seed % 3
    state = replay(edition, decide_create(edition, CreateGame(seats(players), expansion, plague_card=(2, 3, 5, 1))))
    refused: list[tuple[GameState, RuleViolation]] = []
    for _ in range(70):
        if state.phase is Phase.OVER:
            break
        for command in _wrong_taps(state, rng):
            try:
                decide(state, command)
            except RuleViolation as exc:
                refused.append((state, exc))
        for start in [s for s, soul in state.hell.items() if not soul.laid][:2]:
            refused += [(state, exc) for exc in why_stuck(state, state.active, start)]
        state = _one_legal_step(state, rng)
    return refused


def test_random_play_with_wrong_taps_raises_only_catalogued_refusals_that_read_in_words(
    app: Flask, edition: Edition
) -> None:
    refused = [r for seed in range(4) for r in _play_and_collect(edition, seed, expansion=seed % 2 == 1)]
    codes = {exc.code for _, exc in refused}
    kinds = {c.key for _, exc in refused for c in exc.alternatives}
    assert len(codes) >= 40, sorted(codes)  # the taps reach far into the rules
    problems = []
    for language in ("en", "es"):
        with app.test_request_context(), force_locale(language):
            seen: set[tuple[str, str]] = set()
            for state, exc in refused:
                text = describe_refusal(exc, state) + " " + describe_rule(exc)
                text += " " + "; ".join(describe_choice(c.key, c.params, state) for c in exc.alternatives)
                if (exc.code, text) in seen:
                    continue
                seen.add((exc.code, text))
                if RAW.search(text) or exc.code in text:
                    problems.append(f"{language} {exc.code}: {text}")
    assert problems == [], problems[:10]
    assert codes <= set(REFUSALS) and kinds <= set(CHOICES)


def test_guardian_notes_and_marker_letters_speak_spanish(app: Flask, edition: Edition) -> None:
    notes = [g["note"] for g in edition.raw["guardians"]]
    with app.test_request_context(), force_locale("es"):
        spanish = [guardian_note(n) for n in notes]
        letters = [player_letter(c, "?") for c in ("crimson", "navy", "forest", "gold", "violet", "slate")]
    with app.test_request_context(), force_locale("en"):
        english = [guardian_note(n) for n in notes]
    assert not any("RULES.md" in n for n in spanish + english)
    assert "Referencia §6" in spanish[0] and "Reference §6" in english[0]
    assert letters == ["C", "M", "B", "D", "V", "P"]  # carmesí, marino, bosque, dorado, violeta, pizarra
    assert guardian_note("A note a table wrote itself.") == "A note a table wrote itself."
