"""AURA's rules: probe scope, masking stop, mask templates, candidate selection."""
