"""How the weights of `trainwreck diagnose` were chosen, and what they are worth on reports
they were not chosen on.

The weights in trainwreck.weighing.Weights are tuned on the development set
(shared/cases/dev_cases.jsonl): every combination of the values in GRID is run on
every case, and the combination kept is the one that names the most causes right
(first candidate right plus right among three, on the covered causes), among those
that keep the hard rules:

- every HEALTHY case is left alone and fewer than one in five OTHER cases is named;
- the closed loop holds: the output of each entry's Reproduce tab names that entry,
  and each Fix tab's output is healthy (as tests/test_tab_programs.py requires);
- the plain-words reports the issue names (SPEC, checked in tests/test_diagnose_reading.py)
  point where the issue says they must.

Ties go to the combination nearest the middle of the grid (the least extreme
weights), then to the grid's order.

A score measured on the cases the weights were tuned on flatters them. The
held-out estimate is k-fold cross-validation over the cases: the cases of each
label, in the order of their IDs, are dealt to the folds in turn (so the folds
are fixed and each holds every label in proportion); for each fold the weights
are tuned on the other folds and scored on this one, so each case is scored
once, by weights that never saw it. Both 2-fold and 5-fold are reported.

Only the constants in Weights are tuned here; every other constant of the
engine is fixed by the argument written beside it and was not searched.

    python bench/diagnose_tuning.py            # the table, and the weights it would ship
    python bench/diagnose_tuning.py --write    # ... and bring docs/diagnose.md up to date

The table carries a fingerprint of what its figures depend on (the cases, the engine's source, the
parts of each entry the engine reads, this bench); a test recomputes it, so the table cannot go
stale unnoticed without running the whole search in the test suite.
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import io
import itertools
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import diagnose_devset as devset  # noqa: E402

from trainwreck.diagnose import WEIGHTS, Weights, diagnose, message_finder, weigher  # noqa: E402
from trainwreck.logscan import scan  # noqa: E402
from trainwreck import numeric_env  # noqa: E402
from trainwreck.snippet_sections import tab_file, tab_program  # noqa: E402
from trainwreck.validate import check  # noqa: E402

# The values tried for each tuned weight (the shipped value must be one of them). Two or three
# values each, around the values argued for in trainwreck/weighing.py: a finer grid fits the 57
# covered cases more closely without saying more about reports it has not seen, and the bench
# must stay under a minute on one core.
GRID = {
    "words": (1.5, 3.0),
    "when": (0.5, 0.75),
    "prior": (0.75, 1.0, 1.5),
    "prose": (0.0, 1.0),
    "bm_full": (6.0, 10.0),
    "fade": (0.0, 0.5, 1.0),
}
# Reports in plain words whose first candidates the issue specifies: (text, entry that must come
# first, or None when every candidate must be one that can break from the first value).
SPEC = (
    ("exp overflows to inf", "WR-020"),
    ("logit 378.09, exp() gives inf and then the inf turns into a nan in the softmax", "WR-020"),
    ("logit 378.09, exp() inf … this infinity bubbles through to a nan", "WR-020"),     # the issue's own words
    ("My loss is nan from the very first batch, before anything is learned.", None),
)
FOLDS = (2, 5)
START, END = "<!-- devset-cv:start -->", "<!-- devset-cv:end -->"


def combinations() -> list[Weights]:
    names = list(GRID)
    return [dataclasses.replace(WEIGHTS, **dict(zip(names, values)))
            for values in itertools.product(*(GRID[n] for n in names))]


def extremity(w: Weights) -> float:
    """How far a combination sits from the middle of the grid (0: every weight at its middle value)."""
    out = 0.0
    for name, values in GRID.items():
        i = values.index(getattr(w, name))
        out += abs(i - (len(values) - 1) / 2) / max(len(values) - 1, 1)
    return out


def tab_outputs(catalog) -> list[tuple[str, str, str]]:
    """(entry ID, region, what the tab's program prints) for each entry's Reproduce and Fix tabs,
    each run as a reader runs it: saved alone in an empty folder, stdout and stderr together."""
    out = []
    for entry in catalog.sorted_entries():
        text = (ROOT / entry.snippet).read_text(encoding="utf-8")
        for region in ("reproduce", "fix"):
            with tempfile.TemporaryDirectory() as folder:
                name = tab_file(entry.snippet, region)
                Path(folder, name).write_text(tab_program(text, region), encoding="utf-8")
                run = subprocess.run([sys.executable, name], cwd=folder, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, timeout=120,
                                     env={**numeric_env.environ(), "PYTHONUNBUFFERED": "1"})
            out.append((entry.id, region, run.stdout))
    return out


class Bench:
    """The cases and the tab outputs, scanned once; each combination of weights is then only weighed."""

    def __init__(self, catalog=None, cases_path: Path | None = None):
        self.catalog = catalog or check(ROOT / "catalog")[0]
        finder = message_finder(self.catalog)
        cases_path = cases_path or devset.cases_path()
        self.cases = devset.load_cases(cases_path)
        self.fingerprint = fingerprint(self.catalog, cases_path)
        self.evidence = [devset.evidence_of(c, self.catalog) for c in self.cases]
        self.tabs = [(i, region, scan(io.BytesIO(out.encode()), f"{region}.py", finder))
                     for i, region, out in tab_outputs(self.catalog)]
        self.spec = [(scan(io.BytesIO(text.encode()), "report", finder), first) for text, first in SPEC]
        self._rows: dict[Weights, list[dict]] = {}
        self._loop: dict[Weights, bool] = {}

    def rows(self, w: Weights) -> list[dict]:
        if w not in self._rows:
            self._rows[w] = [devset.run(c, self.catalog, w, ev) for c, ev in zip(self.cases, self.evidence)]
        return self._rows[w]

    def loop_holds(self, w: Weights) -> bool:
        """The closed loop and the issue's plain-words reports (SPEC), under these weights."""
        if w not in self._loop:
            timing = weigher(self.catalog, w.prose).timing
            ok = True
            for ev, first in self.spec:
                d = diagnose(ev, self.catalog, w)
                ok = ok and bool(d.matches) and (d.matches[0].entry.id == first if first else
                                                 all("start" in timing[m.entry.id] for m in d.matches))
            for entry_id, region, ev in self.tabs if ok else ():
                d = diagnose(ev, self.catalog, w)
                if region == "reproduce":
                    ok = d.verdict == "failure" and d.matches[0].entry.id == entry_id
                else:
                    ok = not d.matches and d.verdict in ("healthy", "no-evidence")
                if not ok:
                    break
            self._loop[w] = ok
        return self._loop[w]

    def score(self, w: Weights, ids: set[str]) -> dict:
        return devset.score([r for r in self.rows(w) if r["id"] in ids], self.catalog)

    def tune(self, ids: set[str]) -> Weights:
        """The combination that names the most right on these cases and keeps the hard rules."""
        best, best_key = None, None
        for w in combinations():
            s = self.score(w, ids)
            if s["healthy_named"] or (s["other"] and s["other_named"] >= devset.TARGETS["other_named"] * s["other"]):
                continue
            key = (s["top1"] + s["top3"], s["top1"], -extremity(w))
            if best_key is None or key > best_key:
                if not self.loop_holds(w):
                    continue
                best, best_key = w, key
        if best is None:
            raise SystemExit("no combination of the grid keeps the hard rules")
        return best


def folds(cases: list[dict], k: int) -> list[set[str]]:
    """The cases of each label, in ID order, dealt to the k folds in turn; the dealing carries on
    from one label to the next, so the folds differ in size by one at most."""
    out: list[set[str]] = [set() for _ in range(k)]
    n = 0
    for label in sorted({c["cause"] for c in cases}):
        for case in sorted((c for c in cases if c["cause"] == label), key=lambda c: c["id"]):
            out[n % k].add(case["id"])
            n += 1
    return out


def cross_validate(bench: Bench, k: int) -> dict:
    """Each fold scored by the weights tuned on the other folds; the counts summed over the folds."""
    total = {"top1": 0, "top3": 0, "covered": 0, "healthy_named": 0, "healthy": 0, "other_named": 0, "other": 0}
    chosen = []
    every = {c["id"] for c in bench.cases}
    for held in folds(bench.cases, k):
        w = bench.tune(every - held)
        chosen.append(w)
        s = bench.score(w, held)
        for key in total:
            total[key] += s[key]
    return {**total, "chosen": chosen}


BENCHES = ("bench/diagnose_devset.py", "bench/diagnose_tuning.py")


def engine_files() -> list[str]:
    """The engine's source: every module of the package that trainwreck/diagnose.py imports, directly or through
    another, found by reading their `from .x import` lines -- so a module added to the engine cannot be left out of the
    fingerprint -- and the log scanner's whole package, with what its modules import."""
    import ast

    package = ROOT / "trainwreck"
    seen, todo = set(), [package / "diagnose.py", package / "__init__.py", *(package / "logscan").rglob("*.py")]
    while todo:
        path = todo.pop()
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = path.parent
                for _ in range(node.level - 1):
                    base = base.parent
                names = [node.module] if node.module else [alias.name for alias in node.names]
                for name in names:
                    target = base.joinpath(*name.split("."))
                    todo += [target.with_suffix(".py"), target / "__init__.py"]
    return sorted(str(p.relative_to(ROOT)) for p in seen) + list(BENCHES)


def fingerprint(catalog, cases_path: Path) -> str:
    """A hash of everything the table's figures depend on: the cases, the engine's source (the log
    scanner included), and the parts of each entry the engine reads. The snippets' outputs only
    decide whether a combination keeps the closed loop, which tests/test_tab_programs.py checks."""
    h = hashlib.sha256(cases_path.read_bytes())
    for path in engine_files():
        h.update(path.encode() + (ROOT / path).read_bytes())
    for e in catalog.sorted_entries():
        read = [e.id, e.title, e.summary, e.status, e.trace, *e.phrases, *(m.text for m in e.messages),
                *(e.sections.get(name, "") for name in ("Symptom", "Where it shows up"))]
        h.update("\x00".join(read).encode())
    return h.hexdigest()[:16]


def markdown(bench: Bench, tuned: Weights, cvs: dict[int, dict]) -> str:
    whole = bench.score(tuned, {c["id"] for c in bench.cases})
    names = list(GRID)
    lines = [START, "",
             "| measure | tuned on all cases | " + " | ".join(f"held out, {k}-fold" for k in cvs) + " |",
             "|---|---|" + "---|" * len(cvs),
             "| first candidate right | " + devset._pct(whole["top1"], whole["covered"]) + " | "
             + " | ".join(devset._pct(cv["top1"], cv["covered"]) for cv in cvs.values()) + " |",
             "| right among the first three | " + devset._pct(whole["top3"], whole["covered"]) + " | "
             + " | ".join(devset._pct(cv["top3"], cv["covered"]) for cv in cvs.values()) + " |",
             "| HEALTHY named as a failure | " + devset._pct(whole["healthy_named"], whole["healthy"]) + " | "
             + " | ".join(devset._pct(cv["healthy_named"], cv["healthy"]) for cv in cvs.values()) + " |",
             "| OTHER named as an entry | " + devset._pct(whole["other_named"], whole["other"]) + " | "
             + " | ".join(devset._pct(cv["other_named"], cv["other"]) for cv in cvs.values()) + " |",
             "",
             "Weights tried: " + "; ".join(f"`{n}` {', '.join(f'{v:g}' for v in GRID[n])}" for n in names)
             + f" ({len(combinations())} combinations). Chosen on all cases, and shipped: "
             + ", ".join(f"`{n}` {getattr(tuned, n):g}" for n in names) + ".",
             ""]
    for k, cv in cvs.items():
        picks = sorted({", ".join(f"{getattr(w, n):g}" for n in names) for w in cv["chosen"]})
        lines.append(f"The {k} folds chose ({', '.join(names)}): " + "; ".join(f"({p})" for p in picks) + ".")
    lines += ["", f"Generated by `python bench/diagnose_tuning.py --write` (inputs {bench.fingerprint}); a test fails "
              "when they change and the table is not regenerated.", "", END]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=Path)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    bench = Bench(cases_path=args.cases)
    tuned = bench.tune({c["id"] for c in bench.cases})
    cvs = {k: cross_validate(bench, k) for k in FOLDS}
    text = markdown(bench, tuned, cvs)
    print(text)
    if tuned != WEIGHTS:
        print(f"\nthe shipped weights differ from the tuned ones: {WEIGHTS} -> {tuned}")
        if args.write:
            raise SystemExit("set trainwreck.weighing.Weights to the tuned values first: the page describes what ships")
    if args.write:
        page = devset.PAGE.read_text(encoding="utf-8")
        head, rest = page.split(START, 1)
        devset.PAGE.write_text(head + text + rest.split(END, 1)[1], encoding="utf-8")


if __name__ == "__main__":
    main()
