"""The `trainwreck` command line."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import __version__, lazy_regex
from .catalog import load
from .files import from_here
from .includes import IncludeRefused
from .locate import default_catalog
from .pages import EDITIONS
from .safe_text import printable, shown, visible
from .terminal import entry_text, listing, one_section, section_named
from .validate import check

EDITION_VARIABLE = "TRAINWRECK_EDITION"


CATALOG_HELP = "catalogue folder (default: ./catalog where there is one, else the copy installed with trainwreck)"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="trainwreck", description="A field guide to neural-network training failures.")
    parser.add_argument("--version", action="version", version=f"trainwreck {__version__}")
    sub = parser.add_subparsers(dest="command")
    p = sub.add_parser("check", help="validate a catalogue folder")
    p.add_argument("catalog", nargs="?", type=Path, help="catalogue folder (default: ./catalog)")
    p = sub.add_parser("list", help="list the entries")
    p.add_argument("--catalog", type=Path, help=CATALOG_HELP)
    p = sub.add_parser("show", help="show one entry, as `rustc --explain` does")
    p.add_argument("id", help="an entry ID such as WR-220")
    p.add_argument("--catalog", type=Path, help=CATALOG_HELP)
    p.add_argument("--no-run", action="store_true", help="do not run the snippet to show its output")
    p.add_argument("--answers", action="store_true",
                   help=f"include the strong answer and the bonus point (never with {EDITION_VARIABLE}=student)")
    p.add_argument("--section", metavar="NAME",
                   help="show only the entry's header and one section, named by a word of its heading: symptom, "
                        "where, why, confirm, fix, prevent, pytorch (or keras, jax: the frameworks' section), "
                        "interview")
    p = sub.add_parser("export", help="write the catalogue as JSON on standard output")
    p.add_argument("--catalog", type=Path, help=CATALOG_HELP)
    p.add_argument("--base-url", default="", help="make page URLs absolute, e.g. https://example.org/trainwreck")
    p = sub.add_parser("diagnose", help="read a training log and name the entries that explain it")
    p.add_argument("log", nargs="?", default="-", help="a log file, or - for standard input (the default)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--catalog", type=Path, help=CATALOG_HELP)
    p = sub.add_parser("new", help="scaffold an entry, its snippet and its test")
    p.add_argument("id", help="the new ID, e.g. WR-310")
    p.add_argument("slug", help="snippet name after wrNNN_, e.g. bad_batch")
    p.add_argument("--title", required=True)
    p.add_argument("--module", help="a module id from modules.yml (default: the first one)")
    p.add_argument("--catalog", type=Path, default=Path("catalog"))
    return parser


def _say(text: str, file=None) -> None:
    """Print text that holds catalogue or user input: no escape sequence reaches the terminal."""
    print(printable(text), file=file or sys.stdout)


def _error(text: str) -> int:
    """One line on standard error; a control character in it (a file name's, a value's) is shown escaped."""
    print(visible(f"trainwreck: {text}"), file=sys.stderr)
    return 1


def _checked(folder: Path, markup: bool = True):
    """The catalogue and its problems, each problem printed as its one line."""
    catalog, problems = check(folder, markup)
    for problem in problems:
        print(visible(str(problem)), file=sys.stderr)
    return catalog, problems


def _load_valid(folder: Path | None):
    """The catalogue, or None and the number of its problems (each printed on standard error)."""
    # what only the site's HTML needs (bodies rendered by Markdown) is left to `check` and the build
    catalog, problems = _checked(folder or default_catalog(), markup=False)
    return (None, len(problems)) if problems else (catalog, 0)


def _diagnose(args, catalog) -> int:
    # imported here: the log scanner and its patterns cost a quarter of a second that
    # `check`, `list` and `show` do not need
    from . import diagnose_command

    if args.log == "-" and sys.stdin is not None and sys.stdin.isatty():
        # a bare `trainwreck diagnose` in a terminal would otherwise wait in silence
        print("trainwreck: reading the log from standard input: paste it, then press Enter and Ctrl-D "
              "(Ctrl-Z then Enter on Windows)", file=sys.stderr)

    return diagnose_command.run(args.log, args.json, catalog)


def _new(args) -> int:
    from .scaffold import ScaffoldError, new_entry

    if not args.catalog.is_dir():
        return _error(f"{args.catalog}: no such catalogue folder")
    catalog = load(args.catalog)
    if any(p.field == "catalogue" for p in catalog.problems):
        return _error(str(catalog.problems[0]))
    module = args.module or next(iter(catalog.modules), "")
    if module not in catalog.modules:
        return _error(f"unknown module {shown(module, 30)}; known: {', '.join(catalog.modules)}")
    if args.id.upper() in catalog.entries:
        return _error(f"{args.id.upper()} exists already")
    try:
        written = new_entry(args.catalog, args.id, args.slug, args.title, module)
    except ScaffoldError as exc:
        return _error(str(exc))
    for path in written:
        _say(f"wrote {from_here(path)}")
    print("They fail on purpose until filled in: run `trainwreck check` and the new test.")
    return 0


# WR-220 as people type it: wr-220, WR220, wr 220, 220
TYPED_ID = lazy_regex.compile(r"(?ai)(?:WR[-_ ]?)?0*([0-9]{1,3})")


def _show(args, catalog) -> int:
    wanted = args.id.strip().upper()
    if m := TYPED_ID.fullmatch(wanted):
        wanted = f"WR-{int(m[1]):03d}"
    if wanted not in catalog.entries:
        planned = f" (planned, not written yet: {catalog.planned[wanted]})" if wanted in catalog.planned else ""
        return _error(f"unknown entry {shown(args.id, 30, quote=False)}{planned}; "
                      f"known: {', '.join(sorted(catalog.entries))}")
    edition = os.environ.get(EDITION_VARIABLE, "full").strip() or "full"
    if edition not in EDITIONS:
        return _error(f"{EDITION_VARIABLE}: {shown(edition, 30)} is not one of {', '.join(EDITIONS)}")
    answers = args.answers and edition != "student"
    if args.answers and not answers:
        _say(f"trainwreck: {EDITION_VARIABLE}=student: the strong answer and the bonus point are left out",
             sys.stderr)
    entry = catalog.entries[wanted]
    heading = None
    if args.section is not None:
        heading, problem = section_named(args.section)
        if problem:
            return _error(problem)
    run = None
    if not args.no_run and heading in (None, "Confirm it"):    # (the snippet's output closes Confirm it, before Fix)
        from .snippet_run import SnippetRunError, run_snippet

        try:
            run = run_snippet(catalog.root, entry.snippet)
        except SnippetRunError as exc:
            return _error(str(exc))
    try:
        text = entry_text(entry, catalog, run, answers=answers, hint=edition != "student")
    except IncludeRefused as exc:
        return _error(f"{entry.path}: {exc}")
    _say(one_section(text, heading) if heading else text)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        # A bare command name asks what the tool does (as git, pip and cargo answer): help, success.
        parser.print_help()
        return 0
    if args.command == "check":
        catalog, problems = _checked(args.catalog or Path("catalog"))
        if problems:
            _say(f"{len(problems)} problem(s) in {catalog.folder}", sys.stderr)
            return 1
        _say(f"{catalog.folder}: {len(catalog.entries)} entries, {len(catalog.planned)} planned: OK")
        return 0
    if args.command == "new":
        return _new(args)
    if args.command == "export":
        from .export import BaseUrlError, catalog_json, normalise_base_url

        try:
            base_url = normalise_base_url(args.base_url)
        except BaseUrlError as exc:
            return _error(f"--base-url {shown(args.base_url, 60)} {exc}")
    catalog, problems = _load_valid(args.catalog)
    if catalog is None:
        if args.command == "diagnose" and args.json:       # (a script asked for JSON: it gets JSON, as for a bad log)
            from .diagnose_command import fail_json

            fail_json(args.log, f"{args.catalog or default_catalog()}: {problems} problem(s) in the catalogue "
                                "(listed on standard error)")
        return 1
    if args.command == "diagnose":
        return _diagnose(args, catalog)
    if args.command == "export":
        sys.stdout.write(catalog_json(catalog, base_url))
        return 0
    if args.command == "list":
        _say(listing(catalog))
        return 0
    return _show(args, catalog)


def run() -> None:
    try:
        code = main()
    except KeyboardInterrupt:
        code = 130
    except BrokenPipeError:  # `trainwreck show WR-220 | head`
        code = 0
    sys.exit(code)
