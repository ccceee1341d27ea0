"""What several methods' steps ask a model for, built and checked one way for all.

`inference`: the attacker's attribute-inference request (every attacking
step, the evaluator, SEAL's data); `rewriting`: the checked rewrite (every
rewriting step: acceptance checks, one retry with the reason). Steps
themselves are in `anonygraph.nodes`, which never import each other.
"""
