"""Record a golden game: play a script of commands through the service and export the log.

    python scripts/record_golden.py tests/fixtures/NAME.script.json tests/fixtures/NAME.json

The script is ``{"create": {...CreateGame data...}, "commands": [{"type": ..., "data": {...}}, ...]}``
(or ``{"tally": {...StartTally data...}, ...}`` for a quick tally)
where ``{"type": "Undo"}`` and ``{"type": "Redo"}`` take entries back and put them back. The
expected results of a golden game are written by hand in its test, never copied from here.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.editions import load_all  # noqa: E402
from companion.formats.commands import command_from_json  # noqa: E402
from companion.formats.export import export_game  # noqa: E402
from companion.game.commands import CreateGame, Redo, StartTally, Undo  # noqa: E402
from companion.service import GameService  # noqa: E402
from events.sqlite import SqliteStore  # noqa: E402


def record(script: dict, db: Path) -> dict:
    service = GameService(SqliteStore.open(db), load_all())
    if "tally" in script:
        start = command_from_json({"type": "StartTally", "data": script["tally"]})
        assert isinstance(start, StartTally)
        game_id = service.create_game(start, "golden-create")
    else:
        create = command_from_json({"type": "CreateGame", "data": script["create"]})
        assert isinstance(create, CreateGame)
        game_id = service.create_game(create, "golden-create")
    for i, raw in enumerate(script["commands"]):
        seq = service.view(game_id).seq
        command = command_from_json(raw)
        key = f"golden-{i}"
        if isinstance(command, Undo):
            service.undo(game_id, seq, key, command.to_action)
        elif isinstance(command, Redo):
            service.redo(game_id, seq, key)
        else:
            service.execute(game_id, seq, command, key)
    data = export_game(service, game_id)
    data["game_id"] = "golden"
    data["exported_at"] = "2026-11-29T00:00:00+00:00"
    for row in data["events"]:
        row["recorded_at"] = "2026-11-29T00:00:00.000+00:00"
    return data


def main() -> int:
    source, target = Path(sys.argv[1]), Path(sys.argv[2])
    with tempfile.TemporaryDirectory() as tmp:
        data = record(json.loads(source.read_text(encoding="utf-8")), Path(tmp) / "golden.sqlite3")
    target.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {target} ({len(data['events'])} events)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
