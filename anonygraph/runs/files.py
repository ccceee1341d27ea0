"""Files the tool creates: readable by their owner alone (they hold raw text)."""

from __future__ import annotations

import os
from pathlib import Path


def secure_file(path: str | Path) -> Path:
    """Create ``path`` (and its folder) readable by the owner alone, if missing.

    An existing file is only chmod-ed, never opened: closing a descriptor of a
    database file would drop the POSIX locks SQLite holds on it in this process,
    and the next write fails with "disk I/O error" or worse.
    """
    target = Path(path)
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            pass
    os.chmod(target, 0o600)
    return target
