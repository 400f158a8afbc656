"""Catalogue fields placed in generated Markdown, so that they are read as text and only as text.

A title, summary, module title or message goes into headings, table cells,
link text, link titles and code spans. Each helper makes its field mean
exactly its characters in that place: no HTML (`<`, `&`, `"` become
entities), no Markdown (`*`, `[`, `|`, `{` ... are backslash-escaped), no way
to close the code span or the link around it.
"""
from __future__ import annotations

import html
import re
from urllib.parse import quote

import yaml
from . import lazy_regex

# The characters Python-Markdown (with the tables extension) lets a backslash escape; `>`
# is left to the HTML escape below, as `\&gt;` would show its backslash.
MARKDOWN_SPECIAL = lazy_regex.compile(r"([\\`*_{}\[\]()#+\-.!|])")
HTML_SPECIAL = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}
_HTML = lazy_regex.compile("[&<>\"]")
# What a URL may hold as it is written in a Markdown link: anything else is percent-encoded.
URL_SAFE = "-._~:/?#@!$&'*+,;=%"


def md_text(text: str) -> str:
    """Inline text (heading, table cell, emphasis, link text, link title) that renders as exactly `text`."""
    return _HTML.sub(lambda m: HTML_SPECIAL[m[0]], MARKDOWN_SPECIAL.sub(r"\\\1", text))


def md_code(text: str) -> str:
    """An inline code span holding exactly `text`, whatever backticks it contains."""
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_url(url: str) -> str:
    """A link destination that cannot end the link early or add a title: brackets, quotes, spaces,
    backslashes and non-ASCII characters are percent-encoded."""
    return quote(url, safe=URL_SAFE)


def page_title(text: str) -> str:
    """The `title:` line of a generated page's front matter. MkDocs takes the page title from the
    first heading with its entities decoded, and Material's `striptags` puts it into <title> as
    raw HTML, where `</title>` would end the element; a title given here is placed as written,
    so it is written HTML-escaped (and YAML-quoted by the YAML library)."""
    return yaml.safe_dump({"title": html.escape(text)}, allow_unicode=True, width=float("inf")).rstrip("\n")
