"""RLAA's control layer: from the arbitrator's verdicts to a policy (Pi_select)."""
