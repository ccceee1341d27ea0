"""State and run parameters of DP-Embed-Invert: placeholders, noised chunks, receipt."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Literal, get_args

from anonygraph.state.context import Context
from anonygraph.state.record import RecordInput, RecordOutput
from anonygraph.tools.dp_embed.dp_accountant import Composition
from anonygraph.tools.torch_device import PRECISIONS

PII_RULE_SETS: tuple[str, ...] = ("product", "paper")
"""`pii_rules` values: ours (the identifier detector, `anonygraph.identifiers`,
through `tools/dp_embed/pii`) or the paper's
(`tools/dp_embed/pii_paper`)."""


CorrectorPick = Literal["best", "last"]
"""Which corrector hypothesis a run keeps: the closest re-embedding, or the
last step's (vec2text's own answer without a sequence beam)."""
CORRECTOR_PICKS: tuple[str, ...] = get_args(CorrectorPick)


@dataclass(kw_only=True)
class DpEmbedContext(Context):
    """Run parameters of DP-Embed-Invert, on top of the shared ones."""

    epsilon: float = field(
        default=16.0,
        metadata={
            "description": "Document-level epsilon; inf adds no noise (no DP claim)."
        },
    )
    delta: float = field(
        default=1e-3, metadata={"description": "Document-level delta, in (0, 1)."}
    )
    clip: float = field(
        default=1.5,
        metadata={"description": "C: every chunk embedding is clipped to L2 norm C."},
    )
    composition: str = field(
        default="basic",
        metadata={
            "description": "Budget split over the K chunks: basic (eps/K, delta/K) "
            "or zcdp (rho/K).",
            "choices": get_args(Composition),
        },
    )
    metric_unit: float = field(
        default=0.0,
        metadata={
            "description": "0: standard (eps,delta)-DP at sensitivity 2C; u > 0: "
            "(eps,delta)-d-privacy at unit distance u (weaker, not comparable)."
        },
    )
    num_steps: int = field(
        default=5, metadata={"description": "Corrector steps after the inverter."}
    )
    corrector_pick: str = field(
        default="best",
        metadata={
            "description": "Which corrector hypothesis to keep: best (its "
            "re-embedding closest to the noised target) or last (the last "
            "step's, as vec2text returns; the paper profile's).",
            "choices": CORRECTOR_PICKS,
        },
    )
    redact_pii: bool = field(
        default=True,
        metadata={
            "description": "Replace regex-detected PII by placeholders first; off: "
            "split into sentences and noise every one."
        },
    )
    redact_only: bool = field(
        default=False,
        metadata={
            "description": "Placeholders only: the plain text between them stays "
            "as written, no noise and no privacy receipt (the paper's 'regex "
            "sanitizer alone' baseline, 4.2)."
        },
    )
    keep_categories: list[str] = field(
        default_factory=list,
        metadata={
            "description": "PII categories not to placeholder (an identifier "
            "kind such as DATE_OF_BIRTH, or a paper rule's category such as "
            "'age expression'); they go through "
            "the noised rewrite like other text."
        },
    )
    pii_rules: str = field(
        default="product",
        metadata={
            "description": "PII rule set: product (the identifier detector: "
            "16 kinds, [PERSON_1], [EMAIL_1], ...) or paper (the paper's "
            "sanitizer: 33 rules, [PERSON], [AGE], [LOCATION], ...).",
            "choices": PII_RULE_SETS,
        },
    )
    split_blank_lines: bool = field(
        default=True,
        metadata={
            "description": "Cut chunks at blank lines too (joined comments come "
            "apart); off in the paper profile, where K counts the plain pieces "
            "between placeholders."
        },
    )
    encoder_path: str = field(
        default="",
        metadata={
            "description": "Local directory of the T5 embedder (e.g. gtr-t5-base)."
        },
    )
    inverter_path: str = field(
        default="",
        metadata={"description": "Local directory of the inverter model."},
    )
    corrector_path: str = field(
        default="",
        metadata={
            "description": "Local directory of the corrector; empty: inverter only."
        },
    )
    max_tokens: int = field(
        default=32,
        metadata={
            "description": "Tokens per chunk embedded and generated (vec2text: 32)."
        },
    )
    noise_seed: int = field(
        default=-1,
        metadata={
            "description": "Seed for reproducible noise in experiments; -1: fresh "
            "OS entropy. A known seed voids the privacy guarantee."
        },
    )
    device: str = field(
        default="auto",
        metadata={
            "description": "Torch device of the models: auto (CUDA, else MPS, else "
            "CPU), cpu, cuda, cuda:N or mps; a named device must exist."
        },
    )
    precision: str = field(
        default="auto",
        metadata={
            "description": "Model precision: auto (bf16 on a CUDA GPU that has it, "
            "else fp32), bf16, fp16 (GPU only) or fp32.",
            "choices": PRECISIONS,
        },
    )

    PAPER_METHOD: ClassVar[str] = "dp-embed"
    PAPER_FIELDS: ClassVar[Mapping[str, Any]] = MappingProxyType(
        {
            "pii_rules": "paper",
            "split_blank_lines": False,
            # The paper's pins (torch 2.4.1, vec2text) run in fp32.
            "precision": "fp32",
            # vec2text's answer without a sequence beam (note 4.4 is silent).
            "corrector_pick": "last",
        }
    )
    # The checks and cue injection RLAA's profile refuses are no steps here.
    PAPER_REFUSES: ClassVar[Mapping[str, tuple[Any, str]]] = MappingProxyType({})

    def __post_init__(self) -> None:
        """Read environment fallbacks; refuse a review DP-Embed has no step for.

        Raises:
            ValueError: for ``review=True``.

        """
        super().__post_init__()
        if self.pii_rules not in PII_RULE_SETS:
            raise ValueError(
                f"pii_rules {self.pii_rules!r}: choose {' or '.join(PII_RULE_SETS)}"
            )
        if self.corrector_pick not in CORRECTOR_PICKS:
            raise ValueError(
                f"corrector_pick {self.corrector_pick!r}: choose "
                f"{' or '.join(CORRECTOR_PICKS)}"
            )
        if self.review:
            raise ValueError(
                "dp-embed has no review step (its rewrite is noise, not a "
                "proposal); drop --review"
            )


@dataclass(kw_only=True)
class InputState(RecordInput):
    """What a caller passes in: one text or one author's comments."""


@dataclass(kw_only=True)
class OutputState(RecordOutput):
    """What a run returns and the evaluator reads.

    Status: done.
    """

    receipt: dict[str, Any] = field(default_factory=dict)
    """The `PrivacyReceipt`: notion, composition, eps, delta, K, sigma, ..."""


@dataclass(kw_only=True)
class State(InputState, OutputState):
    """Working state of one record."""

    current: str = ""
    """The input text (comments joined)."""

    segments: list[dict[str, Any]] = field(default_factory=list)
    """The text cut into `Segment`s: pii, chunk or verbatim pieces, in order."""

    rewritten: list[str] = field(default_factory=list)
    """The inverted text of each chunk, in order."""

    similarities: list[float] = field(default_factory=list)
    """Cosine of each rewrite's re-embedding to its noised target."""

    def chunk_texts(self) -> list[str]:
        """Return the texts of the segments that go through the mechanism."""
        return [s["text"] for s in self.segments if s["kind"] == "chunk"]
