"""Every ``companion edition`` subcommand answers a bad file with the validator's sentence and a
non-zero exit, never a traceback; ``diff`` exits like diff(1): 0 the same, 1 different, 2 trouble."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.editions import EDITIONS_DIR

SHIPPED = EDITIONS_DIR / "inferno-base.json"
ROOT = Path(__file__).resolve().parents[2]


def _shipped() -> dict:
    return json.loads(SHIPPED.read_text(encoding="utf-8"))


def _bad_files(tmp_path: Path) -> dict[str, Path]:
    out: dict[str, Path] = {}

    def write(name: str, data: bytes) -> None:
        out[name] = tmp_path / f"{name}.json"
        out[name].write_bytes(data)

    raw = _shipped()
    raw["guests"]["colours"] = [6, "x", 8, 9]
    write("guest-colour-not-a-circle", json.dumps(raw).encode())
    raw = _shipped()
    raw["sides"][0]["lines"]["1a"] = 0
    write("lines-a-number", json.dumps(raw).encode())
    text = SHIPPED.read_text(encoding="utf-8")
    write("nan", text.replace('"infamy": 1,', '"infamy": NaN,', 1).encode())
    write("huge-float", text.replace('"infamy": 1,', '"infamy": 1e400,', 1).encode())
    write("duplicate-key", text.replace('"infamy": 1,', '"infamy": 1, "infamy": 2,', 1).encode())
    write("not-utf8", b"\xff\xfe{" + b"\x00" * 4)
    write("empty", b"")
    out["missing-file"] = tmp_path / "no-such-file.json"
    return out


def test_every_subcommand_says_the_validators_sentence_and_exits_non_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, path in _bad_files(tmp_path).items():
        for argv, status in (
            (["edition", "check", str(path)], 1),
            (["edition", "diff", str(path), str(SHIPPED)], 2),
            (["edition", "diff", str(SHIPPED), str(path)], 2),
        ):
            assert main(argv) == status, (name, argv)
            captured = capsys.readouterr()
            lines = captured.err.strip().splitlines()
            assert len(lines) == 1 and "Traceback" not in captured.err, (name, captured.err)
            assert lines[0].startswith(f"{path}: "), lines[0]


def test_the_sentence_names_the_entry_and_its_range(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = _shipped()
    raw["circles"][2]["infamy"] = -1
    bad = tmp_path / "negative.json"
    bad.write_text(json.dumps(raw), encoding="utf-8")
    assert main(["edition", "check", str(bad)]) == 1
    assert "circles[2].infamy: -1 is out of range (0 to 99)" in capsys.readouterr().err


def test_a_utf8_bom_is_accepted_and_diff_exits_0_on_equal_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + SHIPPED.read_bytes())
    assert main(["edition", "check", str(bom)]) == 0
    assert main(["edition", "diff", str(bom), str(SHIPPED)]) == 0
    assert "play the same" in capsys.readouterr().out


def test_the_installed_command_prints_no_traceback(tmp_path: Path) -> None:
    raw = _shipped()
    raw["tower"]["heights"] = []
    bad = tmp_path / "tower.json"
    bad.write_text(json.dumps(raw), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "companion", "edition", "check", str(bad)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "tower.heights: holds 0, needs at least 1" in done.stderr
