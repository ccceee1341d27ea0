"""Pieces every structured prompt shares: the answer format and the repair request."""

ANSWER_FORMAT = """

Answer with a single JSON object, nothing before or after it, that follows this
JSON schema:
<schema>{schema}</schema>"""

REPAIR_REQUEST = """Your last answer could not be used: {error}
Answer again with only the JSON object, following the schema exactly."""

JSON_HINT = """

Answer with a single JSON object."""
