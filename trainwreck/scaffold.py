"""`trainwreck new`: the three files of a new entry, failing until filled in."""
from __future__ import annotations

import os
import re
from pathlib import Path

import yaml

from .entry import ID_PATTERN
from .safe_text import control_characters, shown
from . import lazy_regex

PLACEHOLDER = "TODO(scaffold)"
SLUG = lazy_regex.compile(r"[a-z][a-z0-9_]*")
# wr320_<slug>.py and test_wr320_<slug>.py stay far below any file system's 255-byte name limit
SLUG_MAX = 40
TITLE_MAX = 120


class ScaffoldError(Exception):
    pass


def new_entry(catalog_dir: Path, entry_id: str, slug: str, title: str, module: str) -> list[Path]:
    """Write the entry, its snippet and its test: all three, or none (everything is checked first)."""
    from .catalog import project_root

    entry_id = entry_id.upper()
    if not ID_PATTERN.fullmatch(entry_id):
        raise ScaffoldError(f"{shown(entry_id, 30)} is not an ID of the form WR-NNN")
    if not SLUG.fullmatch(slug):
        raise ScaffoldError(f"{shown(slug, 30)} is not a slug: lower-case letters, digits and _")
    if len(slug) > SLUG_MAX:
        raise ScaffoldError(f"the slug is {len(slug)} characters long; keep it to {SLUG_MAX} (it names two files)")
    title = title.strip()
    if not title or control_characters(title) or len(title) > TITLE_MAX:
        raise ScaffoldError(f"the title must be one line of 1 to {TITLE_MAX} characters, without control characters")
    root = project_root(catalog_dir)
    if root is None:
        raise ScaffoldError(f"{catalog_dir}: not inside a project: there is no snippets/ folder beside it")
    number = entry_id[3:]
    snippet = f"snippets/wr{number}_{slug}.py"
    files = {
        catalog_dir / f"{entry_id}.md": _entry_text(entry_id, title, module, snippet),
        root / snippet: _snippet_text(entry_id, title),
        root / "tests" / f"test_wr{number}_{slug}.py": _test_text(entry_id, slug),
    }
    taken = [str(p) for p in files if os.path.lexists(p)]
    if taken:
        raise ScaffoldError(f"already exists: {', '.join(taken)}")
    blocked = [str(p.parent) for p in files if os.path.lexists(p.parent) and not p.parent.is_dir()]
    if blocked:
        raise ScaffoldError(f"not a folder: {', '.join(blocked)}")
    return _write_all(files)


def _write_all(files: dict[Path, str]) -> list[Path]:
    """Create each file (never overwriting); on any failure remove what was created and say why."""
    created: list[Path] = []
    try:
        for path, text in files.items():
            if not path.parent.is_dir():
                path.parent.mkdir(parents=True)
                created.append(path.parent)
            with open(path, "x", encoding="utf-8") as handle:
                created.append(path)
                handle.write(text)
    except OSError as exc:
        for made in reversed(created):
            try:
                made.rmdir() if made.is_dir() else made.unlink()
            except OSError:
                pass
        raise ScaffoldError(f"could not write {exc.filename}: {(exc.strerror or str(exc)).lower()}; "
                            "nothing was written") from None
    return list(files)


def _entry_text(entry_id: str, title: str, module: str, snippet: str) -> str:
    todo = f"{PLACEHOLDER}: write this section."
    sections = "\n\n".join(f"## {name}\n\n{todo}" for name in (
        "Symptom", "Where it shows up", "Why it happens", "Confirm it"))
    # The YAML library quotes the title, whatever quotes, backslashes or colons it holds.
    front_matter = yaml.safe_dump({
        "id": entry_id,
        "title": title,
        "summary": f"{PLACEHOLDER}: one line for indexes and search results.",
        "status": "draft",
        "modules": [module],
        "related": [],
        "symptoms": {"messages": [], "trace": "none"},
        "snippet": snippet,
    }, sort_keys=False, allow_unicode=True, width=float("inf"), default_flow_style=None)
    return f'''---
{front_matter}---

{sections}
''' + _ENTRY_REST.format(todo=todo, placeholder=PLACEHOLDER)


_ENTRY_REST = '''
## Fix

{todo}

## Prevent it

{todo}

## In PyTorch, Keras/TensorFlow and JAX

### PyTorch

**What you see:** {todo}

**Confirm it:** {todo}

**The fix:** {todo}

### Keras / TensorFlow

**What you see:** {todo}

**Confirm it:** {todo}

**The fix:** {todo}

### JAX

**What you see:** {todo}

**Confirm it:** {todo}

**The fix:** {todo}

## Interview question

{placeholder}: the question.

### Strong answer

{todo}

### Bonus point

{todo}
'''


def _docstring_line(text: str) -> str:
    """Text safe inside a triple-quoted Python string: backslashes and quotes escaped."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _snippet_text(entry_id: str, title: str) -> str:
    return f'''"""{entry_id}: {_docstring_line(title)}

Run it: python {"snippets/..."}
"""
# --8<-- [start:setup]
import numpy as np

SEED = 0


def make_data(seed=SEED):
    """Everything both tabs need (data, model, training loop) goes here; it prints nothing."""
    raise NotImplementedError("{PLACEHOLDER}: the shared definitions")
# --8<-- [end:setup]


# --8<-- [start:reproduce]
def reproduce(seed=SEED):
    """Return the results that show the symptom."""
    raise NotImplementedError("{PLACEHOLDER}: reproduce the symptom")


if __name__ == "__main__":
    print(reproduce())
# --8<-- [end:reproduce]


# --8<-- [start:fix]
def fixed(seed=SEED):
    """Return the same results with the fix applied."""
    raise NotImplementedError("{PLACEHOLDER}: show the fix working")


if __name__ == "__main__":
    print(fixed())
# --8<-- [end:fix]
'''


def _test_text(entry_id: str, slug: str) -> str:
    number = entry_id[3:]
    return f'''"""{entry_id}: the snippet shows the documented symptom, and the fix removes it."""
import pytest

from conftest import assert_entry_says, load_snippet

snippet = load_snippet("wr{number}_{slug}")


def test_reproduction_shows_the_documented_symptom():
    pytest.fail("{entry_id}: pin the symptom (epochs, warning texts, values) from snippet.reproduce()")


def test_fix_removes_it():
    pytest.fail("{entry_id}: pin what the fix changes, from snippet.fixed()")


def test_numbers_in_the_entry_match_the_snippet():
    pytest.fail("{entry_id}: check every number the prose states with assert_entry_says")
'''
