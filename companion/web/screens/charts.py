"""The infamy-over-turns chart, drawn as SVG by pygal (no script, no CDN)."""

from __future__ import annotations

import re

import pygal
from pygal.style import Style

__all__ = ["chart_style", "infamy_chart"]


def chart_style(colours: list[str] | None = None) -> Style:
    """The look of every chart of the app: transparent, legible on a phone in light and dark mode."""
    return Style(
        background="transparent",
        plot_background="transparent",
        foreground="#777",
        foreground_strong="#777",
        foreground_subtle="#7774",
        **({"colors": tuple(colours)} if colours else {}),
        font_family="system-ui, sans-serif",
        label_font_size=13,
        major_label_font_size=13,
        legend_font_size=15,
        title_font_size=15,
    )


def infamy_chart(names: list[str], colours: list[str], points: list[tuple[int, tuple[int, ...]]], title: str) -> str:
    """An inline SVG line chart: one line per player, one point per turn."""
    style = chart_style(colours)
    chart = pygal.Line(
        js=[],
        disable_xml_declaration=True,
        style=style,
        width=420,
        height=300,
        title=title,
        show_legend=True,
        legend_at_bottom=True,
        legend_at_bottom_columns=min(len(names), 2) or 1,
        dots_size=3,
        x_label_rotation=0,
        show_minor_x_labels=False,
        x_labels_major_every=max(1, len(points) // 6),
        truncate_legend=-1,
        truncate_label=-1,  # turn numbers are short: never "…" (pygal guesses the room from every label)
    )
    chart.x_labels = [str(turn) for turn, _ in points]
    for i, name in enumerate(names):
        chart.add(name, [values[i] for _, values in points])
    svg: str = chart.render(is_unicode=True)
    return re.sub(r"<script.*?</script>", "", svg, flags=re.S)  # pygal's inline config: not needed, not wanted
