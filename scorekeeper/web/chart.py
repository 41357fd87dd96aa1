"""The running totals as an SVG line chart drawn on the server: no chart library, no script.

Readable on a 360 px phone (the drawing is 360 units wide and scales to the column), and
colour-blind safe: every player has a colour from the Okabe-Ito palette *and* a dash pattern
*and* a marker shape, all three repeated in the legend. The score table holds the same numbers
and is the chart's text alternative. Colours are presentation attributes, so the file also
draws right on its own (chart.svg, shared as an image); on the page static/chart.css gives
each series a colour that reads in dark mode too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date

from markupsafe import Markup, escape

from scorekeeper.services.sessions import SessionView

WIDTH = 360
LEFT, RIGHT, TOP = 44, 14, 12
PLOT_HEIGHT = 190
AXIS_HEIGHT = 30
LEGEND_ROW = 24
LEGEND_COLUMNS = 2
HEADING = 44
FONT = "system-ui, -apple-system, Segoe UI, Roboto, Arial, sans-serif"
# The longest name the legend writes out; a longer one ends in an ellipsis.
LEGEND_NAME = 15

# Okabe-Ito: told apart with every common colour vision deficiency (and not only by colour).
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
DASHES = ("", "8 4", "2 3", "9 3 2 3", "14 4", "2 3 2 3 7 3")
MARKER_NAMES = ("circle", "square", "triangle", "diamond", "cross", "down-triangle")


def _circle(x: float, y: float) -> str:
    return f"M{x - 4:.1f},{y:.1f}a4,4 0 1,0 8,0a4,4 0 1,0 -8,0z"


def _square(x: float, y: float) -> str:
    return f"M{x - 3.5:.1f},{y - 3.5:.1f}h7v7h-7z"


def _triangle(x: float, y: float) -> str:
    return f"M{x:.1f},{y - 5:.1f}l5,8.5h-10z"


def _diamond(x: float, y: float) -> str:
    return f"M{x:.1f},{y - 5:.1f}l5,5l-5,5l-5,-5z"


def _cross(x: float, y: float) -> str:
    return f"M{x - 4:.1f},{y - 4:.1f}l8,8m0,-8l-8,8"


def _down_triangle(x: float, y: float) -> str:
    return f"M{x:.1f},{y + 5:.1f}l5,-8.5h-10z"


MARKERS: tuple[Callable[[float, float], str], ...] = (
    _circle,
    _square,
    _triangle,
    _diamond,
    _cross,
    _down_triangle,
)


def nice_step(span: float, wanted: int = 5) -> int:
    """A round step (1, 2, 5, 10, 20, 50, ...) that cuts `span` into about `wanted` parts."""
    raw = max(span / wanted, 1)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return int(factor * power)
    return int(10 * power)  # pragma: no cover - the loop always returns


def _ticks(low: int, high: int) -> list[int]:
    step = nice_step(high - low)
    first = math.floor(low / step) * step
    last = math.ceil(high / step) * step
    return list(range(first, last + step, step))


def _english_signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _english_day(day: date) -> str:
    return f"{day:%a} {day.day} {day:%b %Y}"


@dataclass(frozen=True)
class ChartWords:
    """The chart's words, dates and numbers in one language: English here; the web layer gives
    the request's (web/sessions.py, `chart_words`). `title(name)`, `subtitle(day)`,
    `described(rounds, after)`: the description with the totals after the last round."""

    signed: Callable[[int], str] = _english_signed
    day: Callable[[date], str] = _english_day
    title: Callable[[str], str] = lambda name: f"Running totals · {name}"
    subtitle: Callable[[str], str] = lambda day: f"{day} · running totals"
    described: Callable[[int, str], str] = lambda rounds, after: (
        f"Running totals after each of {rounds} rounds; after round {rounds}: {after}."
    )
    nothing_yet: str = "No rounds played yet: every total is 0."
    no_rounds: str = "No rounds yet"
    start: str = "start"
    number: Callable[[int], str] = str
    separator: str = ", "


ENGLISH = ChartWords()


def _short(name: str) -> str:
    return name if len(name) <= LEGEND_NAME else name[: LEGEND_NAME - 1] + "…"


def chart_height(players: int, standalone: bool = True) -> int:
    """The chart's height in pixels (its width is WIDTH), for an <img> that keeps its place."""
    legend_rows = math.ceil(players / LEGEND_COLUMNS)
    return (
        TOP
        + (HEADING if standalone else 0)
        + PLOT_HEIGHT
        + AXIS_HEIGHT
        + legend_rows * LEGEND_ROW
        + 8
    )


