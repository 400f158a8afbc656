"""The catalogue as JSON, for learning-management systems and other tools."""
from __future__ import annotations

import json

from .catalog import Catalog
from .pages import related_of

SCHEMA_VERSION = 1


def catalog_data(catalog: Catalog, base_url: str = "", directory_urls: bool = True) -> dict:
    """Everything but the prose. URLs are relative to the site root unless base_url is given."""
    base = base_url.rstrip("/") + "/" if base_url else ""

    def url(page: str) -> str:
        return f"{base}{page}/" if directory_urls else f"{base}{page}.html"

    return {
        "schema": SCHEMA_VERSION,
        "modules": [{"id": mid, "title": title, "url": url(f"modules/{mid}")}
                    for mid, title in catalog.modules.items()],
        "entries": [
            {
                "id": e.id,
                "title": e.title,
                "summary": e.summary,
                "status": e.status,
                "modules": e.modules,
                "related": [{"id": rid, "nature": nature} for rid, nature in related_of(e, catalog)],
                "messages": e.messages,
                "trace": e.trace,
                "snippet": e.snippet,
                "url": url(e.id),
                "handout_url": url(f"handouts/{e.id}"),
            }
            for e in catalog.sorted_entries()
        ],
    }


def catalog_json(catalog: Catalog, base_url: str = "", directory_urls: bool = True) -> str:
    return json.dumps(catalog_data(catalog, base_url, directory_urls), indent=2, ensure_ascii=False) + "\n"
