"""``companion edition check`` and ``companion edition diff`` on real files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.editions import EDITIONS_DIR

SHIPPED = EDITIONS_DIR / "inferno-base.json"


def _variant(tmp_path: Path, name: str, change) -> Path:
    raw = json.loads(SHIPPED.read_text(encoding="utf-8"))
    change(raw)
    path = tmp_path / name
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


def test_check_accepts_the_shipped_edition_and_counts_what_is_left(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["edition", "check", str(SHIPPED)]) == 0
    out = capsys.readouterr().out
    assert "a valid edition" in out and "0 of " in out


def test_check_names_the_bad_line_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = _variant(tmp_path, "bad.json", lambda raw: raw["sides"][0]["lines"].update({"1a": ["3a"]}))
    assert main(["edition", "check", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "lines['1a'] -> '3a'" in err and "exactly one circle down" in err


def test_diff_says_what_differs_and_only_that(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def change(raw: dict) -> None:
        raw["circles"][2]["infamy"] = 5
        raw["circles"][2]["source"]["infamy"] = "checked"  # provenance alone is no difference

    other = _variant(tmp_path, "other.json", change)
    assert main(["edition", "diff", str(SHIPPED), str(other)]) == 1  # they differ, as diff(1) says it
    assert capsys.readouterr().out.strip().splitlines() == ["circle 3: infamy 2 → 5"]
    assert main(["edition", "diff", str(SHIPPED), str(SHIPPED)]) == 0


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000 + "]" * 100_000, "[1, 2]", '{"format": "inferno-companion/edition", "format_version": "two"}'],
    ids=["nested-100000-deep", "not-an-object", "version-not-a-number"],
)
def test_a_hostile_file_is_one_line_and_exit_1_for_check_and_diff(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text, encoding="utf-8")
    shipped = str(next(EDITIONS_DIR.glob("*.json")))
    for argv, status in ((["edition", "check", str(bad)], 1), (["edition", "diff", shipped, str(bad)], 2)):
        assert main(argv) == status
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
