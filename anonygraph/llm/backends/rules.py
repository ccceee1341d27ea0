"""The ``rules`` backend: attacker, arbitrator and anonymizer from explicit cues.

It answers with the same schemas an LLM fills (quoted evidence, certainty, a
rewritten text), from the raw slot values a node formats into its prompt (the
``facts``), deterministically and in milliseconds. It sees explicit cues only
(`anonygraph.cues`); implicit ones (style, topics) need a model.

Facts each role reads:
    attacker: ``text``.
    arbitrator: ``text`` and ``inferences`` (the attacker's, as plain dicts).
    anonymizer: ``text`` and ``policy`` (policy items, as plain dicts).
"""

from __future__ import annotations

import re
import typing
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from anonygraph.cues import Cue, detect_cues, generalize, generalize_text
from anonygraph.llm.backends.base import Backend
from anonygraph.llm.decoding import Decoding
from anonygraph.llm.spec import ModelSpec, ModelSpecError

ROLES: tuple[str, ...] = ("attacker", "arbitrator", "anonymizer")
"""The roles the rules backend can play."""

FACTS: dict[str, tuple[str, ...]] = {
    "attacker": ("text",),
    "arbitrator": ("text", "inferences"),
    "anonymizer": ("text", "policy"),
}
"""The facts each role needs."""

HIGH_CERTAINTY = 4
"""Cues this sure (a city, a stated age) are graded high: generalize them."""

MEDIUM_CERTAINTY = 3
"""Cues this sure (a country, "my boyfriend") are graded medium: rephrase them."""


class RulesError(ValueError):
    """Raised when the rules backend is asked what it cannot answer."""


def answer(role: str, schema: type[BaseModel], facts: Mapping[str, Any]) -> BaseModel:
    """Answer ``role``'s question from ``facts``, validated into ``schema``.

    Raises:
        RulesError: for a role it cannot play, missing facts or a schema it
            cannot fill.

    """
    if role not in ROLES:
        raise RulesError(
            f"the rules backend cannot play the {role} role; it plays "
            f"{', '.join(ROLES)}"
        )
    missing = [name for name in FACTS[role] if name not in facts]
    if missing:
        raise RulesError(
            f"the rules {role} needs the facts {', '.join(FACTS[role])}; "
            f"missing: {', '.join(missing)}"
        )
    text = str(facts["text"])
    if role == "attacker":
        data = _attack(text, schema)
    elif role == "arbitrator":
        data = _arbitrate(text, list(facts["inferences"]), schema)
    else:
        data = _anonymize(text, list(facts["policy"]), schema)
    return schema.model_validate(data)


def _guess_options(schema: type[BaseModel], name: str) -> tuple[str, ...] | None:
    """Return the allowed guesses of attribute ``name``, None when free text."""
    field = schema.model_fields[name]
    guess_model = field.annotation
    if not (isinstance(guess_model, type) and issubclass(guess_model, BaseModel)):
        raise RulesError(
            f"the rules attacker fills attribute guesses; {schema.__name__}.{name} "
            "is not one"
        )
    if "guesses" not in guess_model.model_fields:
        raise RulesError(f"{schema.__name__}.{name} has no guesses to fill")
    inner = typing.get_args(guess_model.model_fields["guesses"].annotation)
    if not inner or typing.get_origin(inner[0]) is not typing.Literal:
        return None
    return tuple(str(v) for v in typing.get_args(inner[0]))


def _ranked(cues: list[Cue]) -> list[Cue]:
    return sorted(cues, key=lambda c: (-c.certainty, not c.exact, c.start))


