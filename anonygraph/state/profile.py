"""Profiles: what a user gave a run, and a refusal of what its profile cannot take.

A run's `profile` (product or paper) fills the fields of its `Context` the
user did not give. `from_given` builds a context knowing which were given, so
a given value is honoured or refused with a `ProfileError`, never replaced.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import Any, TypeVar

ContextT = TypeVar("ContextT")
"""A method's run parameters (a `ModelContext` subclass)."""

Spelling = Callable[[str, Any, str], str]
"""How a message spells a given value: (field, value, role) -> text; role is
the `models` key for a per-role model, else ''."""


def python_spelling(name: str, value: Any, role: str) -> str:
    """Spell a field and value as a Python caller writes them."""
    return f"models[{role!r}]={value!r}" if role else f"{name}={value!r}"


class ProfileError(ValueError):
    """A value the user gave that the run's profile cannot honour.

    Its message names the value, the profile, why, and what to do; `spelled`
    words it for the command line (flags) instead of Python (fields).
    """

    def __init__(
        self,
        profile: str,
        name: str,
        value: Any,
        problem: str,
        *,
        role: str = "",
        example: Any = None,
    ) -> None:
        """Record the refused value; ``example`` is a value that would do."""
        self.profile, self.name, self.value = profile, name, value
        self.problem, self.role, self.example = problem, role, example
        super().__init__(self.spelled(python_spelling))

    def spelled(self, spell: Spelling) -> str:
        """Return the message with values spelled by ``spell``.

        ``spell('profile', 'product', '')`` may return '' where the caller has
        no other profile to offer (``reproduce``): the message then offers none.
        """
        given = spell(self.name, self.value, self.role)
        fix = (
            "drop it"
            if self.example is None
            else f"name a model, e.g. {spell(self.name, self.example, self.role)}"
        )
        other = spell("profile", "product", "")
        return (
            f"{spell('profile', self.profile, '')}: {given} {self.problem}; {fix}"
            + (f", or use {other}" if other else "")
        )


_GIVEN: ContextVar[frozenset[str] | None] = ContextVar(
    "anonygraph_given_fields", default=None
)
"""The fields the caller of `from_given` gave, while its context is built."""


def fields_given() -> frozenset[str] | None:
    """Return the fields `from_given` is building a context from (None: no record).

    A context's ``__post_init__`` reads it: dataclass construction passes no
    other way of telling a given value from a default.
    """
    return _GIVEN.get()


def from_given(context_type: type[ContextT], values: Mapping[str, Any]) -> ContextT:
    """Build ``context_type`` from the fields a user gave (flags, keywords, a request).

    The profile fills only the fields not in ``values``: a given value is
    honoured, even one equal to the field's default, or refused with a
    `ProfileError` naming it; never replaced.

    Raises:
        ProfileError: for a given value the profile cannot honour.
        ValueError: as the context's own checks.
    """
    token = _GIVEN.set(frozenset(values))
    try:
        return context_type(**values)
    finally:
        _GIVEN.reset(token)
