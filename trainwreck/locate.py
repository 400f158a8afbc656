"""Where the catalogue is when the user does not say."""
from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def default_catalog(cwd: Path | None = None) -> Path:
    """./catalog if there is one (a course's fork), else the copy shipped with trainwreck."""
    local = (cwd or Path.cwd()) / "catalog"
    if local.is_dir():
        return Path("catalog") if cwd is None else local
    bundled = PACKAGE / "_data" / "catalog"       # inside an installed wheel
    if bundled.is_dir():
        return bundled
    return PACKAGE.parent / "catalog"             # running from a source checkout
