"""The charts of the app, drawn as inline SVG by pygal (no script, no CDN): infamy over the turns of a
game, and the scores of a phone's games over time."""

from __future__ import annotations

import re

import pygal
from pygal.style import Style

from companion.web.words.catalogue import gettext

__all__ = ["chart_style", "infamy_chart", "scores_chart"]


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


def _line_chart(
    title: str, labels: list[str], lines: list[tuple[str, list[int | None]]], style: Style, **options: object
) -> str:
    """An inline SVG line chart, one line per (name, values), without pygal's script."""
    chart = pygal.Line(
        js=[],
        disable_xml_declaration=True,
        style=style,
        width=420,
        height=300,
        title=title,
        legend_at_bottom=True,
        dots_size=3,
        truncate_legend=-1,
        truncate_label=-1,  # turn numbers and dates are short: never "…" (pygal guesses the room from every label)
        **options,
    )
    chart.x_labels = labels
    for name, values in lines:
        chart.add(name, values)
    svg: str = chart.render(is_unicode=True)
    return re.sub(r"<script.*?</script>", "", svg, flags=re.S)  # pygal's inline config: not needed, not wanted


def infamy_chart(names: list[str], colours: list[str], points: list[tuple[str, tuple[int, ...]]], title: str) -> str:
    """An inline SVG line chart: one line per player (in their colours), one point per label (a turn,
    and the final score when the game is over). The first and the last label are always shown."""
    lines: list[tuple[str, list[int | None]]] = [
        (name, [values[i] for _, values in points]) for i, name in enumerate(names)
    ]
    labels = [label for label, _ in points]
    step = max(1, len(points) // 6)
    major = [label for i, label in enumerate(labels) if i % step == 0 and len(labels) - 1 - i >= step / 2]
    return _line_chart(
        title,
        labels,
        lines,
        chart_style(colours),
        show_legend=True,
        legend_at_bottom_columns=min(len(names), 2) or 1,
        x_label_rotation=0,
        show_minor_x_labels=False,
        x_labels_major=[*major, labels[-1]] if labels else [],
    )


def scores_chart(dates: list[str], lines: list[tuple[str, list[int | None]]]) -> str:
    """Each player's score in each finished game, over time."""
    return _line_chart(
        gettext("Scores over time"), dates, lines, chart_style(), legend_at_bottom_columns=2, allow_interruptions=True
    )
