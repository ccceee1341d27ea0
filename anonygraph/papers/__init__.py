"""The papers anonygraph implements: their published figures, as package data."""