def running_chart(
    view: SessionView,
    *,
    standalone: bool = False,
    described_by: str | None = None,
    words: ChartWords = ENGLISH,
) -> Markup:
    """The SVG of each player's running total after every round, with its legend.

    `standalone` adds the XML namespace, a white background and a heading (session name and
    date), for the chart.svg file; `described_by` is the id of the table that holds the same
    numbers, for aria-describedby on the page; `words` its language.
    """
    players = view.players
    running = view.standings.running
    rounds = len(running)
    top = TOP + (HEADING if standalone else 0)
    height = chart_height(len(players), standalone)
    plot_width = WIDTH - LEFT - RIGHT
    values = [0] + [row[p] for row in running for p in players]
    ticks = _ticks(min(values), max(values))
    low, high = ticks[0], ticks[-1]
    if low == high:
        high = low + 10
        ticks = [low, high]

    def x_at(i: int) -> float:
        return LEFT + plot_width * i / max(rounds, 1)

    def y_at(value: int) -> float:
        return top + PLOT_HEIGHT * (high - value) / (high - low)

    title_id = f"chart-title-{view.id}"
    desc_id = f"chart-desc-{view.id}"
    last = running[-1] if running else dict.fromkeys(players, 0)
    summary = words.separator.join(f"{p} {words.signed(last[p])}" for p in players)
    description = words.described(rounds, summary) if rounds else words.nothing_yet
    labelled = f"{title_id} {desc_id}"
    attributes = [
        f'viewBox="0 0 {WIDTH} {height}"',
        f'width="{WIDTH}"',
        f'height="{height}"',
        'role="img"',
        f'aria-labelledby="{labelled}"',
        f'font-family="{FONT}"',
        'font-size="12"',
        'class="chart-svg"',
    ]
    if standalone:
        attributes.insert(0, 'xmlns="http://www.w3.org/2000/svg"')
    if described_by:
        attributes.append(f'aria-describedby="{escape(described_by)}"')
    parts = [
        f"<svg {' '.join(attributes)}>",
        f'<title id="{title_id}">{escape(words.title(view.name))}</title>',
        f'<desc id="{desc_id}">{escape(description)}</desc>',
    ]
    if standalone:
        subtitle = words.subtitle(words.day(view.played_on))
        parts += [
            f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
            f'<text x="{LEFT}" y="24" font-size="16" font-weight="700" fill="#111111">'
            f"{escape(_short_title(view.name))}</text>",
            f'<text x="{LEFT}" y="42" fill="#444444">{escape(subtitle)}</text>',
        ]
    parts.append(_grid(ticks, x_at, y_at, rounds, top, words))
    step = max(1, math.ceil(rounds / 12))  # markers every `step` rounds, and on the last
    for index, player in enumerate(players):
        parts.append(_series(index, player, running, x_at, y_at, step))
    parts.append(_legend(players, top + PLOT_HEIGHT + AXIS_HEIGHT))
    if not rounds:
        parts.append(
            f'<text x="{LEFT + plot_width / 2:.1f}" y="{top + PLOT_HEIGHT / 2 - 8:.1f}" '
            'text-anchor="middle" class="chart-text" fill="#444444">'
            f"{escape(words.no_rounds)}</text>"
        )
    parts.append("</svg>")
    return Markup("\n".join(parts))


def _short_title(name: str) -> str:
    return name if len(name) <= 36 else name[:35] + "…"


