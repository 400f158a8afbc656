"""MkDocs hook: validate the catalogue and generate its pages at build time.

mkdocs.yml names this file under `hooks:`. Nothing it generates is committed.
TRAINWRECK_EDITION=student builds the student edition: no strong answers and
no bonus points anywhere in the site.
"""
from __future__ import annotations

import logging
import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

from trainwreck.export import catalog_json
from trainwreck.indexes import (ENTRY_INDEX_MARK, entries_in_module, entry_index, module_page, modules_index,
                               roadmap_page, symptom_index)
from trainwreck.pages import (EDITIONS, download_path, entry_page, entry_path, figure_path, handout_page, handout_path,
                              module_handout_page, module_handout_path, module_path, tool_page, tool_path, tools_of)
from trainwreck.site_search import mend_search_worker, separator
from trainwreck.snippet_run import SnippetRunError, run_snippet
from trainwreck.snippet_sections import TABS, include_problems, tab_file, tab_program
from trainwreck.validate import check

log = logging.getLogger("mkdocs.hooks.trainwreck")
_state: dict = {}
LOCAL_WORKER_SHIM = "assets/vendor/iframe-worker/shim.js"


def _project_root(config) -> Path:
    return Path(config.config_file_path).resolve().parent


@event_priority(100)   # before Material's search plugin reads its settings
def on_config(config):
    search = config.plugins.get("material/search")
    if search is not None:
        if search.config.separator not in (None, separator()):
            raise PluginError("mkdocs.yml: the search plugin's separator is trainwreck/site_search.py's; "
                              "leave it out")
        search.config.separator = separator()
    edition = os.environ.get("TRAINWRECK_EDITION", "full").strip() or "full"
    if edition not in EDITIONS:
        raise PluginError(f"TRAINWRECK_EDITION: {edition!r} is not one of {', '.join(EDITIONS)}")
    root = _project_root(config)
    catalog, problems = check(root / "catalog")
    if problems:
        raise PluginError("the catalogue has problems:\n" + "\n".join(map(str, problems)))
    _state.update(catalog=catalog, edition=edition)
    # Includes name paths from the project root, whatever folder mkdocs runs in.
    config.mdx_configs.setdefault("pymdownx.snippets", {})["base_path"] = [str(root)]
    if edition == "student":
        config.site_name += " (student edition)"
    return config


def on_pre_build(config):
    # Material's offline build points at a CDN copy of its file:// worker shim (in its on_config, which
    # runs after ours); serve the vendored copy instead so the site never leaves itself.
    polyfills = config.extra.get("polyfills") or []
    config.extra["polyfills"] = [LOCAL_WORKER_SHIM if "iframe-worker" in url else url for url in polyfills]


def on_files(files, config):
    catalog, edition = _state["catalog"], _state["edition"]
    root = _project_root(config)

    def add(path: str, content: str) -> None:
        files.append(File.generated(config, path, content=content))

    entries = catalog.sorted_entries()
    tools = tools_of(catalog)
    snippets = [e.snippet for e in entries] + list(tools)
    # Snippets run in child processes, so threads are enough to use every core.
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        futures = {s: pool.submit(run_snippet, root, s, draw=True) for s in snippets}
    try:
        runs = {s: f.result() for s, f in futures.items()}
    except SnippetRunError as exc:
        raise PluginError(str(exc)) from None
    log.debug("trainwreck: %d snippet(s) run, %d from the cache",
              sum(not r.cached for r in runs.values()), sum(r.cached for r in runs.values()))
    entry_runs = {e.id: runs[e.snippet] for e in entries}
    for entry in entries:
        run = entry_runs[entry.id]
        for picture, svg in run.svgs.items():
            add(figure_path(entry.id, picture), svg)
        add(entry_path(entry.id), entry_page(entry, catalog, edition, run))
        add(handout_path(entry.id), handout_page(entry, catalog, run))
        text = (root / entry.snippet).read_text(encoding="utf-8")
        add(download_path(Path(entry.snippet).name), text)
        for _, region in TABS:
            add(download_path(tab_file(entry.snippet, region)), tab_program(text, region))
    for snippet, users in tools.items():
        text = (root / snippet).read_text(encoding="utf-8")
        add(download_path(Path(snippet).name), text)
        add(tool_path(snippet), tool_page(snippet, text, runs[snippet], users))
    add("modules/index.md", modules_index(catalog))
    for module_id in catalog.modules:
        add(module_path(module_id), module_page(catalog, module_id))
        assigned = entries_in_module(catalog, module_id)
        if assigned:
            add(module_handout_path(module_id), module_handout_page(catalog, module_id, assigned, entry_runs))
    add("symptoms.md", symptom_index(catalog))
    add("roadmap.md", roadmap_page(catalog))
    add("catalog.json", catalog_json(catalog, directory_urls=config.use_directory_urls))
    return files


def on_page_markdown(markdown, page, config, files):
    # pymdownx.snippets expands includes next, confining them by path text only: hold every page,
    # hand-written or generated, to the one include rule first, so the build stops with one line.
    refused = include_problems(markdown, _project_root(config))
    if refused:
        line, why = refused[0]
        where = page.file.abs_src_path or page.file.src_uri
        raise PluginError(f"{where}:{line}: include: {why}")
    if ENTRY_INDEX_MARK in markdown:
        markdown = markdown.replace(ENTRY_INDEX_MARK, entry_index(_state["catalog"]))
    return markdown


# mkdocs-glightbox (0.5) hands each page's content on as a whole HTML document; the browser never
# sees the wrapper (the page is parsed again after rendering), but Material's search index does: it
# reads <html> as text before the first heading and indexes the page title as the page's own first
# section, ahead of the heading that pages.py puts first for search (search_card_heading).
_DOCUMENT_WRAPPER = re.compile(r"\A\s*<html>\s*<head>\s*</head>\s*<body>(?P<content>.*)</body>\s*</html>\s*\Z", re.S)


def on_page_content(html, page, config, files):
    m = _DOCUMENT_WRAPPER.match(html)
    return m["content"] if m else html


def on_post_build(config):
    # lunr's dictionary loses numbers when states' keys collide (site_search.unambiguous_token_keys)
    if config.plugins.get("material/search") is not None:
        try:
            mend_search_worker(Path(config.site_dir))
        except (ValueError, OSError) as exc:
            raise PluginError(f"search worker: {exc}") from None


def on_serve(server, config, builder):
    root = _project_root(config)
    for folder in ("catalog", "snippets"):
        server.watch(str(root / folder))
    return server
