"""Each entry's picture as light and dark SVG, cached next to the snippet results."""
from __future__ import annotations

from pathlib import Path

from . import charts
from .charts import THEMES, render_svg
from .snippet_run import CACHE_DIR, cache_key


# A change to the drawing code redraws every figure.
RENDERER = Path(charts.__file__).read_text(encoding="utf-8")


class FigureError(Exception):
    pass


def entry_figures(root: Path, snippet: str, figure: dict) -> dict[str, str]:
    key = cache_key(root, snippet, RENDERER)
    svgs = {}
    for theme in THEMES:
        cached = root / CACHE_DIR / f"{Path(snippet).stem}-{key}-{theme}.svg"
        if cached.is_file():
            svgs[theme] = cached.read_text(encoding="utf-8")
            continue
        try:
            svgs[theme] = render_svg(figure, theme)
        except Exception as exc:  # any defect in a snippet's figure data becomes one line
            raise FigureError(f"{snippet}: figure_data() could not be drawn: {type(exc).__name__}: {exc}") from None
        try:
            cached.parent.mkdir(exist_ok=True)
            for old in cached.parent.glob(f"{Path(snippet).stem}-*-{theme}.svg"):
                old.unlink()
            cached.write_text(svgs[theme], encoding="utf-8")
        except OSError:
            pass
    return svgs


def figure_path(entry_id: str, theme: str) -> str:
    return f"figures/{entry_id}-{theme}.svg"
