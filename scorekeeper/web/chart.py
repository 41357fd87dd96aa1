"""The running totals as an SVG line chart drawn on the server, no chart library, no script:
in the light or the dark theme, each player in their seat's colour, dash and marker."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from markupsafe import Markup, escape

from scorekeeper.services.documents import english_title
from scorekeeper.services.views import SessionView
from scorekeeper.web.seats import THEMES, Mark, colours, marks, palette

WIDTH = 360
LEFT, RIGHT, TOP = 44, 14, 12
PLOT_HEIGHT = 190
AXIS_HEIGHT = 30
LEGEND_ROW = 24
LEGEND_COLUMNS = 2
HEADING = 44
CORNER = 12  # the cards' corners (--r of static/app.css, 0.75rem), in the drawing's units
FONT = "system-ui, sans-serif"
# The most characters of a name on one line of the legend (its column, at 12 px, with room
# for wide letters); a longer name wraps onto more lines, between words where it can.
LEGEND_LINE = 15
LEGEND_LINE_HEIGHT = 14

RING = 8  # the radius of the ring round a dropped round's point, clear of the markers
RING_STEP = 4  # how much wider each further ring round (about) the same point is
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


@dataclass(frozen=True)
class Look:
    """A theme's colours for the chart, from static/app.css: `quiet` the axes' numbers, `tile`
    and `edge` the legend's tiles, `seats` the players' colours in seat order."""

    theme: str
    card: str
    text: str
    quiet: str
    grid: str
    tile: str
    edge: str
    seats: tuple[str, ...]


def look(theme: str = "light") -> Look:
    """The chart's colours in `theme` (one of seats.THEMES)."""
    if theme not in THEMES:
        raise ValueError(f"no theme {theme!r}: one of {', '.join(THEMES)}")
    tokens = palette()[theme]
    return Look(
        theme,
        card=tokens["card"],
        text=tokens["fg"],
        quiet=tokens["muted"],
        grid=tokens["border"],
        tile=tokens["tile"],
        edge=tokens["line"],
        seats=colours()[theme],
    )


def _english_signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _english_day(day: date) -> str:
    return f"{day:%a} {day.day} {day:%b %Y}"


@dataclass(frozen=True)
class ChartWords:
    """The chart's words, dates and numbers in one language: English here; the web layer gives
    the request's (web/sessions.py, `chart_words`)."""

    signed: Callable[[int], str] = _english_signed
    day: Callable[[date], str] = _english_day
    title: Callable[[str], str] = lambda name: f"Running totals · {name}"
    session: Callable[[str, date], str] = english_title
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


def name_lines(name: str) -> list[str]:
    """A name as the legend writes it: whole, on lines of at most LEGEND_LINE characters,
    broken between words (a longer word is broken inside)."""
    lines: list[str] = []
    for word in name.split():
        while len(word) > LEGEND_LINE:
            lines.append(word[:LEGEND_LINE])
            word = word[LEGEND_LINE:]
        if lines and len(lines[-1]) + 1 + len(word) <= LEGEND_LINE:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [name]


def _legend_rows(players: Sequence[str]) -> list[int]:
    """The height of each row of the legend: its tallest name's lines."""
    lines = [len(name_lines(name)) for name in players]
    return [
        LEGEND_ROW + (max(lines[i : i + LEGEND_COLUMNS]) - 1) * LEGEND_LINE_HEIGHT
        for i in range(0, len(lines), LEGEND_COLUMNS)
    ]


def chart_height(players: Sequence[str], standalone: bool = True) -> int:
    """The chart's height in pixels (its width is WIDTH), for an <img> that keeps its place."""
    return (
        TOP
        + (HEADING if standalone else 0)
        + PLOT_HEIGHT
        + AXIS_HEIGHT
        + sum(_legend_rows(players))
        + 8
    )


