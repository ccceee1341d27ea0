"""DP-Embed-Invert's parts: PII scanner, segmentation, accountant, inversion."""
