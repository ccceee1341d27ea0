"""Speed of the numpy MiniLM against sentence-transformers (torch), one run.

Both embed the same PersonalReddit texts on the CPU; prints seconds, texts per
second, the ratio and the largest difference between their embeddings.

Run: python benchmarks/minilm_speed.py [PATH/TO/train.jsonl] [N]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

from anonygraph.tools.minilm import MiniLMEncoder
from anonygraph.tools.text_metrics import embedding_model_path

DEFAULT = (
    Path(__file__).resolve().parents[2]
    / "shared"
    / "data"
    / "personalreddit"
    / "train.jsonl"
)


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 128
    texts = [json.loads(line)["response"] for line in path.open()][:count]
    folder = embedding_model_path()

    start = time.perf_counter()
    ours = MiniLMEncoder(folder)
    load_numpy = time.perf_counter() - start
    start = time.perf_counter()
    emb_numpy = ours.encode(texts)
    numpy_seconds = time.perf_counter() - start

    start = time.perf_counter()
    from sentence_transformers import SentenceTransformer

    reference = SentenceTransformer(str(folder), device="cpu", local_files_only=True)
    load_torch = time.perf_counter() - start
    start = time.perf_counter()
    emb_torch = reference.encode(texts, normalize_embeddings=True)
    torch_seconds = time.perf_counter() - start

    print(f"{len(texts)} texts")
    print(
        f"numpy MiniLM : load {load_numpy:.2f} s, encode {numpy_seconds:.2f} s "
        f"({len(texts) / numpy_seconds:.1f} texts/s)"
    )
    print(
        f"torch (s-t)  : load {load_torch:.2f} s (import included), encode "
        f"{torch_seconds:.2f} s ({len(texts) / torch_seconds:.1f} texts/s)"
    )
    print(f"numpy / torch encode time: {numpy_seconds / torch_seconds:.2f}")
    print(f"max |difference|: {float(np.abs(emb_numpy - emb_torch).max()):.2e}")


if __name__ == "__main__":
    main()
