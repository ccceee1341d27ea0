"""The words by which a text speaks of its author, as the parser splits them.

One place for them, so that every detector asks the same question: "is the
author in this clause?" Lower-case token texts; spaCy splits "I'm" into
"I" and "'m", so a contraction's own entry only matters to a caller that
matches whole words.
"""

from __future__ import annotations

SUBJECTS = frozenset({"i", "we"})
"""The author as a clause's subject ("I work at", "we run")."""

PERSONS = frozenset({"i", "i'm", "me", "we", "us", "myself"})
"""The author as any person of a clause: subject, object, reflexive."""

POSSESSIVES = frozenset({"my", "our"})
"""The author owning a noun ("my job", "our flat")."""

ANY = PERSONS | POSSESSIVES | frozenset({"im", "i've", "mine", "ours"})
"""Any word of the author's: its presence says a sentence is about them."""
