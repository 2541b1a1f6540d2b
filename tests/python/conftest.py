"""What the Python tests share: the `duel` binary they drive, as a GUI would.

The binary is `$DUEL_BIN`, else `target/debug/duel` at the repository's root (built by
`cargo build -p duel-cli`). The tests run it through the client libraries GUIs and scripts
use (cchess, pygomo, python-chess), never through duel's own code.
"""

import os
import stat
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def duel_bin() -> str:
    path = Path(os.environ.get("DUEL_BIN", ROOT / "target" / "debug" / "duel")).resolve()
    if not path.is_file() or not os.access(path, os.X_OK):
        pytest.fail(f"no duel binary at {path}: cargo build -p duel-cli, or set DUEL_BIN")
    return str(path)


@pytest.fixture
def launcher(tmp_path, duel_bin):
    """A program that runs `duel ARGS...`: for clients that start an engine from a path
    alone, with no arguments (cchess), as GUIs that take only a program do."""

    def make(*args: str) -> str:
        script = tmp_path / ("duel-" + "-".join(a.strip("-") for a in args))
        words = " ".join(f"'{a}'" for a in args)
        script.write_text(f'#!/bin/sh\nexec \'{duel_bin}\' {words} "$@"\n')
        script.chmod(script.stat().st_mode | stat.S_IXUSR)
        return str(script)

    return make
