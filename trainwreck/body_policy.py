"""What an entry body may put on a page: Markdown, and no HTML of its own.

An entry can come from a student's pull request, and its page is published on
the course's site. The body is judged by the parser that renders it
(Python-Markdown with the extensions of mkdocs.yml), not by a second guess at
Markdown's rules: the raw HTML it would pass through is refused, whatever the
tag, and so is any attribute or URL in the result that Markdown itself would
not write (an attribute list's `onclick=`, a `javascript:` or `data:` link, an
image from another host). Refusing, not sanitising: a sanitiser would silently
drop what the author wrote, differently on the site and in `trainwreck show`.
"""
from __future__ import annotations

import contextlib
import functools
import html
import re
import signal
import threading
import time
from html.parser import HTMLParser

from .safe_text import shown
from . import lazy_regex

# mkdocs.yml's markdown_extensions, less `toc` (it only adds ids and permalinks) and
# `pymdownx.snippets` (includes are expanded by trainwreck.includes first).
# tests/test_hostile_markup.py holds this list to mkdocs.yml.
EXTENSIONS = ["admonition", "attr_list", "md_in_html", "tables", "pymdownx.details", "pymdownx.highlight",
              "pymdownx.superfences", "pymdownx.tabbed"]
CONFIGS = {"pymdownx.highlight": {"use_pygments": False},      # colours change nothing the check looks at
           "pymdownx.tabbed": {"alternate_style": True}}
# The attributes Markdown and these extensions write; an attribute list may set classes and ids.
ATTRIBUTES = {"class", "id", "href", "title", "src", "alt", "style", "data-tabs", "checked", "name", "type",
              "for", "open", "start"}
TABLE_ALIGN = lazy_regex.compile(r"text-align: (?:left|right|center);")
LINK_SCHEMES = {"http", "https", "mailto"}
SCHEME = lazy_regex.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
# Browsers drop these anywhere in a URL before reading its scheme ("java\tscript:" is javascript:).
URL_NOISE = lazy_regex.compile(r"[\x00-\x20\x7f]")

_renderer = None
# Python-Markdown is quadratic on some inputs (4,000 unclosed "[" take 13 s, a list nested 1,000
# deep 40 s and then a RecursionError); a real body renders in milliseconds.
RENDER_SECONDS = 5.0


class _TooSlow(Exception):
    pass


class _Unrendered(Exception):
    """The body was not rendered: cut short by the deadline, or nested too deeply. A verdict of this
    one attempt (the machine may only have been busy), so it is never cached."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _can_time() -> bool:
    """A deadline needs a timer signal: POSIX, in the main thread."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def _deadline(seconds: float):
    """Raise _TooSlow in the block after `seconds`, where a timer signal can be had (the main
    thread on POSIX); elsewhere run the block without one. A timer already set is restored."""
    if not _can_time():
        yield
        return

    def expire(signum, frame):
        raise _TooSlow

    previous = signal.signal(signal.SIGALRM, expire)
    outer, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    start = time.monotonic()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer:
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - start), 0.001))


class _RawHtml:
    """Records the raw HTML Python-Markdown passes through, block and inline."""

    def __init__(self, md):
        self.found: list[str] = []
        blocks, inline = md.preprocessors["html_block"], md.inlinePatterns["html"]
        run_blocks, handle_inline = blocks.run, inline.handleMatch

        def run(lines):
            before = len(md.htmlStash.rawHtmlBlocks)
            out = run_blocks(lines)
            for raw in md.htmlStash.rawHtmlBlocks[before:]:
                self.found.append(raw if isinstance(raw, str) else f"<{raw.tag}>")
            return out

        def handle(m, data):
            self.found.append(m.group(1))
            return handle_inline(m, data)

        blocks.run, inline.handleMatch = run, handle


def _markdown():
    global _renderer
    if _renderer is None:
        import markdown   # imported here: `trainwreck list` and `show` never need it

        md = markdown.Markdown(extensions=EXTENSIONS, extension_configs=CONFIGS)
        _renderer = (md, _RawHtml(md))
    return _renderer


