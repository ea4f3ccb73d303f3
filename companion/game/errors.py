"""Refusals: why a command is illegal now, in words a player understands, and what is legal.

A ``RuleViolation`` carries a machine ``code``, a message ``key`` with ``params`` (the
web layer translates the key when it shows it), and the legal ``alternatives``.
Malformed input never reaches the core: the web layer's schemas refuse it first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Choice", "RuleViolation"]


@dataclass(frozen=True)
class Choice:
    """One legal alternative: a message key with params, and the command that does it."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    command: Any = None


class RuleViolation(Exception):
    """A command the rules refuse in the current state."""

    def __init__(
        self,
        code: str,
        params: dict[str, Any] | None = None,
        alternatives: tuple[Choice, ...] | list[Choice] = (),
        *,
        rule: str = "",
    ) -> None:
        self.code = code
        self.key = f"refusal.{code}"
        self.params = dict(params or {})
        self.alternatives = tuple(alternatives)
        self.rule = rule
        super().__init__(f"{code} {self.params}")
