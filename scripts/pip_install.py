"""Install into a virtual environment what `pip install ARGS` would, fast.

`make run`'s set-up calls this instead of pip, as
`python3 scripts/pip_install.py VENV_PYTHON [pip install arguments]`. uv
installs the same packages several times faster than pip on a busy 2-core
machine (`.[run]` from empty caches: 10-23 s against pip's 88-101 s at load
4-5; benchmarks/README.md): it resolves, downloads and unpacks in parallel. But uv
does not read pip's configuration (pip.conf, `PIP_*` variables), and a
machine's indexes, find-links and constraints are part of what `pip install`
means there. So this script reads that configuration through pip's own option
parser and hands uv the same settings. When the configuration sets something
uv would not be told, when uv cannot be installed, or when uv fails, the same
arguments go to pip in the environment.

It runs on the interpreter that made the environment, whose pip installs uv
into it: the environment itself is made without pip (ensurepip took 7-11 s),
and gets pip from the requirements given (`make run` names it). pip's settings
are read as that interpreter's pip sees them; a new environment has no
pip.conf of its own.

Only arguments that both pip and uv take: `-q`, `--no-deps`, `--no-compile`,
`-r`, `-e`, `--require-hashes`, requirement specifiers.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

# uv as a wheel from the configured index (one download, no compiler).
UV_REQUIREMENT = "uv>=0.5"
# pip settings uv is told below, and those that only shape pip's own output,
# caching, or which configuration files it reads (their settings are read
# here too): any other setting in the configuration sends the install to pip.
TRANSLATED = {
    "index-url",
    "extra-index-url",
    "find-links",
    "constraint",
    "no-index",
    "trusted-host",
    "pre",
    "cert",
    "proxy",
    "timeout",
    "default-timeout",
}
PIP_ONLY = {
    "disable-pip-version-check",
    "no-input",
    "progress-bar",
    "quiet",
    "verbose",
    "root-user-action",
    "no-color",
    "no-python-version-warning",
    "cache-dir",
    "no-cache-dir",
    "retries",
    "require-virtualenv",
    "config-file",
}


def say(message: str) -> None:
    """Tell the user, on stderr, why the install goes to pip."""
    sys.stderr.write(f"pip_install: {message}\n")


def pip_install(python: str, args: list[str]) -> int:
    """Run the environment's own pip with ARGS, first giving it one if it has none."""
    pip_missing = subprocess.call(
        [python, "-m", "pip", "--version"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    if pip_missing:
        status = subprocess.call([python, "-m", "ensurepip"], stdout=subprocess.DEVNULL)
        if status != 0:
            return status
    return subprocess.call([python, "-m", "pip", "install", *args])


def untranslated_settings() -> list[str]:
    """Return the configured pip settings that uv would not be told."""
    from pip._internal.configuration import Configuration

    configuration = Configuration(isolated=False)
    configuration.load()
    names = {key.split(".", 1)[1] for key, _ in configuration.items()}
    return sorted(names - TRANSLATED - PIP_ONLY)


def uv_settings(args: list[str]) -> tuple[list[str], dict[str, str]]:
    """Return uv arguments and environment that carry pip's settings for ARGS."""
    from pip._internal.commands import create_command

    options, _ = create_command("install").parse_args([])
    uv_args = ["--index-url", options.index_url]
    # pip compiles every module at install time unless told --no-compile; uv
    # only when asked.
    if "--no-compile" not in args:
        uv_args.append("--compile-bytecode")
    # pip picks the best version across every index; uv's default stops at the
    # first index that has the project.
    uv_args += ["--index-strategy", "unsafe-best-match"]
    if options.no_index:
        uv_args.append("--no-index")
    for url in options.extra_index_urls:
        uv_args += ["--extra-index-url", url]
    for location in options.find_links:
        uv_args += ["--find-links", location]
    # With --require-hashes every requirement is pinned to a file already; uv
    # refuses constraints that are not pinned with == there (pip allows them).
    if "--require-hashes" not in args:
        for path in options.constraints:
            uv_args += ["--constraint", path]
    for host in options.trusted_hosts:
        uv_args += ["--allow-insecure-host", host]
    if options.pre:
        uv_args += ["--prerelease", "allow"]
    env = dict(os.environ)
    if options.cert:
        env["SSL_CERT_FILE"] = options.cert
    if options.proxy:
        for name in ("HTTPS_PROXY", "HTTP_PROXY"):
            env.setdefault(name, options.proxy)
    env.setdefault("UV_HTTP_TIMEOUT", str(int(options.timeout)))
    return uv_args, env


def uv_binary(python: str) -> Path | None:
    """Return the environment's uv, installing it there with pip when missing."""
    uv = Path(python).with_name("uv")
    if not uv.exists():
        command = [sys.executable, "-m", "pip", "--python", python, "install"]
        command += ["-q", "--no-compile", UV_REQUIREMENT]
        if subprocess.call(command) != 0 or not uv.exists():
            return None
    return uv


def main(python: str, args: list[str]) -> int:
    """Install ARGS into PYTHON's environment through uv, else through pip."""
    try:
        untranslated = untranslated_settings()
        uv_args, env = uv_settings(args)
    except Exception as error:  # no pip here, or its internals moved
        say(f"pip's settings unreadable ({error!r}): using pip")
        return pip_install(python, args)
    if untranslated:
        say(f"pip is configured with {untranslated}: using pip")
        return pip_install(python, args)
    uv = uv_binary(python)
    if uv is None:
        say("uv could not be installed: using pip")
        return pip_install(python, args)
    uv_args += [arg for arg in args if arg != "--no-compile"]
    command = [str(uv), "pip", "install", "--python", python, *uv_args]
    status = subprocess.call(command, env=env)
    if status != 0:
        say(f"uv failed (exit {status}): installing with pip")
        return pip_install(python, args)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
