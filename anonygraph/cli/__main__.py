"""``python -m anonygraph.cli``: the ``anonygraph`` command."""

from anonygraph.cli import run

if __name__ == "__main__":
    run()
