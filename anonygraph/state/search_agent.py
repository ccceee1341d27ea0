"""State of the search loop shared by the web-search adversary and AURA's probe."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Annotated, Any


@dataclass(kw_only=True)
class SearchLog:
    """The queries a search agent sent; part of the output of the graphs that search."""

    search_log: Annotated[list[dict[str, Any]], operator.add] = field(
        default_factory=list
    )
    """Every query sent, with its backend and the results read."""


@dataclass(kw_only=True)
class SearchAgentState(SearchLog):
    """What the search steps read and write."""

    current: str = ""
    """The text the agent investigates."""

    next_query: str = ""
    """The search the agent asked for next; empty when it stopped."""

    def may_search_again(self, max_steps: int) -> bool:
        """Tell whether the agent asked for one more search within ``max_steps``."""
        return bool(self.next_query) and len(self.search_log) < max_steps
