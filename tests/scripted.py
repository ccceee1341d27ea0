"""Scripted chat models: answer each role from a script, record every prompt.

An answer is text, an `AIMessage` (e.g. one carrying ``tool_calls``), or a
function of the last message's text returning either.
"""

from __future__ import annotations

import asyncio
import json
import re
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool

Answer = str | AIMessage | Callable[[str], str | AIMessage]


def fenced(prompt: str, name: str = "text") -> str | None:
    """Return what ``prompt`` fences in ``<name>`` lines, as the model reads it.

    Tags inside it stay escaped (``&lt;/text>``), as in any model's copy; the
    model layer restores them in the answer.
    """
    found = re.search(rf"^<{name}>\n(.*?)\n</{name}>$", prompt, re.S | re.M)
    return found.group(1) if found else None


class ScriptedChatModel(BaseChatModel):
    """Returns scripted answers in order (the last one repeats)."""

    role: str
    answers: list[Any]
    prompts: list[str] = []
    requests: list[dict[str, Any]] = []
    """Per call: the tool names bound and the tool choice (empty without tools)."""

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: str | None = None,
        **kwargs: Any,
    ) -> Runnable[Any, AIMessage]:
        schemas = [convert_to_openai_tool(t) for t in tools]
        return self.bind(tools=schemas, tool_choice=tool_choice, **kwargs)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        prompt = str(messages[-1].content)
        self.prompts.append(prompt)
        answer = self.answers[min(len(self.prompts) - 1, len(self.answers) - 1)]
        reply = answer(prompt) if callable(answer) else answer
        tools = [t["function"]["name"] for t in kwargs.get("tools", [])]
        self.requests.append({"tools": tools, "tool_choice": kwargs.get("tool_choice")})
        message = reply if isinstance(reply, AIMessage) else AIMessage(content=reply)
        text = str(message.content)
        message = message.model_copy(
            update={
                "usage_metadata": {
                    "input_tokens": len(prompt.split()),
                    "output_tokens": len(text.split()),
                    "total_tokens": len(prompt.split()) + len(text.split()),
                }
            }
        )
        return ChatResult(generations=[ChatGeneration(message=message)])


class RecordingChatModel(ScriptedChatModel):
    """A scripted model that also keeps every message list it is handed."""

    received: list[list[BaseMessage]] = []

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.received.append(list(messages))
        return super()._generate(messages, stop, run_manager, **kwargs)


def recording(*answers: Answer) -> RecordingChatModel:
    """A recording model answering ``answers`` in order (the last one repeats)."""
    return RecordingChatModel(
        role="agent", answers=list(answers), prompts=[], requests=[], received=[]
    )


class Script:
    """Per-role scripted models, installed in place of the model layer's loader."""

    def __init__(self) -> None:
        self.models: dict[str, ScriptedChatModel] = {}
        self.decodings: dict[str, Any] = {}
        """Role -> the decoding row the model layer loaded it with, when not
        the product's (a profile's table or a run's override)."""

    def set(self, role: str, *answers: Answer) -> None:
        self.models[role] = ScriptedChatModel(
            role=role, answers=list(answers), prompts=[], requests=[]
        )

    def load(self, spec: str, role: str, decoding: Any = None) -> ScriptedChatModel:
        if decoding is not None:
            self.decodings[role] = decoding
        if role not in self.models:
            raise AssertionError(f"unexpected call to role {role!r}")
        return self.models[role]

    def prompts(self, role: str) -> list[str]:
        return self.models[role].prompts if role in self.models else []


def attack_json(**guesses: tuple[str, int] | None) -> str:
    """An attacker answer: attribute=(guess, certainty), None for no clue."""
    body = {}
    for name, value in guesses.items():
        if value is None:
            body[name] = {"reasoning": "no clue", "guesses": [], "certainty": 1}
        else:
            body[name] = {
                "reasoning": f"the text hints at {value[0]}",
                "guesses": [value[0]],
                "certainty": value[1],
            }
    return json.dumps(body)


def verdicts_json(**levels: str) -> str:
    """An arbitrator answer: attribute=validity level."""
    return json.dumps(
        {
            name: {
                "validity": level,
                "evidence": [f"evidence-for-{name}"],
                "concept": f"concept-of-{name}",
                "notes": "scripted",
            }
            for name, level in levels.items()
        }
    )


def rewrite_json(text: str, changes: str = "scripted edit") -> str:
    """An anonymizer answer."""
    return json.dumps({"changes": changes, "text": text})


def tool_call(query: str, call_id: str = "") -> AIMessage:
    """An agent turn asking for one `web_search`."""
    call_id = call_id or f"call_{uuid.uuid4().hex[:8]}"
    call = {"name": "web_search", "args": {"query": query}, "id": call_id}
    return AIMessage(content="", tool_calls=[call])


def calgary_script() -> Script:
    """Script the RLAA roles for "I live in Calgary."-style records.

    The attacker names Calgary while the text does, the arbitrator grades it
    high, the anonymizer answers "I live in a city.": the model that the CLI
    children of the kill and egress tests run with.
    """
    script = Script()
    script.set(
        "attacker",
        lambda p: attack_json(
            city_country=("Calgary, Canada", 5) if "Calgary" in p else None
        ),
    )
    script.set("arbitrator", verdicts_json(city_country="high"))
    script.set("anonymizer", rewrite_json("I live in a city."))
    return script


def judge_json(read: int = 9, meaning: int = 8, hall: int = 1) -> str:
    """A utility judge's answer with the three scores."""
    return json.dumps(
        {
            "readability": {"explanation": "fine", "score": read},
            "meaning": {"explanation": "kept", "score": meaning},
            "hallucination": {"explanation": "none", "score": hall},
        }
    )


def rlaa_batch(tmp_path: Path, source: Path, **context: Any) -> Any:
    """Run RLAA over ``source`` in ``tmp_path`` with the scripted roles, one
    round, the city attribute; ``context`` adds or overrides run parameters."""
    from anonygraph.runs.engines.batch import run_batch
    from anonygraph.runs.options import RunOptions

    options = RunOptions(
        method="rlaa",
        input=str(source),
        output=str(tmp_path / "out.jsonl"),
        db=str(tmp_path / "runs.sqlite"),
        context={
            "attributes": ["city_country"],
            "max_iterations": 1,
            "default_model": "local",
            **context,
        },
        progress=False,
    )
    return asyncio.run(run_batch(options))
