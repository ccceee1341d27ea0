"""Hand-made SEAL trajectory states for tests."""

from __future__ import annotations

from anonygraph.state.seal import TrajectoryStep

Leak = tuple[str, int]


def step(
    index: int,
    text: str,
    leaks: list[Leak],
    util: tuple[int, int, int] = (10, 10, 1),
    attributes: tuple[str, ...] = ("age", "occupation", "city_country"),
) -> TrajectoryStep:
    guessed = dict(leaks)
    readability, meaning, hallucination = util
    return TrajectoryStep.model_validate(
        {
            "index": index,
            "text": text,
            "inferences": [
                {
                    "attribute": name,
                    "reasoning": f"clue for {name}" if name in guessed else "no clue",
                    "guesses": ["34" if name == "age" else f"a {name}"]
                    if name in guessed
                    else [],
                    "certainty": guessed.get(name, 1),
                }
                for name in attributes
            ],
            "utility": {
                "readability": {"explanation": "reads well", "score": readability},
                "meaning": {"explanation": "same point", "score": meaning},
                "hallucination": {"explanation": "nothing new", "score": hallucination},
            },
        }
    )