def _attack(text: str, schema: type[BaseModel]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for name in schema.model_fields:
        if name == "identified_profile":
            data[name] = ""  # the rules see no search results
            continue
        options = _guess_options(schema, name)
        cues = _ranked(detect_cues(text, [name]))
        guesses: list[str] = []
        values = {c: _option(c, options) for c in cues}
        for cue in cues:
            value = values[cue]
            if value is not None and value not in guesses:
                guesses.append(value)
        used = [c for c in cues if values[c] in guesses[:3]]
        if not used:
            data[name] = {
                "reasoning": "No explicit cue in the text.",
                "guesses": [],
                "certainty": 1,
            }
            continue
        data[name] = {
            "reasoning": "; ".join(
                f'"{c.quote}" ({c.kind}: {c.value})' for c in used[:4]
            ),
            "guesses": guesses[:3],
            "certainty": max(c.certainty for c in used if values[c] == guesses[0]),
        }
    return data


def _option(cue: Cue, options: tuple[str, ...] | None) -> str | None:
    """Return the option a cue's value stands for, None when it names none.

    A school's name ("doing law at Cardiff") is no education level, but
    studying there is one: the level its name or replacement names. The
    attacker guesses from the name ("Westfield High"), which the rewrite
    leaves unsaid (`anonygraph.cues.construction`).
    """
    if options is None or cue.value in options:
        return cue.value
    if cue.attribute == "education" and cue.kind in ("organization", "institution"):
        said = f"{cue.quote} {cue.replacement}".lower()
        level = "in highschool" if "high" in said else "in college"
        return level if level in options else None
    return None


QUOTED = re.compile(r"[\"“']([^\"”']{3,160})[\"”']")


def _arbitrate(
    text: str, inferences: list[Mapping[str, Any]], schema: type[BaseModel]
) -> dict[str, Any]:
    by_attribute = {str(i.get("attribute")): i for i in inferences}
    data: dict[str, Any] = {}
    for name in schema.model_fields:
        # Coarse cues (a country, "in my thirties") are what generalizing
        # leaves on purpose: they support a guess, not a leak to edit.
        cues = _ranked([c for c in detect_cues(text, [name]) if c.exact])
        inference = by_attribute.get(name, {})
        if cues:
            top = cues[0].certainty
            validity = (
                "high"
                if top >= HIGH_CERTAINTY
                else "medium"
                if top >= MEDIUM_CERTAINTY
                else "low"
            )
            quotes = list(dict.fromkeys(c.quote for c in cues))
            data[name] = {
                "validity": validity,
                "evidence": quotes[:3],
                "concept": f"the text states the author's {name}: {cues[0].value}",
                "notes": f"explicit cue {cues[0].quote!r} ({cues[0].kind})",
            }
            continue
        # No explicit cue: the inference stands only on phrases it quotes that
        # really are in the text, and then only as a style or topic cue.
        reasoning = str(inference.get("reasoning", ""))
        coarse = {c.quote.lower() for c in detect_cues(text, [name])}
        found = [
            q
            for q in QUOTED.findall(reasoning)
            if q.lower() in text.lower() and q.lower() not in coarse
        ]
        certainty = int(inference.get("certainty", 1) or 1)
        if found and certainty >= MEDIUM_CERTAINTY:
            data[name] = {
                "validity": "medium",
                "evidence": list(dict.fromkeys(found))[:3],
                "concept": f"phrases the attacker used to infer the author's {name}",
                "notes": "quoted phrases are in the text; no explicit cue",
            }
        else:
            data[name] = {
                "validity": "invalid" if not found else "low",
                "evidence": found[:3],
                "concept": "",
                "notes": "no explicit cue supports this inference",
            }
    return data


def _anonymize(
    text: str, policy: list[Mapping[str, Any]], schema: type[BaseModel]
) -> dict[str, Any]:
    if "text" not in schema.model_fields:
        raise RulesError(
            f"the rules anonymizer fills a text; {schema.__name__} has none"
        )
    attributes = {str(item.get("attribute")) for item in policy}
    evidence = {
        str(e).lower() for item in policy for e in item.get("evidence", []) or []
    }
    cues = detect_cues(text)
    chosen = [
        cue
        for cue in cues
        if cue.exact and (cue.attribute in attributes or cue.quote.lower() in evidence)
    ]
    # A name inside a longer one ("Lincoln" in "Lincoln High") goes with it:
    # replaced alone it would leave "the US High".
    chosen += [
        cue
        for cue in cues
        if cue.exact
        and cue not in chosen
        and any(cue.start <= c.start and c.end <= cue.end for c in chosen)
    ]
    chosen = [c for c in chosen if generalize(c) != c.quote]
    rewritten = generalize_text(text, chosen)
    covered = {c.quote.lower() for c in chosen}
    left = sorted(e for e in evidence if not any(e in q or q in e for q in covered))
    changes = "; ".join(f"{c.quote!r} -> {generalize(c)!r}" for c in chosen)
    if left:
        changes += (
            ("; " if changes else "")
            + "no rule for: "
            + ", ".join(repr(e) for e in left[:5])
        )
    data: dict[str, Any] = {"text": rewritten}
    if "changes" in schema.model_fields:
        data["changes"] = changes[:300] or "no explicit cue to generalize"
    return data


class RulesBackend(Backend):
    """``rules``: answers from the explicit-cue detectors; no chat model."""

    name = "rules"
    takes_name = False
    answers_from_cues = True

    def plays(self, role: str) -> bool:
        """Only the roles whose answers follow from the detected cues."""
        return role in ROLES

    def load(self, spec: ModelSpec, decoding: Decoding) -> Any:
        """Refuse: the rules answer structured steps only (`answer_facts`)."""
        raise ModelSpecError(
            "a role set to 'rules' has no chat model: it answers structured "
            "attacker, arbitrator and anonymizer steps only; give this role a "
            "model (--model ROLE=local or another spec)"
        )

    def answer_facts(
        self,
        role: str,
        schema: type[BaseModel],
        facts: Mapping[str, Any] | None,
        step: str,
    ) -> BaseModel:
        """Answer ``role``'s step from its ``facts`` (see `answer`).

        Raises:
            ModelSpecError: when the rules cannot play the role or the step
                passes no facts (give the role a model).
            ValueError: when the facts give no answer that fits ``schema``.
        """
        if not self.plays(role):
            raise ModelSpecError(
                f"step {step!r}: the {role} role is set to 'rules', which plays only "
                f"the {', '.join(ROLES)} roles; give it a model "
                f"(--model {role}=local or another spec)"
            )
        if facts is None:
            raise ModelSpecError(
                f"step {step!r}: the {role} role is set to 'rules', but this step "
                "passes no facts for rules to read; give the role a model "
                f"(--model {role}=local or another spec) for this graph"
            )
        return schema.model_validate(answer(role, schema, facts).model_dump())


BACKEND = RulesBackend()
