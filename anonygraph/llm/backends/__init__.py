"""One module per backend (`rules`, `llamacpp`, `openai`, `ollama`, `hf`).

Each holds a `base.Backend` subclass and its instance; `anonygraph.llm.registry`
maps spec prefixes to them.
"""
