"""MkDocs hook: validate the catalogue and generate its pages at build time.

mkdocs.yml names this file under `hooks:`. Nothing it generates is committed.
"""
from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from trainwreck.pages import ENTRY_INDEX_MARK, entry_index, entry_page
from trainwreck.validate import check

_state: dict = {}


def _project_root(config) -> Path:
    return Path(config.config_file_path).resolve().parent


def on_config(config):
    root = _project_root(config)
    catalog, problems = check(root / "catalog")
    if problems:
        raise PluginError("the catalogue has problems:\n" + "\n".join(map(str, problems)))
    _state["catalog"] = catalog
    # Includes name paths from the project root, whatever folder mkdocs runs in.
    config.mdx_configs.setdefault("pymdownx.snippets", {})["base_path"] = [str(root)]
    return config


def on_files(files, config):
    catalog = _state["catalog"]
    for entry in catalog.sorted_entries():
        files.append(File.generated(config, f"{entry.id}.md", content=entry_page(entry, catalog)))
    return files


def on_page_markdown(markdown, page, config, files):
    if ENTRY_INDEX_MARK in markdown:
        markdown = markdown.replace(ENTRY_INDEX_MARK, entry_index(_state["catalog"]))
    return markdown


def on_serve(server, config, builder):
    root = _project_root(config)
    for folder in ("catalog", "snippets"):
        server.watch(str(root / folder))
    return server
