"""The `trainwreck` command line."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import __version__
from .locate import default_catalog
from .terminal import entry_text, listing
from .validate import check


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="trainwreck", description="A field guide to neural-network training failures.")
    parser.add_argument("--version", action="version", version=f"trainwreck {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("check", help="validate a catalogue folder")
    p.add_argument("catalog", nargs="?", type=Path, help="catalogue folder (default: ./catalog)")
    p = sub.add_parser("list", help="list the entries")
    p.add_argument("--catalog", type=Path)
    p = sub.add_parser("show", help="show one entry, as `rustc --explain` does")
    p.add_argument("id", help="an entry ID such as WR-220")
    p.add_argument("--catalog", type=Path)
    return parser


def _load_valid(folder: Path | None):
    catalog, problems = check(folder or default_catalog())
    for problem in problems:
        print(problem, file=sys.stderr)
    return None if problems else catalog


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "check":
        catalog, problems = check(args.catalog or Path("catalog"))
        for problem in problems:
            print(problem, file=sys.stderr)
        if problems:
            print(f"{len(problems)} problem(s) in {catalog.folder}", file=sys.stderr)
            return 1
        print(f"{catalog.folder}: {len(catalog.entries)} entries, {len(catalog.planned)} planned: OK")
        return 0
    catalog = _load_valid(args.catalog)
    if catalog is None:
        return 1
    if args.command == "list":
        print(listing(catalog))
        return 0
    wanted = args.id.strip().upper()
    if wanted.isdigit():
        wanted = f"WR-{int(wanted):03d}"
    if wanted not in catalog.entries:
        planned = f" (planned, not written yet: {catalog.planned[wanted]})" if wanted in catalog.planned else ""
        print(f"trainwreck: unknown entry {args.id}{planned}; known: {', '.join(sorted(catalog.entries))}",
              file=sys.stderr)
        return 1
    print(entry_text(catalog.entries[wanted], catalog))
    return 0


def run() -> None:
    try:
        code = main()
    except KeyboardInterrupt:
        code = 130
    except BrokenPipeError:  # `trainwreck show WR-220 | head`
        code = 0
    sys.exit(code)
