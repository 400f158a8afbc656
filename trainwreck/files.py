"""Reading the project's own text files (entries, modules.yml, snippets) without trusting them.

A catalogue can come from a fork or a student's pull request: an "entry" may be
a folder, a symbolic link to nothing or to /dev/zero, a named pipe, a
gigabyte of text or not text at all. Each of these becomes one FileRefused
whose message says what the file is; nothing here blocks or reads without limit.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

# The largest entry today is under 20 KB and the largest snippet under 15 KB;
# a catalogue file over ten times that is a mistake, not a long entry (and
# Markdown takes seconds to render a body of a megabyte).
MAX_BYTES = 256 * 1024


class FileRefused(Exception):
    """The file cannot be read as catalogue text; the message says why, without the path."""


def read_text(path: Path, limit: int = MAX_BYTES) -> str:
    """The UTF-8 text of a regular file of at most `limit` bytes, with universal newlines."""
    try:
        info = path.stat()             # follows symbolic links: what would be read
    except FileNotFoundError:
        if path.is_symlink():
            raise FileRefused(f"a symbolic link to {os.readlink(path)}, which does not exist") from None
        raise FileRefused("does not exist") from None
    except OSError as exc:
        raise FileRefused(_reason(exc)) from None
    if not stat.S_ISREG(info.st_mode):
        raise FileRefused(f"is {_kind(info.st_mode)}, not a regular file")
    if info.st_size > limit:
        raise FileRefused(f"is {info.st_size:,} bytes, over the limit of {limit:,}")
    try:
        # O_NONBLOCK: if the file was swapped for a pipe since stat(), opening it must not wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise FileRefused(_reason(exc)) from None
    if len(data) > limit:
        raise FileRefused(f"is over the limit of {limit:,} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise FileRefused(f"is not UTF-8 text (byte {data[exc.start]:#04x} on line {line})") from None
    return text.replace("\r\n", "\n")


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _reason(exc: OSError) -> str:
    return (exc.strerror or type(exc).__name__).lower()


def from_here(path: Path) -> str:
    """The path as the user would type it from the current folder: relative when it is below it, else whole."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path.resolve())
