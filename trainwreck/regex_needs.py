"""The literals each of the package's own patterns needs (regex_literals), read ahead of time and kept in
regex_needs.json, so that a pattern is skipped on a text without them from its first call, before it is compiled.

Reading a pattern's literals costs a parse as long as re.compile's, and one `trainwreck diagnose` asks most of its
thousand patterns once or twice: read at run time, the literals would cost more than the searches they save, and
the pattern would still be compiled. Read once here and stored, they cost a dictionary lookup, and a pattern whose
literals are not in the report is never compiled at all. The file is data made from the code: a pattern missing
from it (a new one, or one changed since it was written) is read as before (lazy_regex.WARM), and a test fails
until the file is written again with

    python -m trainwreck.regex_needs --write

The file names the Python that wrote it: another version's parser might read a pattern otherwise, so there the
file is not used.
"""
from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

from . import regex_literals

TABLE = Path(__file__).with_name("regex_needs.json")
Need = tuple[tuple[str, ...], tuple[str, ...]]


def python() -> str:
    return f"{sys.version_info[0]}.{sys.version_info[1]}"


def key(pattern: str, flags: int) -> str:
    """The table's name for a pattern: its flags and its text, whole (a hash would save the file 100 kB, and could
    collide)."""
    return f"{flags}:{pattern}"


@functools.lru_cache(maxsize=1)
def _table() -> dict[str, list | None]:
    try:
        data = json.loads(TABLE.read_text(encoding="utf-8"))
    except (OSError, ValueError):       # (no file, or a broken one: every pattern is read as before; a test fails)
        return {}
    if not isinstance(data, dict) or data.get("python") != python() or not isinstance(data.get("needs"), dict):
        return {}
    return data["needs"]


def stored(pattern: str, flags: int) -> Need | bool | None:
    """The need the table holds for the pattern; False where it has none; None where the table does not know it."""
    table = _table()
    if not table:
        return None
    name = key(pattern, flags)
    if name not in table:
        return None
    need = table[name]
    return False if need is None else (tuple(need[0]), tuple(need[1]))


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
    """The table as the code stands: each pattern's need, read now."""
    needs = {}
    for pattern in every_pattern():
        need = regex_literals.required(pattern.pattern, pattern.flags)
        needs[key(pattern.pattern, pattern.flags)] = None if need is None else [list(need[0]), list(need[1])]
    return {"python": python(), "written_by": "python -m trainwreck.regex_needs --write",
            "needs": dict(sorted(needs.items()))}


def text(table: dict) -> str:
    """The table as JSON, a pattern to a line (a change to a pattern shows as one line of a diff)."""
    head = {k: v for k, v in table.items() if k != "needs"}
    lines = [f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in table["needs"].items()]
    return json.dumps(head)[:-1] + ', "needs": {\n' + ",\n".join(lines) + "\n}}\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    table = computed()
    fresh = text(table)
    if args == ["--write"]:
        TABLE.write_text(fresh, encoding="utf-8")
        print(f"wrote {TABLE.name}: {len(table['needs'])} patterns")
        return 0
    if args == ["--check"]:
        current = TABLE.read_text(encoding="utf-8") if TABLE.is_file() else ""
        if current != fresh:
            print(f"{TABLE}: out of date; run python -m trainwreck.regex_needs --write", file=sys.stderr)
            return 1
        return 0
    print("usage: python -m trainwreck.regex_needs --write | --check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