def running_chart(
    view: SessionView,
    *,
    standalone: bool = False,
    described_by: str | None = None,
    words: ChartWords = ENGLISH,
    theme: str = "light",
) -> Markup:
    """The SVG of each player's running total after every round, with its legend; `standalone`
    for chart.svg (namespace, card, heading), `described_by` the score table's id."""
    colour = look(theme)
    players = view.players
    seated = marks(players)
    table = view.standings
    running = table.counted  # without the dropped rounds: the lines end at the Total
    rounds = len(running)
    top = TOP + (HEADING if standalone else 0)
    height = chart_height(players, standalone)
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

    name = words.session(view.name, view.played_on)
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
        f'data-theme="{colour.theme}"',
    ]
    if standalone:
        attributes.insert(0, 'xmlns="http://www.w3.org/2000/svg"')
    if described_by:
        attributes.append(f'aria-describedby="{escape(described_by)}"')
    parts = [
        f"<svg {' '.join(attributes)}>",
        f'<title id="{title_id}">{escape(words.title(name))}</title>',
        f'<desc id="{desc_id}">{escape(description)}</desc>',
    ]
    if standalone:
        subtitle = words.subtitle(words.day(view.played_on))
        parts += [
            f'<rect width="{WIDTH}" height="{height}" rx="{CORNER}" fill="{colour.card}"/>',
            f'<text x="{LEFT}" y="24" font-size="16" font-weight="700" fill="{colour.text}">'
            f"{escape(_short_title(name))}</text>",
            f'<text x="{LEFT}" y="42" fill="{colour.quiet}">{escape(subtitle)}</text>',
        ]
    parts.append(_grid(ticks, x_at, y_at, rounds, top, colour, words))
    step = max(1, math.ceil(rounds / 12))  # markers every `step` rounds, and on the last
    for index, mark in enumerate(seated):
        parts.append(_series(index, mark, colour, running, x_at, y_at, step))
    rings: list[tuple[float, float]] = []  # the centres drawn so far; over every line
    for index, mark in enumerate(seated):
        parts.append(_dropped_ring(index, mark, colour, running, table.dropped, x_at, y_at, rings))
    parts.append(_legend(seated, colour, top + PLOT_HEIGHT + AXIS_HEIGHT))
    if not rounds:
        parts.append(
            f'<text x="{LEFT + plot_width / 2:.1f}" y="{top + PLOT_HEIGHT / 2 - 8:.1f}" '
            f'text-anchor="middle" class="chart-text" fill="{colour.quiet}">'
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
    colour: Look,
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
            f'<line x1="{LEFT}" x2="{right}" y1="{y:.1f}" y2="{y:.1f}" stroke="{colour.grid}" '
            f'stroke-width="{weight}"{dash} class="chart-grid"/>'
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" fill="{colour.quiet}" '
            f'class="chart-text">{escape(words.signed(value))}</text>'
        )
    base = top + PLOT_HEIGHT
    every = max(1, math.ceil(rounds / 10))
    for i in range(0, rounds + 1):
        if i % every and i != rounds:
            continue
        label = words.start if i == 0 and rounds <= 6 else words.number(i)
        lines.append(
            f'<text x="{x_at(i):.1f}" y="{base + 18}" text-anchor="middle" fill="{colour.quiet}" '
            f'class="chart-text">{escape(label)}</text>'
        )
    return '<g class="chart-axes">' + "".join(lines) + "</g>"


def _series(
    index: int,
    mark: Mark,
    colour: Look,
    running: Sequence[dict[str, int]],
    x_at: Callable[[int], float],
    y_at: Callable[[int], float],
    step: int,
) -> str:
    """One player's line (from 0 before round 1) and markers: one <polyline>, one <path>."""
    if not running:
        return ""
    slot = index % len(DASHES)
    paint, dash, marker = colour.seats[mark.seat - 1], DASHES[slot], MARKERS[slot]
    points = [(x_at(0), y_at(0))] + [
        (x_at(i + 1), y_at(row[mark.name])) for i, row in enumerate(running)
    ]
    shown = [p for i, p in enumerate(points) if i and (i % step == 0 or i == len(points) - 1)]
    dashing = f' stroke-dasharray="{dash}"' if dash else ""
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    markers = "".join(marker(x, y) for x, y in shown)
    return (
        f'<g class="series series-{slot}" stroke="{paint}" fill="{paint}" '
        f'data-player="{escape(mark.name)}" data-marker="{MARKER_NAMES[slot]}">'
        f'<polyline points="{line}" fill="none" stroke-width="2.5"{dashing} '
        'stroke-linejoin="round" stroke-linecap="round"/>'
        f'<path d="{markers}" class="markers"{_marker_paint(slot)}/>'
        "</g>"
    )


