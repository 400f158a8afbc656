"""The literals each of the package's own patterns needs (regex_literals), read ahead of time and kept in
regex_needs.json, so that a pattern is skipped on a text without them from its first call, before it is compiled.

Reading a pattern's literals costs a parse as long as re.compile's, and one `trainwreck diagnose` asks most of its
thousand patterns once or twice: read at run time, the literals would cost more than the searches they save, and
the pattern would still be compiled. Read once here and stored, they cost a dictionary lookup, and a pattern whose
literals are not in the report is never compiled at all. The file is data made from the code: a pattern missing
from it (a new one, or one changed since it was written) is read as before (lazy_regex.WARM), and a test fails
until the file is written again with

    python -m trainwreck.regex_needs --write

which imports every module of the package, the site's among them (the `site` extra). The literals are what every
match of a pattern holds, whichever Python reads them: Pythons 3.10 to 3.13 read the same ones from every pattern of
the package (code_review_s70 4, s70b 12), and the test holds the file to what the Python running it reads (CI's).
"""
from __future__ import annotations

import functools
import json
import re
import sys
from pathlib import Path
from typing import Literal

from .regex_literals import Literals, required

TABLE = Path(__file__).with_name("regex_needs.json")


def key(pattern: str, flags: int) -> str:
    """The table's name for a pattern: its flags as a number, and its text whole (a hash would save the file 100 kB,
    and could collide)."""
    return f"{int(flags)}:{pattern}"


@functools.lru_cache(maxsize=1)
def _table() -> dict:
    try:
        data = json.loads(TABLE.read_text(encoding="utf-8"))
    except (OSError, ValueError):       # (no file, or a broken one: every pattern is read as before; a test fails)
        return {}
    return data if isinstance(data, dict) else {}


def _well_formed(need: object) -> bool:
    """A pair of lists of literals, one literal at least (a hand-mended entry that says less would skip texts the
    pattern matches)."""
    return (isinstance(need, list) and len(need) == 2 and all(isinstance(part, list) for part in need)
            and any(need) and all(isinstance(lit, str) and lit for part in need for lit in part))


def stored(pattern: object, flags: int) -> Literals | Literal[False] | None:
    """The literals the table holds for the pattern; False where it holds that the pattern has none; None where the
    table does not know the pattern (or holds something that is not literals)."""
    table = _table()
    if not table or type(pattern) is not str:
        return None
    name = key(pattern, flags)
    if name not in table:
        return None
    need = table[name]
    if need is None:
        return False
    return (tuple(need[0]), tuple(need[1])) if _well_formed(need) else None


def every_pattern() -> list:
    """Every pattern lazy_regex made once the whole package is imported: module names, tuples of folds, Normals'
    fields alike."""
    import importlib
    import pkgutil

    import trainwreck
    from trainwreck import lazy_regex

    for info in pkgutil.walk_packages(trainwreck.__path__, "trainwreck."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    return list(lazy_regex.MADE)


def computed() -> dict:
    """The table as the code stands: each str pattern's literals, read now (each pattern compiled too: no literals are
    written for one that re.compile refuses)."""
    table = {}
    for pattern in every_pattern():
        if type(pattern.pattern) is not str:
            continue
        re.compile(pattern.pattern, pattern.flags)
        need = required(pattern.pattern, pattern.flags)
        table[key(pattern.pattern, pattern.flags)] = None if need is None else [list(need[0]), list(need[1])]
    return dict(sorted(table.items()))


def text(table: dict) -> str:
    """The table as JSON, a pattern to a line (a change to a pattern shows as one line of a diff)."""
    return "{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in table.items()) + "\n}\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args not in (["--write"], ["--check"]):
        print("usage: python -m trainwreck.regex_needs --write | --check", file=sys.stderr)
        return 2
    try:
        table = computed()
    except ImportError as exc:
        print(f"trainwreck.regex_needs: every module must import to read its patterns ({exc}); "
              "install the site extra: pip install -e '.[site]'", file=sys.stderr)
        return 1
    if args == ["--write"]:
        TABLE.write_text(text(table), encoding="utf-8")
        print(f"wrote {TABLE.name}: {len(table)} patterns")
        return 0
    _table.cache_clear()
    if _table() != table:
        print(f"{TABLE}: out of date ({len(set(table) ^ set(_table()))} patterns added or gone, "
              f"{sum(1 for k in table if k in _table() and _table()[k] != table[k])} read otherwise); "
              "run python -m trainwreck.regex_needs --write", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
