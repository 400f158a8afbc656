"""The `trainwreck` command line."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import __version__
from .catalog import load
from .diagnose import as_json, diagnose, report
from .logscan import LogError, scan, scan_path
from .export import catalog_json
from .locate import default_catalog
from .scaffold import ScaffoldError, new_entry
from .snippet_run import SnippetRunError, run_snippet
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
    p.add_argument("--no-run", action="store_true", help="do not run the snippet to show its output")
    p = sub.add_parser("export", help="write the catalogue as JSON on standard output")
    p.add_argument("--catalog", type=Path)
    p.add_argument("--base-url", default="", help="make page URLs absolute, e.g. https://example.org/trainwreck")
    p = sub.add_parser("diagnose", help="read a training log and name the entries that explain it")
    p.add_argument("log", nargs="?", default="-", help="a log file, or - for standard input (the default)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--catalog", type=Path)
    p = sub.add_parser("new", help="scaffold an entry, its snippet and its test")
    p.add_argument("id", help="the new ID, e.g. WR-310")
    p.add_argument("slug", help="snippet name after wrNNN_, e.g. bad_batch")
    p.add_argument("--title", required=True)
    p.add_argument("--module", help="a module id from modules.yml (default: the first one)")
    p.add_argument("--catalog", type=Path, default=Path("catalog"))
    return parser


def _checked(folder: Path):
    """The catalogue and its problems, each problem printed as its one line."""
    catalog, problems = check(folder)
    for problem in problems:
        print(problem, file=sys.stderr)
    return catalog, problems


def _load_valid(folder: Path | None):
    catalog, problems = _checked(folder or default_catalog())
    return None if problems else catalog


def _diagnose(args, catalog) -> int:
    try:
        if args.log == "-":
            evidence = scan(sys.stdin.buffer, "<stdin>")
        else:
            evidence = scan_path(args.log)
    except LogError as exc:
        print(f"trainwreck: {exc}", file=sys.stderr)
        return 1
    except IsADirectoryError:
        print(f"trainwreck: {args.log}: is a folder, not a log file", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"trainwreck: {args.log}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    result = diagnose(evidence, catalog)
    if args.json:
        print(json.dumps(as_json(result), indent=2, allow_nan=False))
    else:
        sys.stdout.write(report(result))
    return 0


def _new(args) -> int:
    if not args.catalog.is_dir():
        print(f"trainwreck: {args.catalog}: no such catalogue folder", file=sys.stderr)
        return 1
    catalog = load(args.catalog)
    module = args.module or next(iter(catalog.modules), "")
    if module not in catalog.modules:
        print(f"trainwreck: unknown module {module!r}; known: {', '.join(catalog.modules)}", file=sys.stderr)
        return 1
    if args.id.upper() in catalog.entries:
        print(f"trainwreck: {args.id.upper()} exists already", file=sys.stderr)
        return 1
    try:
        written = new_entry(args.catalog, args.id, args.slug, args.title, module)
    except ScaffoldError as exc:
        print(f"trainwreck: {exc}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path}")
    print("They fail on purpose until filled in: run `trainwreck check` and the new test.")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "check":
        catalog, problems = _checked(args.catalog or Path("catalog"))
        if problems:
            print(f"{len(problems)} problem(s) in {catalog.folder}", file=sys.stderr)
            return 1
        print(f"{catalog.folder}: {len(catalog.entries)} entries, {len(catalog.planned)} planned: OK")
        return 0
    if args.command == "new":
        return _new(args)
    catalog = _load_valid(args.catalog)
    if catalog is None:
        return 1
    if args.command == "diagnose":
        return _diagnose(args, catalog)
    if args.command == "export":
        sys.stdout.write(catalog_json(catalog, args.base_url))
        return 0
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
    entry = catalog.entries[wanted]
    run = None
    if not args.no_run:
        try:
            run = run_snippet(catalog.root, entry.snippet)
        except SnippetRunError as exc:
            print(f"trainwreck: {exc}", file=sys.stderr)
            return 1
    print(entry_text(entry, catalog, run))
    return 0


def run() -> None:
    try:
        code = main()
    except KeyboardInterrupt:
        code = 130
    except BrokenPipeError:  # `trainwreck show WR-220 | head`
        code = 0
    sys.exit(code)