def _grid(
    ticks: Sequence[int],
    x_at: Callable[[int], float],
    y_at: Callable[[int], float],
    rounds: int,
    top: int,
    words: ChartWords = ENGLISH,
) -> str:
    """Horizontal lines at round values (the zero line heavier), round numbers underneath."""
    right = WIDTH - RIGHT
    lines = []
    for value in ticks:
        y = y_at(value)
        weight = "1.5" if value == 0 else "0.75"
        dash = "" if value == 0 else ' stroke-dasharray="3 3"'
        lines.append(
            f'<line x1="{LEFT}" x2="{right}" y1="{y:.1f}" y2="{y:.1f}" stroke="#8a8a8a" '
            f'stroke-width="{weight}"{dash} class="chart-grid"/>'
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" fill="#444444" '
            f'class="chart-text">{escape(words.signed(value))}</text>'
        )
    base = top + PLOT_HEIGHT
    every = max(1, math.ceil(rounds / 10))
    for i in range(0, rounds + 1):
        if i % every and i != rounds:
            continue
        label = words.start if i == 0 and rounds <= 6 else words.number(i)
        lines.append(
            f'<text x="{x_at(i):.1f}" y="{base + 18}" text-anchor="middle" fill="#444444" '
            f'class="chart-text">{escape(label)}</text>'
        )
    return '<g class="chart-axes">' + "".join(lines) + "</g>"


def _series(
    index: int,
    player: str,
    running: Sequence[dict[str, int]],
    x_at: Callable[[int], float],
    y_at: Callable[[int], float],
    step: int,
) -> str:
    """One player's line (from 0 before round 1) and markers: one <polyline>, one <path>."""
    if not running:
        return ""
    slot = index % len(COLOURS)
    colour, dash, marker = COLOURS[slot], DASHES[slot], MARKERS[slot]
    points = [(x_at(0), y_at(0))] + [
        (x_at(i + 1), y_at(row[player])) for i, row in enumerate(running)
    ]
    shown = [p for i, p in enumerate(points) if i and (i % step == 0 or i == len(points) - 1)]
    dashing = f' stroke-dasharray="{dash}"' if dash else ""
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    marks = "".join(marker(x, y) for x, y in shown)
    return (
        f'<g class="series series-{slot}" stroke="{colour}" fill="{colour}" '
        f'data-player="{escape(player)}" data-marker="{MARKER_NAMES[slot]}">'
        f'<polyline points="{line}" fill="none" stroke-width="2.5"{dashing} '
        'stroke-linejoin="round" stroke-linecap="round"/>'
        f'<path d="{marks}" class="markers"{_marker_paint(slot)}/>'
        "</g>"
    )


def _marker_paint(slot: int) -> str:
    """A cross is drawn with a pen; the other markers are filled shapes."""
    if MARKER_NAMES[slot] == "cross":
        return ' stroke-width="2" fill="none"'
    return ' stroke-width="1"'


def _legend(players: Sequence[str], top: int) -> str:
    """Each player's colour, dash and marker beside their name, two to a row."""
    column = (WIDTH - LEFT // 2) / LEGEND_COLUMNS
    items = []
    for index, player in enumerate(players):
        slot = index % len(COLOURS)
        x = LEFT // 2 + column * (index % LEGEND_COLUMNS)
        y = top + LEGEND_ROW * (index // LEGEND_COLUMNS) + 8
        dash = f' stroke-dasharray="{DASHES[slot]}"' if DASHES[slot] else ""
        items.append(
            f'<g class="series series-{slot}" stroke="{COLOURS[slot]}" fill="{COLOURS[slot]}">'
            f'<line x1="{x:.1f}" x2="{x + 34:.1f}" y1="{y:.1f}" y2="{y:.1f}" '
            f'stroke-width="2.5"{dash}/>'
            f'<path d="{MARKERS[slot](x + 17, y)}"{_marker_paint(slot)}/>'
            "</g>"
            f'<text x="{x + 42:.1f}" y="{y + 4:.1f}" fill="#111111" class="chart-name">'
            f"{escape(_short(player))}</text>"
        )
    return '<g class="chart-legend">' + "".join(items) + "</g>"
