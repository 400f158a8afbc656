"""Draw a snippet's figure data as SVG, once for the light and once for the dark theme.

The data is plain JSON from the snippet's figure_data(): panels of series,
with optional vertical marker lines. Matplotlib is imported only here, and only
when a figure is drawn.
"""
from __future__ import annotations

import io
import math

THEMES = {
    "light": {"fg": "#1f1f1f", "grid": "#d0d0d0", "colors": ["#1565c0", "#2e7d32", "#c62828", "#6a1b9a"]},
    "dark": {"fg": "#e6e6e6", "grid": "#4a4a4a", "colors": ["#64b5f6", "#81c784", "#ef5350", "#ce93d8"]},
}


def render_svg(figure: dict, theme: str) -> str:
    import warnings

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colours = THEMES[theme]
    params = {
        "svg.hashsalt": "trainwreck", "svg.fonttype": "none", "font.size": 10,
        "text.color": colours["fg"], "axes.labelcolor": colours["fg"], "axes.edgecolor": colours["fg"],
        "xtick.color": colours["fg"], "ytick.color": colours["fg"], "axes.titlecolor": colours["fg"],
        "grid.color": colours["grid"], "legend.frameon": False,
    }
    panels = figure["panels"]
    # Matplotlib's own numeric warnings are noise here, not part of any symptom.
    with plt.rc_context(params), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 3.6), squeeze=False)
        palette: dict[str, str] = {}  # one colour per series label across all panels
        for ax, panel in zip(axes[0], panels):
            _draw_panel(ax, panel, palette, colours)
        fig.tight_layout()
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", transparent=True, metadata={"Date": None, "Creator": None})
        plt.close(fig)
    return buffer.getvalue()


def _draw_panel(ax, panel: dict, palette: dict, colours: dict) -> None:
    for series in panel["series"]:
        y = [v if isinstance(v, (int, float)) and math.isfinite(v) else math.nan for v in series["y"]]
        colour = palette.setdefault(series["label"], colours["colors"][len(palette) % len(colours["colors"])])
        (line,) = ax.plot(series["x"], y, label=series["label"], color=colour,
                          linestyle="--" if series.get("style") == "dashed" else "-",
                          linewidth=series.get("width", 1.6))
        if series.get("end_marker"):
            last = max(i for i, v in enumerate(y) if not math.isnan(v))
            ax.plot([series["x"][last]], [y[last]], marker="o", color=colour, markersize=6)
    for j, line in enumerate(panel.get("vlines", [])):
        ax.axvline(line["x"], color=colours["fg"], linestyle=":", linewidth=1.0, label=line["label"],
                   alpha=0.4 + 0.2 * j)
    ax.set_xscale(panel.get("xscale", "linear"))
    ax.set_yscale(panel.get("yscale", "linear"))
    ax.set_title(panel["title"])
    ax.set_xlabel(panel["xlabel"])
    ax.set_ylabel(panel["ylabel"])
    ax.grid(True, linewidth=0.5)
    ax.legend(fontsize=8)
