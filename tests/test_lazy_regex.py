"""The patterns compiled on first use (trainwreck/lazy_regex.py) answer as compiled ones do, and importing the
readings compiles none of them."""
from __future__ import annotations

import json
import re
import subprocess
import sys

from conftest import ROOT
from trainwreck.lazy_regex import LazyPattern, compile as compile_lazily
from trainwreck.regex_needs import every_pattern

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


def test_every_pattern_compiled_on_first_use_compiles():
    # (a malformed one would otherwise raise only when a report first reached it, not when its module is imported)
    found = every_pattern()
    assert len(found) > 850
    broken = {}
    for pattern in found:
        try:
            pattern.compiled()
        except re.error as exc:
            broken[pattern.pattern[:60]] = str(exc)
    assert broken == {}
    bad = LazyPattern(r"(loss")     # (unbalanced: an error on every Python; a misplaced global flag is one from 3.11)
    try:
        bad.compiled()
    except re.error:
        pass
    else:
        raise AssertionError("an unbalanced group compiled")      # (and the check can fail)


# ---- the literals every match holds (trainwreck/regex_literals.py) ----------------------------------------------

def test_the_literals_a_pattern_needs_are_read_from_its_parse():
    from trainwreck.regex_literals import required

    assert required(r"\bloss\s*=\s*(\d+)") == (("loss",), ())
    # (of a sequence, the item that rules out most: a branch's every alternative, or the longest run)
    assert required(r"\b(?:nan|inf)\s+gr") == (("inf", "nan"), ())     # (on a tie of lengths, fewer literals)
    assert required(r"\b(?:exploding|explodes)\b") == (("explod",), ())     # (re's parser takes the common prefix out)
    assert required(r"ab(?:c|d)efgh") == (("efgh",), ())
    # (case-insensitive ones lower-cased, by the global flag, an inline group's or re.I)
    assert required(r"(?i)\bNaN\b") == ((), ("nan",))
    assert required(r"x(?i:LOSS)y") == ((), ("loss",)) and required("Loss", re.I) == ((), ("loss",))
    # (a lookahead that must hold reads text too; one that must not, nothing)
    assert required(r"\d+(?=\s*epochs)") == (("epochs",), ()) and required(r"\d+(?!\s*epochs)") is None
    # (nothing needed: an optional part, a character class, a branch with an alternative that needs nothing)
    for pattern in (r"(?:loss)?\d", r"[lL]\d", r"loss|\d+", r"a*b?"):
        assert required(pattern) is None, pattern
    # (a case-insensitive literal that is not ASCII cannot be looked for in a lower-cased text)
    assert required(r"(?i)ошибка") is None


def test_a_text_without_the_literals_is_answered_without_the_pattern():
    pattern = compile_lazily(r"(?i)\bgrad(?:ient)?[ _]norm\b")
    # (its first WARM calls run it and read no literals; the next reads them)
    from trainwreck.lazy_regex import WARM
    for _ in range(WARM):
        assert pattern.search("epoch 3 loss=nan") is None
    assert pattern._need is None
    assert pattern.search("epoch 3 loss=nan") is None and pattern._need == ((), ("grad",))
    # (a pattern with no literal to look for settles on False, read once: code_review_s69b)
    bare = compile_lazily(r"\d+")
    for _ in range(WARM + 3):
        assert bare.search("epoch 3").group(0) == "3"
    assert bare._need is False and bare._asked == WARM + 1
    # (a long text has the literals read at its first call)
    long = compile_lazily(r"\bgrad norm\b")
    from trainwreck.lazy_regex import LONG_TEXT
    assert long.search("x" * LONG_TEXT) is None and long._need == (("grad norm",), ())

    class Refuses:                      # (the compiled pattern, asked only where a literal is there)
        def __getattr__(self, name):
            raise AssertionError(f"the pattern ran: {name}")

    real, pattern._compiled = pattern._compiled, Refuses()
    text = "epoch 3 loss=nan"
    assert pattern.search(text) is None and pattern.match(text) is None and pattern.fullmatch(text) is None
    assert list(pattern.finditer(text)) == [] and pattern.findall(text) == []
    assert pattern.sub("X", text) == text and pattern.subn("X", text) == (text, 0) and pattern.split(text) == [text]
    try:
        pattern.search("the Grad Norm was 3")          # (upper case: the literal is looked for case-insensitively)
    except AssertionError as exc:
        assert "the pattern ran" in str(exc)
    else:
        raise AssertionError("a text holding the literal was not searched")
    pattern._compiled = real
    assert pattern.search("the Grad Norm was 3").group(0) == "Grad Norm"


