"""Refusals: why a command is illegal now, and what is legal instead.

A ``RuleViolation`` carries a machine ``code`` with ``params`` and the legal ``alternatives``;
the code's sentence, parameter kinds and rule citation live in one place, the catalogue
``companion.game.refusals``, and a code or choice it does not declare cannot be built. The
web layer translates the sentence when it shows it. Malformed input never reaches the core:
the web layer's schemas refuse it first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.game.refusals import Citation, choice_kind, refusal

__all__ = ["Choice", "RuleViolation"]


@dataclass(frozen=True)
class Choice:
    """One legal alternative: a declared choice kind with its params, and the command that does it."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    command: Any = None

    def __post_init__(self) -> None:
        choice_kind(self.key).check(self.params)


class RuleViolation(Exception):
    """A command the rules refuse in the current state (its code declared in the catalogue)."""

    def __init__(
        self,
        code: str,
        params: dict[str, Any] | None = None,
        alternatives: tuple[Choice, ...] | list[Choice] = (),
        *,
        rule: str = "",
    ) -> None:
        """``rule`` is ignored: the citation is the catalogue's (kept for older call sites)."""
        entry = refusal(code)
        self.code = code
        self.key = f"refusal.{code}"
        self.params = dict(params or {})
        entry.check(self.params)
        self.alternatives = tuple(alternatives)
        self.sentence = entry.sentence  # the English msgid; the web layer translates it
        self.citation: Citation | None = entry.cite
        self.rule = entry.rule
        super().__init__(f"{code} {self.params}")