class _Attributes(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems: list[tuple[tuple[str, ...], str]] = []      # (texts to find in the source, reason)

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            value = value or ""
            if name not in ATTRIBUTES or (name == "style" and not TABLE_ALIGN.fullmatch(value)):
                self.problems.append(((f"{name}=",), f"the attribute {shown(name, 30, quote=False)}= is not allowed "
                                                  "(an attribute list { } may only set classes and ids)"))
            elif name == "href" and not _link_ok(value):
                self.problems.append((self._written(name, value), f"the link {shown(value, 60)} is not allowed: "
                                                                  "a link is http(s), mailto or a relative path"))
            elif name == "src" and not _local(value):
                self.problems.append((self._written(name, value), (
                    f"the image {shown(value, 60)} is not allowed: an image is a file of the site "
                    "(a relative path), so the page makes no request elsewhere")))

    def _written(self, name: str, value: str) -> tuple[str, ...]:
        """Ways the source may spell the value: as the page's HTML writes it (entities and all), and decoded."""
        m = re.search(rf'\s{name}="([^"]*)"', self.get_starttag_text() or "")
        return (m[1], value) if m else (value,)


def _scheme(url: str) -> str | None:
    m = SCHEME.match(URL_NOISE.sub("", url))
    return m[1].lower() if m else None


def _link_ok(url: str) -> bool:
    scheme = _scheme(url)
    return scheme in LINK_SCHEMES if scheme else not _cleaned(url).startswith(("//", "\\\\", "/\\", "\\/"))


def _local(url: str) -> bool:
    return _scheme(url) is None and not _cleaned(url).startswith(("//", "\\", "/\\"))


def _cleaned(url: str) -> str:
    return URL_NOISE.sub("", html.unescape(url))


def unsafe_markup(markdown_text: str, where: str = "an entry body") -> list[tuple[int | None, str]]:
    """Each problem as (line of `markdown_text`, reason), the line None when it cannot be found.
    Empty when the text renders to Markdown's own HTML. `where` names the text in the reasons."""
    judge = _unsafe_markup if _can_time() else _unsafe_markup.__wrapped__    # uncached where no deadline holds
    try:
        return list(judge(markdown_text, where, RENDER_SECONDS))
    except _Unrendered as exc:
        return [(None, exc.reason)]


# Rendering is most of a catalogue check: `mkdocs serve` re-checks every body on each rebuild, and a copy of
# a catalogue with one file changed re-checks the rest. A body rendered within its deadline gets a verdict
# that depends on these arguments alone, so that verdict is kept; a refusal for time is raised, not kept.
@functools.lru_cache(maxsize=512)
def _unsafe_markup(markdown_text: str, where: str, seconds: float) -> tuple[tuple[int | None, str], ...]:
    global _renderer
    md, raw = _markdown()
    md.reset()
    raw.found.clear()
    try:
        with _deadline(seconds):
            rendered = md.convert(markdown_text)
    except (_TooSlow, RecursionError) as exc:
        _renderer = None        # a conversion cut short may leave the parser's state half-built
        why = (f"takes more than {seconds:g} s to render" if isinstance(exc, _TooSlow)
               else "is nested too deeply to render")
        raise _Unrendered(f"the body {why} (Python-Markdown slows down on thousands of unclosed [ or on lists "
                          "nested hundreds deep); the site build would too, so simplify it") from None
    source = markdown_text
    problems: list[tuple[int | None, str]] = []
    for chunk in dict.fromkeys(raw.found):       # each distinct piece once; a closing tag goes with its opening
        first = chunk.strip().split("\n", 1)[0]
        if not first.startswith("</"):
            problems.append((_line_of(source, first), (
                f"raw HTML is not allowed in {where}: {shown(first, 60)} (write Markdown; to show a tag as "
                "text, put it in `code` or write &lt;)")))
    if not problems:     # raw HTML's own attributes would only repeat the problem
        parser = _Attributes()
        parser.feed(rendered)
        parser.close()
        problems = [(_line_of(source, *needles), reason) for needles, reason in dict.fromkeys(parser.problems)]
    return tuple(sorted(problems, key=lambda p: (p[0] is None, p[0] or 0)))


def _line_of(source: str, *needles: str) -> int | None:
    for needle in needles:
        at = source.find(needle) if needle else -1
        if at >= 0:
            return source.count("\n", 0, at) + 1
    return None
