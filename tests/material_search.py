"""Material's own search worker, run under Node.js on a built site's search index: the order the
search box lists pages in, with their scores, without a browser. tests/test_browser.py checks that
the search box shows the same order.

    python tests/material_search.py SITE_DIR "query" ...    # each query's pages, best first
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

RUNNER = Path(__file__).resolve().parent / "material_search.js"


def node() -> str | None:
    """The machine's Node.js, else the one Playwright (a test dependency) ships with its driver."""
    found = shutil.which("node")
    if found:
        return found
    try:
        from playwright._impl._driver import compute_driver_executable
    except ImportError:
        return None
    path = Path(compute_driver_executable()[0])
    return str(path) if path.is_file() else None


def worker(site: Path | None = None) -> Path:
    """The search worker a built site serves (mended by the build: site_search.mend_search_worker); with no site, the
    one installed with mkdocs-material, as it ships."""
    from trainwreck.site_search import shipped_search_worker

    templates, shipped = shipped_search_worker()
    return shipped if site is None else site / shipped.relative_to(templates)


@dataclass(frozen=True)
class Result:
    words: tuple[str, ...]        # the query's words as Material's parser keeps them, lowercased, sorted
    groups: list[dict]            # one per page, in the order listed: {page, docs: [{location, score, terms}]}

    @property
    def pages(self) -> list[str]:
        return [group["page"] for group in self.groups]

    def missing_on_top_card(self) -> list[str]:
        """The words the first card shows struck out: those its best sections did not match."""
        if not self.groups:
            return []
        docs = self.groups[0]["docs"]
        best = docs[0]["score"]
        return sorted({word for doc in docs if doc["score"] >= best
                       for word, matched in doc["terms"].items() if not matched})

    def describe(self, count: int = 8) -> str:
        lines = []
        for group in self.groups[:count]:
            doc = group["docs"][0]
            missing = [word for word, matched in doc["terms"].items() if not matched]
            lines.append(f"  {group['page']:<20} {doc['score']:>12.1f}  {doc['location']}"
                         + (f"  (missing: {' '.join(missing)})" if missing else ""))
        return "\n".join(lines)


def search(site: Path, queries: list[str], worker_js: Path | None = None) -> list[Result]:
    """Each query's result, as the search box of the site built in `site` computes it (or another worker)."""
    runner = node()
    if runner is None:
        raise FileNotFoundError("no Node.js: install it, or playwright (pip install '.[test]')")
    run = subprocess.run([runner, str(RUNNER), str(worker_js or worker(site)), str(site / "search" / "search_index.json")],
                         input=json.dumps(queries), capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        raise RuntimeError(f"Material's search worker failed under {runner}:\n{run.stderr}")
    return [Result(tuple(sorted(word.lower() for word in item["words"])), item["groups"])
            for item in json.loads(run.stdout)]


if __name__ == "__main__":
    site_dir, *asked = sys.argv[1:]
    for query, result in zip(asked, search(Path(site_dir), asked)):
        print(f"{query}\n  words: {' '.join(result.words)}\n{result.describe()}")
