"""Files the tool creates: readable by their owner alone (they hold raw text)."""

from __future__ import annotations

import os
import threading
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


def cache_dir() -> Path:
    """Return the folder for what the tool derives once and keeps.

    ``$XDG_CACHE_HOME/anonygraph``, else ``~/.cache/anonygraph``: tables
    derived from installed data (none of them holds a user's text).
    """
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root) / "anonygraph"


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` as ``path`` whole, readable by the owner alone.

    Written beside it and renamed over it, so that a process reading the
    file at the same time sees the old one or the new one, never a part.
    """
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    part = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.part")
    handle = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(part, path)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
