"""The patterns compiled on first use (trainwreck/lazy_regex.py) answer as compiled ones do, and importing the
readings compiles none of them."""
from __future__ import annotations

import re
import subprocess
import sys

from conftest import ROOT
from trainwreck.lazy_regex import LazyPattern, compile as compile_lazily

TEXT = "epoch 3 loss=nan, epoch 4 loss=inf; Loss=0.5"


def test_every_method_answers_as_the_compiled_pattern_does():
    lazy, eager = compile_lazily(r"(?P<key>loss)=(\w+)", re.I), re.compile(r"(?P<key>loss)=(\w+)", re.I)
    assert lazy._compiled is None                      # (nothing compiled until asked)
    assert lazy.search(TEXT).span() == eager.search(TEXT).span() == (8, 16)
    assert lazy.search(TEXT, 20).span() == eager.search(TEXT, 20).span()
    assert lazy.match(TEXT) is None and lazy.match(TEXT, 8).group(2) == "nan"
    assert lazy.fullmatch("Loss=0") is not None and lazy.fullmatch(TEXT) is None
    assert [m.span() for m in lazy.finditer(TEXT)] == [m.span() for m in eager.finditer(TEXT)]
    assert lazy.findall(TEXT) == eager.findall(TEXT) == [("loss", "nan"), ("loss", "inf"), ("Loss", "0")]
    assert lazy.sub(r"\g<key>=?", TEXT, 1) == eager.sub(r"\g<key>=?", TEXT, 1)
    assert lazy.subn(lambda m: m.group(2), TEXT) == eager.subn(lambda m: m.group(2), TEXT)
    assert lazy.split(TEXT, 1) == eager.split(TEXT, 1)
    assert (lazy.groups, dict(lazy.groupindex)) == (2, {"key": 1})
    assert (lazy.pattern, lazy.flags) == (r"(?P<key>loss)=(\w+)", re.I)
    assert lazy.search(TEXT, pos=20).span() == eager.search(TEXT, pos=20).span()     # (keywords as re takes them)


def test_made_tells_a_match_of_this_pattern_from_one_of_another():
    first, second = compile_lazily(r"nan"), compile_lazily(r"inf")
    m = first.search(TEXT)
    assert first.made(m) and not second.made(m)
    assert not first.made(second.search(TEXT))


def test_importing_the_readings_compiles_none_of_their_patterns():
    # (in a process of its own: this one's other tests have used them; every pattern made, wherever it is kept)
    code = ("import trainwreck.diagnose\n"
            "from trainwreck.lazy_regex import MADE\n"
            "print(len(MADE), sum(p._compiled is not None for p in MADE))\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    lazy, compiled = map(int, run.stdout.split())
    assert lazy > 850 and compiled == 0, run.stdout


def _every_lazy_pattern() -> list[LazyPattern]:
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


def test_every_pattern_compiled_on_first_use_compiles():
    # (a malformed one would otherwise raise only when a report first reached it, not when its module is imported)
    found = _every_lazy_pattern()
    assert len(found) > 850
    broken = {}
    for pattern in found:
        try:
            pattern.compiled()
        except re.error as exc:
            broken[pattern.pattern[:60]] = str(exc)
    assert broken == {}
    bad = LazyPattern(r"a(?i)b")
    try:
        bad.compiled()
    except re.error:
        pass
    else:
        raise AssertionError("a misplaced global flag compiled")      # (and the check can fail)
