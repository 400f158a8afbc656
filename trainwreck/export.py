"""The catalogue as JSON, for learning-management systems and other tools."""
from __future__ import annotations

import json

from .catalog import Catalog
from .pages import entry_path, handout_path, module_path, page_url

SCHEMA_VERSION = 2


def catalog_data(catalog: Catalog, base_url: str = "", directory_urls: bool = True) -> dict:
    """Everything but the prose. URLs are relative to the site root unless base_url is given."""
    base = base_url.rstrip("/") + "/" if base_url else ""

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
                "messages": [{"text": m.text, "example": m.example, "from": m.origin, "source": m.source}
                             for m in e.messages],
                "phrases": e.phrases,
                "trace": e.trace,
                "snippet": e.snippet,
                "url": url(entry_path(e.id)),
                "handout_url": url(handout_path(e.id)),
            }
            for e in catalog.sorted_entries()
        ],
    }


def catalog_json(catalog: Catalog, base_url: str = "", directory_urls: bool = True) -> str:
    return json.dumps(catalog_data(catalog, base_url, directory_urls), indent=2, ensure_ascii=False) + "\n"
