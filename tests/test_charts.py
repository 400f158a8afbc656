"""The pictures' log axes are labelled in plain Unicode text, not mathtext (which was most of the drawing time)."""
from trainwreck.charts import render_panels, unicode_label


def test_mathtext_tick_labels_become_unicode():
    assert unicode_label(r"$\mathdefault{10^{-3}}$") == "10⁻³"
    assert unicode_label(r"$\mathdefault{2\times10^{-1}}$") == "2×10⁻¹"
    assert unicode_label(r"$\mathdefault{10^{12}}$") == "10¹²"
    assert unicode_label("0.5") == "0.5" and unicode_label("") == ""


def test_a_log_axis_is_drawn_with_unicode_labels():
    figure = {"alt": "a", "panels": [{"title": "t", "xlabel": "x", "ylabel": "y", "yscale": "log", "xscale": "log",
                                      "series": [{"label": "s", "x": [1, 10, 100, 1000], "y": [1e-3, 1e-1, 1e1, 1e2]}]}]}
    svg = render_panels(figure)["1-light"]
    assert "mathdefault" not in svg and "$" not in svg
    assert ">10⁻³<" in svg and ">10²<" in svg and ">10³<" in svg     # y from 1e-3 to 1e2, x up to 1e3


def test_whole_numbered_x_values_get_whole_numbered_ticks():
    """Five epochs must not be labelled 0.5, 1.5, ...; fractional x values may still be."""
    import re

    def x_ticks(xs):
        figure = {"alt": "a", "panels": [{"title": "t", "xlabel": "epoch", "ylabel": "loss",
                                          "series": [{"label": "s", "x": xs, "y": [1, 2, 3, 4, 5]}]}]}
        texts = re.findall(r">([^<>]{1,8})</text>", render_panels(figure)["1-light"])
        return texts[:texts.index("epoch")]          # the x axis's labels come before its title
    assert x_ticks([0, 1, 2, 3, 4]) == ["0", "1", "2", "3", "4"]
    assert any("." in t for t in x_ticks([0.0, 0.5, 1.0, 1.5, 2.0]))
