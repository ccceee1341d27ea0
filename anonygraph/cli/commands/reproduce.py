"""``anonygraph reproduce PAPER``: the paper's methods, its protocol, its table."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from anonygraph.cli.commands import COMMANDS
from anonygraph.cli.flags import OptionError, add_model, flag_spelling, parse_models
from anonygraph.papers import PAPERS
from anonygraph.state.profile import ProfileError, Spelling


def add_parser(sub: Any) -> None:
    """Add ``reproduce``: the paper, its data, how many records, the models."""
    parser = sub.add_parser(
        "reproduce",
        help=COMMANDS["reproduce"],
    )
    parser.add_argument("paper", choices=PAPERS)
    parser.add_argument(
        "--data",
        required=True,
        help="the paper's data set: PersonalReddit train.jsonl (rlaa, "
        "intentanony), SynthPAI profiles.jsonl (seal), or JSONL PII examples "
        "with text and gold_pii strings or spans (dp-embed, e.g. Nemotron-PII), "
        "or JSONL transcripts with text, identity, profile_facts, codebook_facts "
        "(aura)",
    )
    for flag, what in (
        ("--encoder", "dp-embed: the GTR encoder folder (gtr-t5-base)"),
        ("--inverter", "dp-embed: the inverter folder (jxm/gtr__nq__32, as saved)"),
        (
            "--corrector",
            "dp-embed: the corrector folder (jxm/gtr__nq__32__correct, as saved)",
        ),
    ):
        parser.add_argument(flag, default="", help=what)
    parser.add_argument("--device", default="", help="dp-embed: torch device")
    parser.add_argument(
        "--search-backend",
        default="",
        help="aura: offline, ddgs or tavily (the probe and the adversary search)",
    )
    parser.add_argument("--search-corpus", default="", help="aura: offline corpus")
    parser.add_argument("--search-index", default="", help="aura: offline index")
    parser.add_argument(
        "--allow-web", action="store_true", help="aura: let ddgs/tavily search"
    )
    parser.add_argument(
        "--seal-model",
        default="",
        metavar="SPEC",
        help="rlaa: also run the SEAL (SFT+DPO) row with our SEAL from this "
        "model, e.g. hf:OUT/final from `anonygraph seal train` (it plays every "
        "role of SEAL's self-refinement); without it the row is the paper's only",
    )
    parser.add_argument(
        "--sample",
        "--records",
        dest="records",
        type=int,
        default=0,
        metavar="N",
        help="records to run (default: the paper's sample, 50 for dp-embed; else 8)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        metavar="S",
        help="draw the N records by a shuffle with this seed (default: the "
        "paper's, 0 for dp-embed; else the first N in file order)",
    )
    parser.add_argument(
        "--max-iterations",
        type=int,
        default=0,
        help="T of the loops (default: the paper's, e.g. 10 for RLAA)",
    )
    add_model(parser, "models of every role of every run and of the evaluation")
    parser.add_argument("--out", default="reproduce", help="folder for runs and table")
    parser.add_argument("--db", default="", help="run store (default: OUT/runs.sqlite)")
    parser.add_argument("--concurrency", type=int, default=1, help="records at once")
    parser.add_argument("--no-progress", action="store_true")
    parser.set_defaults(func=command)


def _reproduce_spelling(paper: str) -> Spelling:
    """Spell a refused option as flags; `reproduce` has no other profile to offer."""

    def spell(name: str, value: Any, role: str) -> str:
        if name == "profile":
            return f"{paper}'s paper profile" if value == "paper" else ""
        return flag_spelling(name, value, role)

    return spell


def command(args: argparse.Namespace) -> int:
    """Run, score, and print the table (also written to OUT/table.md)."""
    from pathlib import Path

    from anonygraph.llm.registry import answers_from_cues
    from anonygraph.reporting.reproduce import ReproduceOptions, render, reproduce

    if args.seal_model and args.paper != "rlaa":
        raise OptionError("--seal-model: only `reproduce rlaa` has a SEAL row to run")
    if args.seal_model and answers_from_cues(args.seal_model):
        raise OptionError(
            "--seal-model rules: the SEAL row plays the paper's roles and rules "
            "do not answer its prompts; name your trained model, e.g. "
            "--seal-model hf:OUT/final"
        )
    if args.seal_model:
        from anonygraph.llm import ModelSpecError, check_installed

        try:
            check_installed(args.seal_model)
        except ModelSpecError as exc:
            raise OptionError(f"--seal-model {args.seal_model}: {exc}") from exc
    options = ReproduceOptions(
        paper=args.paper,
        data=args.data,
        out=args.out,
        records=args.records,
        seed=args.seed,
        models=parse_models(args.model or []),
        run_fields={
            name: value
            for name, value in (
                ("encoder_path", args.encoder),
                ("inverter_path", args.inverter),
                ("corrector_path", args.corrector),
                ("device", args.device),
                ("search_backend", args.search_backend),
                ("search_corpus", args.search_corpus),
                ("search_index", args.search_index),
                ("allow_web", args.allow_web),
            )
            if value
        },
        row_models={"seal_model": args.seal_model} if args.seal_model else {},
        max_iterations=args.max_iterations,
        db=args.db,
        concurrency=args.concurrency,
        progress=not args.no_progress,
    )
    try:
        result = asyncio.run(reproduce(options))
    except ProfileError as exc:
        raise OptionError(exc.spelled(_reproduce_spelling(args.paper))) from exc
    text = render(result)
    table = Path(args.out) / "table.md"
    table.write_text(text + "\n", encoding="utf-8")
    table.chmod(0o600)
    print(text)  # noqa: T201
    return 0