def test_a_broken_replacement_raises_on_a_text_the_pattern_skips_as_re_does():
    # (code_review_s69 L1: a bug in a template shows on every text, not only on those that hold the literal)
    from trainwreck.precision_said import GRAD_SCALER

    for method in ("sub", "subn"):
        # (one the table knows is skipped from its first call: code_review_s70 6)
        for pattern in (compile_lazily(r"loss"), re.compile(r"loss"), LazyPattern(GRAD_SCALER.pattern, GRAD_SCALER.flags)):
            try:
                getattr(pattern, method)(r"\1", "no such word here")
            except re.error:
                pass
            else:
                raise AssertionError(f"{method} of {pattern!r} took a reference to a group it does not have")
    assert compile_lazily(r"(loss)").sub(r"[\1]", "epoch 3") == "epoch 3"


def test_a_text_that_is_not_ascii_is_searched_by_a_case_insensitive_pattern():
    # (re.IGNORECASE matches k to the Kelvin sign, and s to the long s: no ASCII lower-casing finds them)
    for pattern, text in ((r"(?i)\bkl\b", "the \u212aL term"), (r"(?i)loss", "lo\u017fs")):
        lazy = compile_lazily(pattern)
        assert re.search(pattern, text) and lazy.search(text) is not None, (pattern, text)


def _texts() -> list[str]:
    """Reports of many shapes: every sample log the tests keep, each entry's page, and texts built to hold a
    literal in another case or beside letters that are not ASCII."""
    logs = sorted((ROOT / "tests" / "logs").rglob("*.log"))[::5]
    pages = sorted((ROOT / "catalog").glob("WR-*.md"))[::2]
    texts = [p.read_text(encoding="utf-8", errors="replace")[:1_500] for p in logs + pages]
    return texts + ["LOSS IS NAN AFTER EPOCH 3, EXP OVERFLOW", "loss wird nan — Überlauf in exp()", ""]


def test_no_pattern_of_the_readings_is_skipped_on_a_text_it_matches():
    # (the prefilter's promise, pattern by pattern: wherever it says a text cannot match, the pattern finds nothing)
    from trainwreck import regex_literals

    texts = _texts()
    needs = [(p.compiled(), need) for p in every_pattern() if (need := regex_literals.required(p.pattern, p.flags))]
    assert len(needs) > 600 and len(texts) > 25
    skipped = wrong = 0
    for compiled, need in needs:
        for text in texts:
            if regex_literals.absent(need, text):
                skipped += 1
                if compiled.search(text) is not None:
                    wrong += 1
    assert wrong == 0 and skipped > len(needs) * len(texts) // 2


def test_diagnose_says_the_same_with_the_prefilter_and_without_it(tmp_path):
    # (in two processes: each reading caches what it read of a text; the second one never skips a pattern)
    # (the sample logs, and pages' starts for reports mostly in words)
    reports = [p for p in sorted((ROOT / "tests" / "logs").rglob("*.log")) if p.stat().st_size < 4_000][::3]
    for page in sorted((ROOT / "catalog").glob("WR-*.md"))[::5]:
        reports.append(tmp_path / page.name)
        reports[-1].write_text(page.read_text(encoding="utf-8")[:3_000], encoding="utf-8")
    code = ("import io, json, pathlib, sys\n"
            "import trainwreck.regex_literals as r\n"
            "if sys.argv[1] == 'off':\n"
            "    r.absent = lambda need, text: False\n"
            "from trainwreck.diagnose import diagnose, message_finder\n"
            "from trainwreck.diagnose_report import report\n"
            "from trainwreck.logscan import scan\n"
            "from trainwreck.validate import check\n"
            "cat = check(pathlib.Path('catalog'), False)[0]\n"
            "finder = message_finder(cat)\n"
            "print(json.dumps([report(diagnose(scan(io.BytesIO(pathlib.Path(f).read_bytes()), f, finder), cat))\n"
            "                  for f in sys.argv[2:]]))\n")
    runs = [subprocess.Popen([sys.executable, "-c", code, mode, *map(str, reports)], cwd=ROOT, stdout=subprocess.PIPE,
                             text=True) for mode in ("on", "off")]
    on, off = (run.communicate()[0] for run in runs)
    assert len(reports) >= 10 and on == off
    assert on.count("WR-") >= 10          # (reports that name entries, not only empty ones)


# ---- the literals read ahead of time (trainwreck/regex_needs.py) -------------------------------------------------