def _dropped_ring(
    index: int,
    mark: Mark,
    colour: Look,
    running: Sequence[dict[str, int]],
    dropped: Mapping[str, int | None],
    x_at: Callable[[int], float],
    y_at: Callable[[int], float],
    rings: list[tuple[float, float]],
) -> str:
    """A ring in the player's colour round the point of their dropped round (nothing when none);
    one on or next to a ring drawn before (`rings`) is drawn wider, so each shows."""
    number = dropped.get(mark.name)
    if not number:
        return ""
    paint = colour.seats[mark.seat - 1]
    x, y = x_at(number), y_at(running[number - 1][mark.name])
    near = sum(math.hypot(x - a, y - b) < RING for a, b in rings)
    rings.append((x, y))
    return (
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{RING + RING_STEP * near}" fill="none" '
        f'stroke="{paint}" '
        f'stroke-width="2" class="dropped-ring series-{index % len(DASHES)}" '
        f'data-player="{escape(mark.name)}" data-round="{number}"/>'
    )


def _marker_paint(slot: int) -> str:
    """A cross is drawn with a pen; the other markers are filled shapes."""
    if MARKER_NAMES[slot] == "cross":
        return ' stroke-width="2" fill="none"'
    return ' stroke-width="1"'


# The legend's tile (the player's initials, as the table header shows them), then the line.
TILE_WIDTH, TILE_HEIGHT, SAMPLE = 26, 20, 24


def _legend(seated: Sequence[Mark], colour: Look, top: int) -> str:
    """Each player's initials on a tile, their colour, dash and marker, and their whole name
    (wrapped: `name_lines`), two to a row."""
    column = (WIDTH - LEFT // 2) / LEGEND_COLUMNS
    rows = _legend_rows([mark.name for mark in seated])
    items = []
    for index, mark in enumerate(seated):
        slot = index % len(DASHES)
        paint = colour.seats[mark.seat - 1]
        x = LEFT // 2 + column * (index % LEGEND_COLUMNS)
        y = top + sum(rows[: index // LEGEND_COLUMNS]) + 8
        line = x + TILE_WIDTH + 5
        name_x = line + SAMPLE + 6
        wrapped = name_lines(mark.name)
        lines = (
            "".join(
                f'<tspan x="{name_x:.1f}" dy="{n and LEGEND_LINE_HEIGHT}">{escape(text)}'
                f"{' ' if n < len(wrapped) - 1 else ''}</tspan>"  # read as one name
                for n, text in enumerate(wrapped)
            )
            if len(wrapped) > 1
            else escape(mark.name)
        )
        dash = f' stroke-dasharray="{DASHES[slot]}"' if DASHES[slot] else ""
        items.append(
            '<g class="chart-mark">'
            f'<rect x="{x:.1f}" y="{y - 10:.1f}" width="{TILE_WIDTH}" height="{TILE_HEIGHT}" '
            f'rx="4" fill="{colour.edge}"/>'
            f'<rect x="{x:.1f}" y="{y - 10:.1f}" width="{TILE_WIDTH}" height="{TILE_HEIGHT - 2}" '
            f'rx="4" fill="{colour.tile}"/>'
            f'<text x="{x + TILE_WIDTH / 2:.1f}" y="{y + 3:.1f}" text-anchor="middle" '
            f'font-size="11" font-weight="800" fill="{paint}">{escape(mark.initials)}</text>'
            "</g>"
            f'<g class="series series-{slot}" stroke="{paint}" fill="{paint}">'
            f'<line x1="{line:.1f}" x2="{line + SAMPLE:.1f}" y1="{y:.1f}" y2="{y:.1f}" '
            f'stroke-width="2.5"{dash}/>'
            f'<path d="{MARKERS[slot](line + SAMPLE / 2, y)}"{_marker_paint(slot)}/>'
            "</g>"
            f'<text x="{name_x:.1f}" y="{y + 4:.1f}" fill="{colour.text}" '
            f'class="chart-name">{lines}</text>'
        )
    return '<g class="chart-legend">' + "".join(items) + "</g>"
