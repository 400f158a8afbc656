"""Which development cases each piece of wording fires on: a check against rules that key on one case.

For every thesaurus pattern (trainwreck.thesaurus.THESAURUS and timing_words.WHEN) it lists the cases whose text
the pattern matches, with their labels. For every phrase in the entries' `symptoms.phrases` it
lists the cases that hold all of the phrase's content words (after folding), and the cases whose
rank for their own cause changes when the phrase is taken out of its entry. A pattern or phrase
that fires on a single case is worth reading again: if it reads like that case's sentence it is
keyed on the case, not on the mechanism.

    python bench/diagnose_audit.py [--phrases-only | --patterns-only] [--single]
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import diagnose_devset as devset  # noqa: E402

from trainwreck import weighing as engine  # noqa: E402
from trainwreck.thesaurus import FOLDS, _COMPILED, tokens  # noqa: E402
from trainwreck.validate import check  # noqa: E402


def _labels(cases: list[dict]) -> str:
    return ", ".join(f"{label} {n}" for label, n in sorted(Counter(c["cause"] for c in cases).items())) or "none"


def patterns(cases: list[dict], single: bool) -> None:
    print("## thesaurus and timing patterns: cases matched")
    for (pattern, token), (source, _) in zip(_COMPILED, FOLDS, strict=True):
        # (a token may be a function that words its replacement: named by the function)
        token = getattr(token, "__name__", token)
        hits = [c for c in cases if pattern.search(" " + c["input"].lower() + " ")]
        if single and len(hits) > 1:
            continue
        print(f"{token.strip():14} {len(hits):3}  {_labels(hits)}   {source[:70]}")


def _ranks(catalog, cases, evidence) -> dict[str, int]:
    """Each covered case's rank of its first right entry (99: not among the candidates)."""
    engine._WEIGHERS.clear()
    out = {}
    for case, ev in zip(cases, evidence):
        ids = devset.LABELS.get(case["cause"])
        if not ids:
            continue
        ranked = devset.run(case, catalog, ev=ev)["ranked"]
        out[case["id"]] = next((i for i, e in enumerate(ranked) if e in ids), 99)
    return out


def phrases(cases: list[dict], single: bool) -> None:
    catalog = check(ROOT / "catalog")[0]
    evidence = [devset.evidence_of(c, catalog) for c in cases]
    case_words = [set(tokens(c["input"])) for c in cases]
    base = _ranks(catalog, cases, evidence)
    print("## phrases: cases holding every content word; cases whose own-cause rank moves without it")
    for entry in catalog.sorted_entries():
        for phrase in list(entry.phrases):
            words = set(tokens(phrase))
            hits = [c for c, w in zip(cases, case_words) if words and words <= w]
            entry.phrases.remove(phrase)
            moved = {k: (base[k], v) for k, v in _ranks(catalog, cases, evidence).items() if v != base[k]}
            entry.phrases.append(phrase)
            if single and len(hits) > 1:
                continue
            shown = "; ".join(f"{k} {a + 1}->{b + 1}" for k, (a, b) in sorted(moved.items()))
            print(f"{entry.id} {len(hits):2} [{_labels(hits)}] {phrase!r}  moves: {shown or '-'}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--phrases-only", action="store_true")
    parser.add_argument("--patterns-only", action="store_true")
    parser.add_argument("--single", action="store_true", help="only what fires on at most one case")
    args = parser.parse_args()
    cases = devset.load_cases(devset.cases_path())
    if not args.phrases_only:
        patterns(cases, args.single)
    if not args.patterns_only:
        phrases(cases, args.single)


if __name__ == "__main__":
    main()
