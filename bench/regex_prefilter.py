"""What the readings' literal prefilter (trainwreck/regex_literals.py) saves: `diagnose` of many reports in one process,
with it and without it, side by side.

Each mode runs in a process of its own (each reading caches what it read of a text, so a second pass in one process
would be answered from the caches), alternating, best of three: the development set's reports
(shared/cases/dev_cases.jsonl) and the sample logs under tests/logs, every one read once per pass. Without the
prefilter, every pattern runs on every text it is asked of, as before the prefilter was written. A single
`trainwreck diagnose` of a short report asks most patterns once or twice, before the prefilter reads their literals
(lazy_regex.WARM): its time is in `python bench/diagnose_speed.py` and the README's figures, not here.

    python bench/regex_prefilter.py
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from diagnose_devset import cases_path, load_cases  # noqa: E402

# The child: reads every report once, prints the seconds the diagnoses took and how many there were.
CHILD = """
import io, json, sys, time
sys.path.insert(0, {root!r})
import trainwreck.regex_literals as literals
if sys.argv[1] == "off":
    literals.absent = lambda need, text: False
from trainwreck.diagnose import diagnose, message_finder
from trainwreck.logscan import scan
from trainwreck.validate import check
from pathlib import Path
catalog = check(Path({root!r}) / "catalog", False)[0]
finder = message_finder(catalog)
texts = json.loads(sys.stdin.read())
start = time.perf_counter()
verdicts = [diagnose(scan(io.BytesIO(t.encode()), "report", finder), catalog).verdict for t in texts]
print(json.dumps([time.perf_counter() - start, len(texts), verdicts]))
"""


def reports() -> list[str]:
    path = cases_path()
    texts = [case["input"] for case in load_cases(path)] if path else []
    return texts + [p.read_text(encoding="utf-8", errors="replace") for p in sorted((ROOT / "tests" / "logs").rglob("*.log"))]


def timed(mode: str, payload: str) -> tuple[float, int, list[str]]:
    run = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT)), mode], input=payload, text=True,
                         capture_output=True, check=True)
    seconds, count, verdicts = json.loads(run.stdout)
    return seconds, count, verdicts


def main() -> None:
    payload = json.dumps(reports())
    best: dict[str, float] = {}
    verdicts: dict[str, list[str]] = {}
    count = 0
    for _ in range(3):
        for mode in ("on", "off"):
            seconds, count, verdicts[mode] = timed(mode, payload)
            best[mode] = min(best.get(mode, seconds), seconds)
    if verdicts["on"] != verdicts["off"]:
        sys.exit("regex_prefilter: the verdicts differ with the prefilter and without it")
    print(f"{count} reports (the development set and tests/logs), each diagnosed once per pass, best of 3")
    for mode, name in (("on", "with the prefilter"), ("off", "without it")):
        print(f"{name:20s} {best[mode]:6.2f} s   {best[mode] / count * 1000:6.1f} ms a report")
    print(f"with / without: {best['on'] / best['off']:.2f}x (the same verdicts)")


if __name__ == "__main__":
    main()
