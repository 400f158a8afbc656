"""`trainwreck new`: the three files of a new entry, failing until filled in."""
from __future__ import annotations

import re
from pathlib import Path

from .entry import ID_PATTERN

PLACEHOLDER = "TODO(scaffold)"
SLUG = re.compile(r"^[a-z][a-z0-9_]*$")


class ScaffoldError(Exception):
    pass


def new_entry(catalog_dir: Path, entry_id: str, slug: str, title: str, module: str) -> list[Path]:
    entry_id = entry_id.upper()
    if not ID_PATTERN.match(entry_id):
        raise ScaffoldError(f"{entry_id!r} is not an ID of the form WR-NNN")
    if not SLUG.match(slug):
        raise ScaffoldError(f"{slug!r} is not a slug: lower-case letters, digits and _")
    root = catalog_dir.parent
    number = entry_id[3:]
    snippet = f"snippets/wr{number}_{slug}.py"
    files = {
        catalog_dir / f"{entry_id}.md": _entry_text(entry_id, title, module, snippet),
        root / snippet: _snippet_text(entry_id, title),
        root / "tests" / f"test_wr{number}_{slug}.py": _test_text(entry_id, slug),
    }
    taken = [str(p) for p in files if p.exists()]
    if taken:
        raise ScaffoldError(f"already exists: {', '.join(taken)}")
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return list(files)


def _entry_text(entry_id: str, title: str, module: str, snippet: str) -> str:
    todo = f"{PLACEHOLDER}: write this section."
    sections = "\n\n".join(f"## {name}\n\n{todo}" for name in (
        "Symptom", "Where it shows up", "Why it happens", "Confirm it"))
    return f'''---
id: {entry_id}
title: "{title}"
summary: "{PLACEHOLDER}: one line for indexes and search results."
status: draft
modules: ["{module}"]
related: []
symptoms:
  messages: []
  trace: none
snippet: {snippet}
---

{sections}

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

{PLACEHOLDER}: the question.

### Strong answer

{todo}

### Bonus point

{todo}
'''


def _snippet_text(entry_id: str, title: str) -> str:
    return f'''"""{entry_id}: {title}

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
