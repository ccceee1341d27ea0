"""Plain functions the steps apply: spans, exposure and selection rules, search, DP."""
