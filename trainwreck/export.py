"""The catalogue as JSON, for learning-management systems and other tools."""
from __future__ import annotations

import json
import posixpath
import re
from urllib.parse import quote, urlsplit, urlunsplit

from .catalog import Catalog
from .pages import entry_path, handout_path, module_path, page_url
from . import lazy_regex

SCHEMA_VERSION = 2
# A path as an LMS would take it: no scheme, no query or fragment, nothing invisible.
_PATH_CHARACTERS = lazy_regex.compile(r"[A-Za-z0-9._~!$&'()*+,;=:@%/-]*")


class BaseUrlError(ValueError):
    pass


def normalise_base_url(text: str) -> str:
    """An http(s) URL or a path that page URLs can be appended to, without a trailing slash.
    Refused: any other scheme (javascript:, data:, file:), a host without a scheme, a query or a
    fragment (the page path would land inside them), spaces and control characters."""
    if text == "":
        return ""
    example = "an http(s) URL such as https://example.org/trainwreck, or a path such as /trainwreck"
    if any(c.isspace() or not c.isprintable() for c in text):
        raise BaseUrlError(f"must not contain spaces or control characters: give {example}")
    try:
        parts = urlsplit(text)
    except ValueError as exc:
        raise BaseUrlError(f"is not a URL ({exc}): give {example}") from None
    if parts.query or parts.fragment or "?" in text or "#" in text:
        raise BaseUrlError(f"must not have a query (?) or a fragment (#): page paths are appended to it; give {example}")
    if parts.scheme:
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            raise BaseUrlError(f"must be http or https with a host, not {parts.scheme}:; give {example}")
        try:
            port = f":{parts.port}" if parts.port is not None else ""
        except ValueError:
            raise BaseUrlError(f"has a port that is not a number: give {example}") from None
        if parts.username is not None or parts.password is not None:
            raise BaseUrlError(f"must not hold a user name or password: give {example}")
        host = parts.hostname.encode("idna").decode("ascii") if not parts.hostname.isascii() else parts.hostname
        path = _clean_path(parts.path, example)
        return urlunsplit((parts.scheme.lower(), host.lower() + port, path, "", ""))
    if text.startswith("//") or parts.netloc:
        raise BaseUrlError(f"names a host without a scheme: write https://{text.lstrip('/')}, or give {example}")
    first = text.split("/", 1)[0]
    if ":" in first:
        raise BaseUrlError(f"is neither a URL nor a path: give {example}")
    if "." in first.strip(".") and not first.startswith("."):
        raise BaseUrlError(f"looks like a host name without a scheme: write https://{text} "
                           f"(or ./{text} for a relative path)")
    return _clean_path(text, example)


def _clean_path(path: str, example: str) -> str:
    path = quote(path, safe="/%!$&'()*+,;=:@~")        # spaces are refused above; this encodes non-ASCII
    if not _PATH_CHARACTERS.fullmatch(path):
        raise BaseUrlError(f"has characters a URL path cannot hold: give {example}")
    if not path:
        return ""
    normal = posixpath.normpath(path)      # a/./b//c/../d -> a/b/d; keeps a leading ../
    if normal in ("/", "//"):
        return "/"
    return "" if normal == "." else normal.rstrip("/")


def catalog_data(catalog: Catalog, base_url: str = "", directory_urls: bool = True) -> dict:
    """Everything but the prose. URLs are relative to the site root unless base_url is given."""
    base = normalise_base_url(base_url)
    base = base if base.endswith("/") or not base else base + "/"

    def url(path: str) -> str:
        return base + page_url(path, directory_urls)

    return {
        "schema": SCHEMA_VERSION,
        "modules": [{"id": mid, "title": title, "url": url(module_path(mid))}
                    for mid, title in catalog.modules.items()],
        "entries": [
            {
                "id": e.id,
                "title": e.title,
                "summary": e.summary,
                "status": e.status,
                "modules": e.modules,
                "related": [{"id": rid, "nature": nature} for rid, nature in catalog.related(e)],
                "messages": [{"text": m.text, "example": m.example, "from": m.origin, "source": m.source, "opt_in": m.opt_in,
                              "also": list(m.also)}
                             for m in e.messages],
                "phrases": e.phrases,
                "trace": e.trace,
                "also_trace": e.also_trace or None,
                "snippet": e.snippet,
                "url": url(entry_path(e.id)),
                "handout_url": url(handout_path(e.id)),
            }
            for e in catalog.sorted_entries()
        ],
    }


def catalog_json(catalog: Catalog, base_url: str = "", directory_urls: bool = True) -> str:
    return json.dumps(catalog_data(catalog, base_url, directory_urls), indent=2, ensure_ascii=False) + "\n"
