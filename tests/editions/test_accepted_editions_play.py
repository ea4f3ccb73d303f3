"""Every edition the validator accepts plays (issue 23, item 7).

Editions are generated from the shipped file by mutating its numbers, lists and ids within the
ranges the validator allows (and the one-value variants of the file it accepts); each one the
validator accepts is played with 1 to 4 players by random legal turns through the rules, with no
exception but ``RuleViolation``. A sample is saved through the real service on SQLite, a game is
made with it from the home form and played there, and its game, score, home and Editions pages
answer without a 5xx. When this finds an accepted edition that breaks a game, the validator is
tightened, not this test.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.editions import EDITIONS_DIR
from companion.game.commands import CreateGame
from companion.game.edition import Edition, EditionError, parse_edition
from companion.game.errors import RuleViolation
from companion.game.projection import replay
from companion.game.rules import decide_create
from companion.game.scoring import score_state
from companion.web import create_app
from companion.web.http.db import service
from testkit.random_play import choices, play
from tests.builders import seats
from tests.editions.test_edition_mutants import mutant, places

SHIPPED: dict[str, Any] = json.loads((EDITIONS_DIR / "inferno-base.json").read_text(encoding="utf-8"))
TEXT_KEYS = {"note", "notes", "source", "definition", "name"}

Mutator = Callable[[dict[str, Any], random.Random], None]


def _circles(raw: dict[str, Any]) -> list[int]:
    return [c["number"] for c in raw["circles"] if c["track"]]


def _infamy(raw: dict[str, Any], rng: random.Random) -> None:
    rng.choice(raw["circles"])["infamy"] = rng.randint(0, 99)


def _prices(raw: dict[str, Any], rng: random.Random) -> None:
    economy = raw["economy"]
    for key in rng.sample([k for k in economy if k != "source"], 4):
        if key in ("start_florins", "start_drachmas"):
            economy[key] = rng.randint(0, raw["ranges"]["coins_max"])
        elif key == "start_fraud_cards":
            economy[key] = rng.randint(0, 20)
        else:
            economy[key] = rng.randint(0, 99)


def _purse(raw: dict[str, Any], rng: random.Random) -> None:
    raw["ranges"]["coins_max"] = rng.randint(1, 999)
    raw["economy"]["start_florins"] = rng.randint(0, raw["ranges"]["coins_max"])
    raw["economy"]["start_drachmas"] = rng.randint(0, raw["ranges"]["coins_max"])
    low, high = rng.randint(-9999, 0), rng.randint(0, 9999)
    raw["ranges"]["infamy"] = [low, high]


def _tower(raw: dict[str, Any], rng: random.Random) -> None:
    tower = raw["tower"]
    tower["heights"] = [rng.randint(0, 99) for _ in range(rng.randint(1, 10))]
    tower["start_floors"] = rng.randint(1, len(tower["heights"]))
    tower["spaces_per_floor"] = rng.randint(1, 10)


def _guests_and_barrels(raw: dict[str, Any], rng: random.Random) -> None:
    raw["guests"]["colours"] = rng.sample(range(1, 10), rng.randint(1, 9))
    raw["barrels"]["colours"] = rng.sample(range(1, 10), rng.randint(1, 9))
    raw["actions"]["barrel_delivery_infamy"] = [rng.randint(0, 99) for _ in range(rng.randint(1, 9))]


def _tracks(raw: dict[str, Any], rng: random.Random) -> None:
    tracks = raw["tracks"]
    tracks["length"] = rng.randint(1, 20)
    tracks["first_level"] = rng.randint(0, tracks["length"] - 1)
    circles = _circles(raw)
    tracks["first_four"] = rng.sample(circles, rng.randint(1, len(circles)))
    tracks["last_four"] = rng.sample(circles, rng.randint(1, len(circles)))


def _phlegethon(raw: dict[str, Any], rng: random.Random) -> None:
    river = raw["phlegethon"]
    river["scale"] = [rng.randint(0, 99) for _ in range(rng.randint(2, 20))]
    river["start"] = {str(c): rng.randint(0, len(river["scale"]) - 1) for c in _circles(raw)}
    river["minimum_value"] = rng.randint(0, max(river["scale"]))


def _loans(raw: dict[str, Any], rng: random.Random) -> None:
    loan = raw["loan_track"]
    loan["penalties"] = [0] + [rng.randint(0, 999) for _ in range(rng.randint(0, 19))]
    loan["symbol_after"] = rng.randint(0, len(loan["penalties"]) - 1)
    loan["instant_penalty"] = rng.randint(0, 999)


def _souls(raw: dict[str, Any], rng: random.Random) -> None:
    souls = raw["souls"]
    souls["supply"] = {str(c): rng.randint(0, 99) for c in range(1, 10)}
    souls["plague_card_max"] = rng.randint(1, 20)
    souls["plague_card_souls"] = rng.randint(1, souls["plague_card_max"])


def _family(raw: dict[str, Any], rng: random.Random) -> None:
    family = raw["family"]
    family["nobles"], family["urchins"] = rng.randint(0, 12), rng.randint(0, 12)
    family["start_urchins_at_home"] = rng.randint(0, family["urchins"])
    raw["discs"]["per_player"] = rng.randint(0, 10)
    raw["setup"]["starting_skulls_max"] = rng.randint(0, 8)
    raw["fraud"]["barrels_required_max"] = rng.randint(0, 9)
    raw["scoring"]["halves_per_diploma"] = rng.randint(1, 4)


def _actions(raw: dict[str, Any], rng: random.Random) -> None:
    for key in ("bank_base", "bank_per_guest", "courtyard_members_home", "bonfire_exchange_max", "wall_exchange_max"):
        raw["actions"][key] = rng.randint(0, 20)


def _guardians(raw: dict[str, Any], rng: random.Random) -> None:
    for guardian in raw["guardians"]:
        guardian["start"] = {"circle": rng.randint(1, 9), "position": rng.choice(["far_left", "far_right"])}
    ids = [g["id"] for g in raw["guardians"]]
    raw["setup"]["guardians"] = rng.randint(0, 3)
    raw["default_guardians"]["ids"] = rng.sample(ids, raw["setup"]["guardians"])
    raw["expansion"]["toll"] = rng.randint(0, 20)
    raw["expansion"]["desks_per_player"] = rng.randint(0, 10)


def _dante(raw: dict[str, Any], rng: random.Random) -> None:
    steps = len(raw["dante"]["steps"])
    for count in raw["dante"]["paths"]:
        raw["dante"]["paths"][count] = sorted(rng.sample(range(steps), rng.randint(1, steps)))
    raw["dante"]["shortcut"]["skips"] = rng.sample(range(steps), rng.randint(0, 3))


def _menus(raw: dict[str, Any], rng: random.Random) -> None:
    for menu in ("rewards", "endgame_requirements", "endgame_effects"):
        for item in raw["menus"][menu]:
            if "amount" in item:
                low = rng.randint(0, 99)
                item["amount"] = [low, rng.randint(low, 99)]


def _players(raw: dict[str, Any], rng: random.Random) -> None:
    raw["players"]["min"] = rng.randint(1, 4)
    raw["players"]["max"] = rng.randint(raw["players"]["min"], 4)


def _board(raw: dict[str, Any], rng: random.Random) -> None:
    side = rng.choice(raw["sides"])
    row = side["circles"][str(rng.randint(1, 9))]
    i, j = rng.randrange(len(row)), rng.randrange(len(row))
    row[i]["quarter"], row[j]["quarter"] = row[j]["quarter"], row[i]["quarter"]
    gates = side["gates"]
    side["gates"] = rng.sample(gates, rng.randint(1, len(gates)))
    raw["adjacency"]["rule"] = rng.choice(["row_and_lines", "row", "lines"])
    raw["empty_shield"]["standees_fill"] = rng.random() < 0.5
    for name in raw["assumptions"]:
        if isinstance(raw["assumptions"][name], bool):
            raw["assumptions"][name] = rng.random() < 0.5


def _styx(raw: dict[str, Any], rng: random.Random) -> None:
    groups = [["first_four"], ["last_four"], ["first_four", "last_four"]]
    raw["styx"]["gains"] = {str(n): rng.choice(groups) for n in range(1, rng.randint(2, 9))}
    raw["limbo"]["pagan_colour"] = rng.randint(1, 9)
    raw["limbo"]["circle"] = rng.randint(1, 9)


MUTATORS: tuple[Mutator, ...] = (
    _infamy,
    _prices,
    _purse,
    _tower,
    _guests_and_barrels,
    _tracks,
    _phlegethon,
    _loans,
    _souls,
    _family,
    _actions,
    _guardians,
    _dante,
    _menus,
    _players,
    _board,
    _styx,
)


def generated(count: int, seed: int) -> Iterator[tuple[str, Edition]]:
    """``count`` editions the validator accepts, each the shipped file with 1–6 mutations."""
    rng = random.Random(seed)
    made = tries = 0
    while made < count:
        tries += 1
        assert tries < count * 20, "the mutators should mostly make editions the validator accepts"
        raw = copy.deepcopy(SHIPPED)
        for mutate in rng.sample(MUTATORS, rng.randint(1, 6)):
            mutate(raw, rng)
        text = json.dumps(raw)
        try:
            edition = parse_edition(text)
        except EditionError:
            continue
        made += 1
        yield text, edition


def accepted_one_value_variants() -> Iterator[tuple[str, Edition]]:
    """The variants of item 1's enumeration that change one number or yes/no of the shipped file
    (to 0, 1, -1, 2, 9, true or false) and parse."""
    for path in list(places(SHIPPED)):
        if any(step in TEXT_KEYS for step in path if isinstance(step, str)):
            continue
        holder: Any = SHIPPED
        for step in path:
            holder = holder[step]
        if type(holder) not in (int, bool):
            continue
        for value in (0, 1, -1, 2, 9, True, False):
            if value == holder and type(value) is type(holder):
                continue
            yield from _parsed(mutant(path, value))


def _parsed(text: str) -> Iterator[tuple[str, Edition]]:
    try:
        edition = parse_edition(text)
    except EditionError:
        return
    yield text, edition


def _plague(edition: Edition) -> tuple[int, ...]:
    return (2, 3, 5, 1)[: min(4, int(edition.section("souls")["plague_card_max"]))]


def play_through_the_rules(edition: Edition, rng: random.Random) -> None:
    """Create a game of 1–4 players (as the edition allows) and play random legal turns."""
    players = rng.randint(edition.min_players, edition.max_players)
    command = CreateGame(seats(players), plague_card=_plague(edition), expansion=rng.random() < 0.5)
    try:
        log = decide_create(edition, command)
    except RuleViolation:
        return
    state = play(replay(edition, log), rng, tries=150)
    score_state(state)


def test_every_generated_edition_the_validator_accepts_plays_through_the_rules() -> None:
    rng = random.Random(23)
    for _text, edition in generated(400, seed=7):
        play_through_the_rules(edition, rng)


def test_every_accepted_one_value_variant_plays_through_the_rules() -> None:
    rng = random.Random(24)
    found = list(accepted_one_value_variants())
    assert len(found) > 300, "the file has numbers that may change"
    for _text, edition in rng.sample(found, 200):
        play_through_the_rules(edition, rng)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    yield create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "w.sqlite3"), "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False}
    )


def _page_ok(client: FlaskClient, url: str) -> None:
    response = client.get(url)
    assert response.status_code < 500, (url, response.status_code)
    assert response.status_code == 200 and b"<html" in response.data, (url, response.status_code)


def test_a_game_on_each_generated_edition_plays_through_the_pages(app: Flask) -> None:
    rng = random.Random(25)
    client = app.test_client()
    created = played = 0
    for n, (text, edition) in enumerate(generated(20, seed=11)):
        with app.test_request_context():
            content_hash = service().library.save_edition(f"Generated {n}", text).content_hash
        players = rng.randint(edition.min_players, edition.max_players)
        colours = list(edition.colours)[:players]
        response = client.post(
            "/games",
            data={
                "key": f"create-generated-{n:04d}",
                "name": [f"P{i}" for i in range(players)],
                "colour": colours,
                "plague": [str(c) for c in _plague(edition)],
                "layout": "default",
                "edition": content_hash,
            },
        )
        assert response.status_code < 500
        if response.status_code != 303:
            continue  # a game the rules refuse to set up (e.g. its guardians): refused in words
        url = response.headers["Location"]
        game_id = url.rsplit("/", 1)[-1]
        created += 1
        with app.test_request_context(f"/g/{game_id}"):
            svc = service()
            for step in range(40):
                view = svc.view(game_id)
                options = choices(view.state, rng)  # type: ignore[arg-type]
                if not options:
                    break  # the game is over
                try:
                    svc.execute(game_id, view.seq, rng.choice(options), f"k-{n}-{step}")
                    played += 1
                except RuleViolation:
                    continue
        for page in (url, f"{url}/score", f"{url}/history", "/", "/editions"):
            _page_ok(client, page)
    assert created >= 15 and played >= 300, (created, played)