def _checks(*table_paths) -> list[tuple[int, str]]:
    """`python -m trainwreck.regex_needs --check` against each table file: (its exit status, what it printed to
    stderr). In one process of its own, where only the package has made patterns; the table as the code reads it is
    computed once for all the files (it is the same for each, and computing it is most of a check's second)."""
    code = ("import contextlib, functools, io, json, pathlib, sys\nimport trainwreck.regex_needs as r\n"
            "r.computed = functools.lru_cache(maxsize=1)(r.computed)\nchecked = []\n"
            "for path in sys.argv[1:]:\n"
            "    r.TABLE, err = pathlib.Path(path), io.StringIO()\n"
            "    with contextlib.redirect_stderr(err):\n"
            "        checked.append((r.main(['--check']), err.getvalue()))\n"
            "print(json.dumps(checked))\n")
    run = subprocess.run([sys.executable, "-c", code, *map(str, table_paths)], cwd=ROOT, capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr
    return [tuple(checked) for checked in json.loads(run.stdout)]


def test_the_stored_literals_are_those_the_code_reads_now(tmp_path):
    # (a pattern added or changed since the file was written is read as before, and this fails until it is written)
    from trainwreck import regex_needs

    table = regex_needs._table()
    assert len(table) > 850 and sum(need is None for need in table.values()) < len(table) // 10
    # (and the check can fail: a table that misses a pattern, or holds other literals for one, is out of date)
    lines = regex_needs.TABLE.read_text(encoding="utf-8").splitlines()
    missing, other = tmp_path / "missing.json", tmp_path / "other.json"
    missing.write_text("\n".join(lines[:1] + lines[2:]).replace(",\n}", "\n}"), encoding="utf-8")
    grad = next(i for i, line in enumerate(lines) if line.endswith('[[], ["scaler"]],'))
    other.write_text("\n".join(lines[:grad] + [lines[grad].replace('"scaler"', '"scale"')] + lines[grad + 1:]),
                     encoding="utf-8")
    (status, said), *stale = _checks(regex_needs.TABLE, missing, other)
    assert status == 0, said
    for (status, said), expected in zip(stale, ("1 patterns added or gone, 0 read otherwise",
                                                "0 patterns added or gone, 1 read otherwise")):
        assert status == 1 and expected in said and "--write" in said, said


def test_a_package_pattern_is_skipped_from_its_first_call_and_never_compiled():
    from trainwreck import regex_needs
    from trainwreck.precision_said import GRAD_SCALER

    assert regex_needs.stored(GRAD_SCALER.pattern, GRAD_SCALER.flags) == ((), ("scaler",))
    fresh = LazyPattern(GRAD_SCALER.pattern, GRAD_SCALER.flags)     # (the module's own may have run already)
    assert fresh.search("epoch 3 loss=nan") is None and fresh.sub("X", "epoch 3") == "epoch 3"
    assert fresh._compiled is None and fresh._asked == 0
    assert fresh.search("a torch.cuda.amp.GradScaler()").group(0) == "GradScaler" and fresh._compiled is not None
    # (one with no literal to look for runs from its first call, and is never parsed for literals again)
    bare = next(p for p in every_pattern() if regex_needs.stored(p.pattern, p.flags) is False)
    assert LazyPattern(bare.pattern, bare.flags)._cannot_match("epoch 3") is False
    # (the flags are named by their number, however they were written)
    assert regex_needs.key("loss", re.I) == regex_needs.key("loss", 2) == "2:loss"
    assert regex_needs.stored(b"loss", 0) is None


def test_a_missing_or_broken_table_leaves_every_pattern_to_run(tmp_path, monkeypatch):
    # (code_review_s70 6, 8: the file is data the code trusts; where it is gone, garbled, or holds other than literals
    # for a pattern, that pattern is read as before, and a text that holds it is still found)
    from trainwreck import regex_needs

    pattern = r"(?i)\bgrad[ _-]?scaler\b"
    broken = {"gone": None, "garbled": "{not json", "a list": "[1, 2]",
              "no literal": '{"0:%s": [[], []]}' % pattern.replace("\\", "\\\\"),
              "an empty literal": '{"0:%s": [[""], []]}' % pattern.replace("\\", "\\\\"),
              "not a pair": '{"0:%s": "x"}' % pattern.replace("\\", "\\\\")}
    for name, content in broken.items():
        path = tmp_path / f"{name}.json"
        if content is not None:
            path.write_text(content, encoding="utf-8")
        monkeypatch.setattr(regex_needs, "TABLE", path)
        regex_needs._table.cache_clear()
        try:
            assert regex_needs.stored(pattern, 0) is None, name
            assert LazyPattern(pattern).search("a GradScaler here").group(0) == "GradScaler", name
        finally:
            monkeypatch.undo()
            regex_needs._table.cache_clear()
    assert regex_needs.stored(pattern, 0) == ((), ("scaler",))      # (the real one, back)


def test_a_pattern_that_parses_and_does_not_compile_raises_where_it_is_skipped():
    # (code_review_s70 5: a variable-width look-behind parses; re.compile refuses it; not in the table, its literals
    # are read at run time, after it is compiled)
    from trainwreck.lazy_regex import LONG_TEXT

    for text in ("x" * LONG_TEXT, "epoch 3"):
        lazy = LazyPattern(r"(?<=a+)loss")
        try:
            for _ in range(4):
                lazy.search(text)
        except re.error:
            pass
        else:
            raise AssertionError(f"a pattern re.compile refuses was skipped without raising ({len(text)} characters)")
