"""Graph steps only, one module per method; adversary, search_agent, prepare shared."""
