"""Draw a snippet's figure data as SVG: one picture per panel, in the light and the dark theme.

The data is plain JSON from the snippet's figure_data(): panels of series,
with optional vertical marker lines. Each panel is its own picture, so a page
can set them side by side on a wide screen and one above the other on a phone,
and a reader can open each one full size. Matplotlib is imported only here,
and only when a figure is drawn.
"""
from __future__ import annotations

import functools
import io
import math
import re
from . import lazy_regex

THEMES = {
    "light": {"fg": "#1f1f1f", "grid": "#d0d0d0", "colors": ["#1565c0", "#2e7d32", "#c62828", "#6a1b9a"]},
    "dark": {"fg": "#e6e6e6", "grid": "#4a4a4a", "colors": ["#64b5f6", "#81c784", "#ef5350", "#ce93d8"]},
}
DRAWN_IN = "light"
HEX_COLOUR = lazy_regex.compile(r"#[0-9a-f]{6}\b")


def picture_name(panel: int, theme: str) -> str:
    """The key of one picture: panels count from 1."""
    return f"{panel + 1}-{theme}"


def render_panels(figure: dict) -> dict[str, str]:
    """Every panel in every theme, by picture_name. The themes differ only in colour,
    so each panel is drawn once and recoloured for the other themes."""
    import warnings

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colours = THEMES[DRAWN_IN]
    params = {
        "svg.hashsalt": "trainwreck", "svg.fonttype": "none", "font.size": 10,
        "text.color": colours["fg"], "axes.labelcolor": colours["fg"], "axes.edgecolor": colours["fg"],
        "xtick.color": colours["fg"], "ytick.color": colours["fg"], "axes.titlecolor": colours["fg"],
        "grid.color": colours["grid"], "legend.frameon": False,
    }
    palette: dict[str, str] = {}  # one colour per series label across all panels
    pictures = {}
    # Matplotlib's own numeric warnings are noise here, not part of any symptom.
    with plt.rc_context(params), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i, panel in enumerate(figure["panels"]):
            fig, ax = plt.subplots(figsize=(5.2, 3.6))
            _draw_panel(ax, panel, palette, colours)
            fig.tight_layout()
            buffer = io.StringIO()
            fig.savefig(buffer, format="svg", transparent=True, metadata={"Date": None, "Creator": None})
            plt.close(fig)
            for theme in THEMES:
                pictures[picture_name(i, theme)] = recolour(buffer.getvalue(), theme)
    return pictures


def recolour(svg: str, theme: str) -> str:
    """The picture in another theme's palette: each colour of the drawn theme swapped for its counterpart."""
    if theme == DRAWN_IN:
        return svg
    swap = {}
    for key, value in THEMES[DRAWN_IN].items():
        targets = THEMES[theme][key]
        for source, target in zip(value, targets) if isinstance(value, list) else [(value, targets)]:
            swap[source] = target
    return HEX_COLOUR.sub(lambda m: swap.get(m[0], m[0]), svg)


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
    xscale = panel.get("xscale", "linear")
    ax.set_xscale(xscale)
    ax.set_yscale(panel.get("yscale", "linear"))
    if xscale == "linear" and all(float(x).is_integer() for series in panel["series"] for x in series["x"]):
        # epochs and steps are whole numbers: a short run must not get ticks at epoch 0.5
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    for axis in (ax.xaxis, ax.yaxis):
        _plain_log_labels(axis)
    ax.set_title(panel["title"])
    ax.set_xlabel(panel["xlabel"])
    ax.set_ylabel(panel["ylabel"])
    ax.grid(True, linewidth=0.5)
    ax.legend(fontsize=8)


# Matplotlib labels a log axis in mathtext ("$\\mathdefault{10^{-3}}$"), and parsing mathtext is
# most of the time a picture takes to draw. The same labels in Unicode (10⁻³, 2×10⁻¹) read the
# same, and are plain text in the SVG.
MATHTEXT_LABEL = lazy_regex.compile(r"^\$\\mathdefault\{(.*)\}\$$")
SUPERSCRIPT = str.maketrans("0123456789-−", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁻")


def unicode_label(label: str) -> str:
    """A mathtext tick label of a log axis as Unicode text; any other label as it is."""
    found = MATHTEXT_LABEL.match(label)
    if not found:
        return label
    text = found[1].replace("\\times", "×")
    return re.sub(r"\^\{([^}]*)\}", lambda m: m[1].translate(SUPERSCRIPT), text)


@functools.lru_cache(maxsize=1)
def _unicode_log_formatter():
    """Matplotlib's log-axis formatter (which ticks get labels, and how) with Unicode labels.
    Made on first use: Matplotlib is imported only when a figure is drawn."""
    from matplotlib.ticker import LogFormatterSciNotation

    class UnicodeLogFormatter(LogFormatterSciNotation):
        def __call__(self, x, pos=None):
            return unicode_label(super().__call__(x, pos))

    return LogFormatterSciNotation, UnicodeLogFormatter


def _plain_log_labels(axis) -> None:
    mathtext, unicode = _unicode_log_formatter()
    for get, set_ in ((axis.get_major_formatter, axis.set_major_formatter),
                      (axis.get_minor_formatter, axis.set_minor_formatter)):
        old = get()
        if type(old) is mathtext:      # what a log (or symlog) scale sets by default
            set_(unicode(old._base, labelOnlyBase=old.labelOnlyBase,
                         minor_thresholds=old.minor_thresholds, linthresh=old._linthresh))
