"""IntentAnony's rules: exposure table and budgets, evidence spans and outcomes."""
