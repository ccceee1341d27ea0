"""State of the search agent, the loop the web-search adversary and AURA's probe run.

The agent is one compiled subgraph (`anonygraph.graphs.search_agent`): a graph
that searches hands it the text (`InputState`) and gets back its queries,
conversation, call records and problems (`OutputState`), which land in the
graph's own fields of the same names (`SearchTrace`, ``calls``, ``errors``).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Annotated, Any

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langgraph.graph.message import add_messages


@dataclass(kw_only=True)
class SearchLog:
    """The queries a search agent sent; part of the output of the graphs that search."""

    search_log: Annotated[list[dict[str, Any]], operator.add] = field(
        default_factory=list
    )
    """Every query sent, with its backend and the results read."""


@dataclass(kw_only=True)
class SearchTrace(SearchLog):
    """What a search leaves for the graph that ran it, besides calls and errors."""

    search_messages: Annotated[list[AnyMessage], add_messages] = field(
        default_factory=list
    )
    """The tool-calling agent's conversation: its tool calls and their results."""

    tools_refused: str = ""
    """Why the tool-calling loop gave way to structured steps (search_mode auto):
    the server and its refusal; empty while tools are used or never tried."""


@dataclass(kw_only=True)
class InputState:
    """What a graph hands its search agent."""

    current: str = ""
    """The text the agent investigates."""


@dataclass(kw_only=True)
class OutputState(SearchTrace):
    """What the search agent hands back."""

    calls: Annotated[list[dict[str, Any]], operator.add] = field(default_factory=list)
    """Accounting of the agent's model calls."""

    errors: Annotated[list[str], operator.add] = field(default_factory=list)
    """Queries refused or cut, and a tool-calling server's refusal."""


@dataclass(kw_only=True)
class SearchAgentState(InputState, SearchTrace):
    """What the search steps read and write."""

    next_query: str = ""
    """The search the agent asked for next; empty when it stopped."""

    def may_search_again(self, max_steps: int) -> bool:
        """Tell whether the agent asked for one more search within ``max_steps``."""
        return bool(self.next_query) and len(self.search_log) < max_steps

    def searches_answered(self) -> int:
        """Count the agent's tool calls answered so far (sent or refused)."""
        return sum(isinstance(m, ToolMessage) for m in self.search_messages)

    def may_call_tool_again(self, max_steps: int) -> bool:
        """Tell whether the agent's last turn asked to search, within ``max_steps``."""
        last = self.search_messages[-1] if self.search_messages else None
        asked = isinstance(last, AIMessage) and bool(last.tool_calls)
        return asked and self.searches_answered() < max_steps


@dataclass(kw_only=True)
class State(SearchAgentState, OutputState):
    """Working state of one search: the steps' fields plus calls and errors."""
