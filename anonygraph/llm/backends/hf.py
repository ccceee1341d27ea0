"""The ``hf:PATH_OR_ID`` backend: a Hugging Face model run in-process."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from langchain_core.messages import BaseMessage
from pydantic import BaseModel

from anonygraph.llm.backends.base import Backend, role_name
from anonygraph.llm.decoding import Decoding
from anonygraph.llm.faults import ServerPolicy
from anonygraph.llm.spec import ModelSpec

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

_LOCKS: dict[str, threading.Lock] = {}


def pipeline_tokenizer(model: Any) -> Any:
    """Return the tokenizer of an `hf:` chat model's pipeline (None if it has none)."""
    model = getattr(model, "bound", model)  # under a schema binding
    pipeline = getattr(getattr(model, "llm", None), "pipeline", None)
    return getattr(pipeline, "tokenizer", None)


def _count_tokens(model: Any, messages: Sequence[BaseMessage], answer: Any) -> None:
    # ChatHuggingFace reports no usage: count with the pipeline's own tokenizer.
    tokenizer = pipeline_tokenizer(model)
    if tokenizer is None:
        return
    chat = [{"role": role_name(m), "content": str(m.content)} for m in messages]
    prompt = tokenizer.apply_chat_template(chat, add_generation_prompt=True)
    prompt = prompt["input_ids"] if isinstance(prompt, dict) else prompt
    output = len(tokenizer(str(answer.content))["input_ids"])
    answer.usage_metadata = {
        "input_tokens": len(prompt),
        "output_tokens": output,
        "total_tokens": len(prompt) + output,
    }


class HuggingFaceBackend(Backend):
    """A transformers text-generation pipeline behind `ChatHuggingFace`."""

    name = "hf"
    structured_note = "JSON schema (logits processor)"

    def load(self, spec: ModelSpec, decoding: Decoding) -> BaseChatModel:
        """Build the pipeline of the checkpoint the spec names."""
        try:
            from langchain_huggingface import ChatHuggingFace, HuggingFacePipeline
        except ImportError as exc:
            raise self.missing_package(spec, exc) from exc
        pipeline = HuggingFacePipeline.from_model_id(
            model_id=spec.name,
            task="text-generation",
            pipeline_kwargs={
                "max_new_tokens": decoding.max_tokens,
                "do_sample": decoding.temperature > 0,
                **(
                    {"temperature": decoding.temperature}
                    if decoding.temperature
                    else {}
                ),
                "return_full_text": False,
            },
        )
        return cast("BaseChatModel", ChatHuggingFace(llm=pipeline))

    def constrain(
        self,
        model: BaseChatModel,
        spec: ModelSpec,
        schema: type[BaseModel],
        mode: str = "",
    ) -> Any:
        """Mask each token to a valid prefix of the schema's JSON (`hf_schema`)."""
        try:
            from transformers import LogitsProcessorList

            from anonygraph.llm.backends.hf_schema import SchemaLogits
        except ImportError as exc:
            raise self.missing_package(spec, exc) from exc
        processor = SchemaLogits(pipeline_tokenizer(model), schema.model_json_schema())
        return model.bind(
            pipeline_kwargs={"logits_processor": LogitsProcessorList([processor])}
        )

    async def send(
        self,
        model: Any,
        spec: ModelSpec,
        messages: Sequence[BaseMessage],
        policy: ServerPolicy,
        mode: str = "",
    ) -> BaseMessage:
        """Run the pipeline in a thread, one call per model at a time.

        The transformers pipeline has no async path; like the in-process
        llama.cpp model, it serves one call at a time.
        """
        return await asyncio.to_thread(self._invoke, model, spec, messages)

    def _invoke(
        self, model: Any, spec: ModelSpec, messages: Sequence[BaseMessage]
    ) -> BaseMessage:
        with _LOCKS.setdefault(spec.name, threading.Lock()):
            start = time.perf_counter()
            answer: BaseMessage = model.invoke(list(messages))
            answer.response_metadata["seconds"] = time.perf_counter() - start
        if not getattr(answer, "usage_metadata", None):
            _count_tokens(model, messages, answer)
        return answer


BACKEND = HuggingFaceBackend()
