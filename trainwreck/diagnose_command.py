"""`trainwreck diagnose LOG [--json]`: read the log, weigh it, print the answer.

Input that cannot be read gets one line on standard error and exit status 1;
with --json the same message also goes to standard output as a JSON object, so
a script always gets JSON and the same exit status.
"""
from __future__ import annotations

import json
import sys

from .catalog import Catalog
from .diagnose import diagnose, message_finder, weigher
from .diagnose_report import as_json, error_json, report
from .logscan import LogError, scan, scan_path
from .safe_text import visible


def _read(log: str, catalog: Catalog):
    finder = message_finder(catalog)
    if log == "-":
        return scan(sys.stdin.buffer, "<stdin>", finder)
    # (the weigher, which the diagnosis needs and the scan does not, is built while a large log is read)
    return scan_path(log, finder=finder, meanwhile=lambda: weigher(catalog))


def run(log: str, as_json_output: bool, catalog: Catalog) -> int:
    try:
        evidence = _read(log, catalog)
    except LogError as exc:
        return _fail(log, str(exc), as_json_output)
    except IsADirectoryError:
        return _fail(log, f"{log}: is a folder, not a log file", as_json_output)
    except OSError as exc:
        return _fail(log, f"{log}: {exc.strerror or exc}", as_json_output)
    result = diagnose(evidence, catalog)
    if as_json_output:
        print(json.dumps(as_json(result), indent=2, allow_nan=False))
    else:
        sys.stdout.write(report(result))
    return 0


def _fail(log: str, message: str, as_json_output: bool) -> int:
    # control characters in a file name are shown escaped, as every trainwreck error line shows them
    print(visible(f"trainwreck: {message}"), file=sys.stderr)
    if as_json_output:
        fail_json(log, message)
    return 1


def fail_json(log: str, message: str) -> None:
    """The error as the JSON object a script that asked for JSON gets, on standard output."""
    print(json.dumps(error_json("<stdin>" if log == "-" else log, message), indent=2))
