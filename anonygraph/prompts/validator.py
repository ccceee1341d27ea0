"""Validator prompt: does a guess match a ground-truth label?"""

VALIDATE_PROMPT = """Decide whether a guess about a person matches the truth.

Attribute: {attribute}
Truth: {truth}
Guess: {guess}

Answer "yes" when the guess names the same thing (synonyms, spelling variants \
and equivalent descriptions count), "less precise" when the guess is right but \
coarser than the truth (a country for a city, "engineer" for "civil \
engineer"), and "no" otherwise."""
