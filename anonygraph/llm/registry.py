"""The backend registry: spec prefix -> backend, and spec parsing against it.

Adding a backend is one module under `anonygraph.llm.backends` and one row
in `BACKENDS`; nothing else in the package names a backend.
"""

from __future__ import annotations

import functools
import re

from anonygraph.llm.backends import hf, llamacpp, ollama, openai, rules
from anonygraph.llm.backends.base import Backend
from anonygraph.llm.spec import SPEC_FORMS, ModelSpec, ModelSpecError

BACKENDS: dict[str, Backend] = {
    "local": llamacpp.EMBEDDED,
    "rules": rules.BACKEND,
    "llamacpp": llamacpp.BACKEND,
    "ollama": ollama.BACKEND,
    "openai": openai.BACKEND,
    "hf": hf.BACKEND,
}
"""Every backend, by the prefix of its specs."""


def backend_of(spec: ModelSpec) -> Backend:
    """Return the backend that serves ``spec``."""
    return BACKENDS[spec.backend]


def stands_in(spec: str) -> bool:
    """Tell whether ``spec`` only shows a pipeline's shape (embedded model, rules)."""
    backend = backend_of(parse_spec(spec))
    return backend is llamacpp.EMBEDDED or backend.answers_from_cues


def answers_from_cues(spec: str) -> bool:
    """Tell whether ``spec`` names a backend that answers from detected cues.

    Such a checker (``rules``) saw explicit cues only, and it reads no prompt,
    so it cannot play a paper's roles. A malformed spec, or a text that is no
    spec at all, answers False; parsing it reports why.
    """
    try:
        return backend_of(parse_spec(spec)).answers_from_cues
    except ModelSpecError:
        return False


@functools.lru_cache(maxsize=256)
def parse_spec(spec: str) -> ModelSpec:
    """Parse ``local``, ``llamacpp:PATH``, ``ollama:NAME[@URL]``, ``openai:NAME[@URL]``,
    ``hf:PATH_OR_ID``.

    Cached: a spec string is parsed once per process, however many calls use it.

    Raises:
        ModelSpecError: naming the spec and the accepted forms.

    """  # noqa: D205
    raw = spec.strip()
    prefix, _, rest = raw.partition(":")
    prefix = prefix.lower()
    backend = BACKENDS.get(prefix)
    if backend is None:
        raise ModelSpecError(f"unknown model spec {spec!r}; use one of: {SPEC_FORMS}")
    if not backend.takes_name:
        if rest:
            raise ModelSpecError(f"model spec {spec!r}: {prefix!r} takes no name")
        return ModelSpec(prefix)
    if not rest:
        raise ModelSpecError(
            f"model spec {spec!r} names no model; use one of: {SPEC_FORMS}"
        )
    base_url = None
    if backend.takes_urls and "@" in rest:
        rest, _, base_url = rest.rpartition("@")
        # Several servers of one model: URL1,URL2 (see `endpoints`).
        urls = ModelSpec(prefix, rest, base_url).urls
        if not urls or not all(re.match(r"https?://", u) for u in urls):
            raise ModelSpecError(
                f"model spec {spec!r}: base URL {base_url!r} must start with http(s)://"
            )
    return ModelSpec(prefix, rest, base_url)


def spec_of(spec: str | ModelSpec) -> ModelSpec:
    """Return ``spec`` parsed (a `ModelSpec` is returned as it is)."""
    return spec if isinstance(spec, ModelSpec) else parse_spec(spec)


def check_installed(spec: str | ModelSpec) -> None:
    """Raise `ModelSpecError` when the backend of ``spec`` is not installed."""
    parsed = spec_of(spec)
    backend_of(parsed).check_installed(parsed)
