"""Charts drawn as SVG text on the server: a line chart and a grouped bar chart, and
their numbers as an HTML table (for a screen reader, and anyone who wants the figures).

Pure Python: values in, markup out, every name and label escaped; the values shown are
written by :mod:`.formats` in the page's language. Sizes are SVG user units (a stylesheet
scales the chart to its box). Colours and dashes come as presentation attributes (the
print defaults) and as classes a stylesheet may restyle (the dark scheme does); each
series differs by colour, dash and marker, for black-and-white print and colour-blind
players.
"""
from __future__ import annotations

import base64
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from markupsafe import Markup, escape

from . import formats

Number = float | int
Format = Callable[[Number], str]

#: Print defaults per series (the Okabe–Ito palette, darkened to 3:1 on white).
COLOURS = ("#0072b2", "#c04a00", "#007a5a", "#a8458a", "#8a6a00", "#4b4b9a")
#: Dash pattern per series ("" is a solid line).
DASHES = ("", "7 3", "2 3", "9 3 2 3", "4 4", "12 4")
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "triangle-down")
INK, MUTED, GRID = "#1c1b1a", "#55514c", "#d8d2c8"


class Series(NamedTuple):
    """One line (a player, a pair): its name and a value per x label."""

    name: str
    values: Sequence[Number]


#: A value as a score sheet writes it (``+25``, ``−20``, ``0``, ``+2,5`` in Polish).
signed: Format = formats.signed


def plain(value: Number) -> str:
    """A value without a plus sign (a race to a target): ``7``, ``−3``."""
    return formats.number(value, 1)


def _num(value: Number) -> str:
    """A coordinate or a size in SVG's own numbers: up to one decimal, no trailing ``.0``."""
    text = f"{value:.1f}".removesuffix(".0")
    return "0" if text == "-0" else text


def ticks(lo: Number, hi: Number, count: int = 5) -> list[Number]:
    """Round values from at or below ``lo`` to at or above ``hi``, about ``count`` of them,
    stepping by 1, 2 or 5 times a power of ten; zero is always one of them.

    >>> ticks(-260, 700), ticks(0, 0)
    ([-400, -200, 0, 200, 400, 600, 800], [0, 1])
    >>> ticks(-2380, 800)
    [-3000, -2000, -1000, 0, 1000]
    """
    lo, hi = min(lo, 0), max(hi, 0)
    if hi == lo:
        return [0, 1]
    raw = (hi - lo) / (count + 1)
    power = 10 ** math.floor(math.log10(raw))
    for step in (m * power for m in (1, 2, 5, 10, 20, 50)):
        first, last = math.floor(lo / step), math.ceil(hi / step)
        if last - first + 1 <= count + 2:
            break
    return [_clean(i * step) for i in range(first, last + 1)]


def _clean(v: float) -> Number:
    """``v`` as an int when whole (a tick, a label's place)."""
    r = round(v, 6)
    return int(r) if r == int(r) else r


def text_width(text: str, f: Number) -> float:
    """A generous estimate of ``text``'s width in a sans-serif font of size ``f``."""
    narrow = sum(c in "il.,:;'|!()[] " for c in text)
    wide = sum(c in "+−=mwMW@" for c in text)
    return (len(text) - narrow - wide) * 0.64 * f + narrow * 0.34 * f + wide * 0.84 * f


def wrap(text: str, width: float, font_size: Number) -> list[str]:
    """``text`` in lines no wider than ``width`` (broken at spaces; a longer word alone).

    >>> wrap("Małgorzata Konstantynowicz & Bożena", 120, 10)
    ['Małgorzata', 'Konstantynowicz &', 'Bożena']
    """
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(lines[-1] + " " + word, font_size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _attrs(**attrs: object) -> str:
    return "".join(f' {k.rstrip("_").replace("_", "-")}="{escape(str(v))}"'
                   for k, v in attrs.items() if v not in (None, ""))


#: Each polygon marker: its size against the radius, and its corners around the centre.
_CORNERS = {"diamond": (1.35, ((0, -1), (1, 0), (0, 1), (-1, 0))),
            "triangle-down": (1.3, ((-1, -0.8), (1, -0.8), (0, 1))),
            "triangle": (1.3, ((0, -1), (1, 0.8), (-1, 0.8)))}


def _marker_d(shape: str, x: float, y: float, r: float) -> str:
    """Path data of a small shape centred on (x, y).

    >>> _marker_d("square", 10, 10, 2)
    'M8 8h4v4h-4Z'
    """
    if shape == "circle":
        arc = f"a{_num(r)} {_num(r)} 0 1 0"
        return f"M{_num(x - r)} {_num(y)}{arc} {_num(2 * r)} 0{arc} {_num(-2 * r)} 0Z"
    if shape == "square":
        return f"M{_num(x - r)} {_num(y - r)}h{_num(2 * r)}v{_num(2 * r)}h{_num(-2 * r)}Z"
    if shape == "cross":
        d = r * 1.1
        return (f"M{_num(x - d)} {_num(y - d)}L{_num(x + d)} {_num(y + d)}"
                f"M{_num(x - d)} {_num(y + d)}L{_num(x + d)} {_num(y - d)}")
    size, corners = _CORNERS[shape]
    return "M" + "L".join(f"{_num(x + r * size * a)} {_num(y + r * size * b)}"
                          for a, b in corners) + "Z"


def _markers(i: int, points: Sequence[tuple[float, float]], r: float) -> str:
    """One path for all of series ``i``'s markers, coloured by the series' group."""
    if not points:
        return ""
    shape = MARKERS[i % len(MARKERS)]
    d = "".join(_marker_d(shape, x, y, r) for x, y in points)
    paint = ' fill="none" stroke-width="2"' if shape == "cross" else ' stroke-width="0.8"'
    return f'<path class="chart-mark m-{shape}" d="{d}"{paint}/>'


def _group(i: int, body: str) -> str:
    """``body`` in series ``i``'s class and print colour."""
    colour = COLOURS[i % len(COLOURS)]
    return (f'<g class="chart-series s{i % len(COLOURS)}" fill="{colour}" '
            f'stroke="{colour}">{body}</g>')


def _text(x: float, y: float, body: str, font_size: Number, anchor: str = "start",
          ink: bool = False, transform: str = "") -> str:
    cls = "chart-text ink" if ink else "chart-text"
    return (f'<text x="{_num(x)}" y="{_num(y)}"{_attrs(class_=cls, text_anchor=anchor)}'
            f' font-size="{_num(font_size)}" fill="{INK if ink else MUTED}"'
            f'{_attrs(transform=transform)}>{escape(body)}</text>')


def _legend(names: Sequence[str], width: float, f: Number, lines: bool) -> tuple[list[str], float]:
    """Legend entries flowed in rows across ``width``: each series' sample (a line, or a
    box) with its marker, and its name, wrapped if long."""
    sample, gap, line_h = f * 2.6, f * 1.2, f * 1.25
    out: list[str] = []
    x = y = row_h = 0.0
    for i, name in enumerate(names):
        text_lines = wrap(name, width - sample - 4, f)
        w = sample + 4 + max(text_width(t, f) for t in text_lines)
        if x > 0 and x + w > width:
            x, y, row_h = 0.0, y + row_h, 0.0
        mid = y + f * 0.55
        if lines:
            swatch = (f'<line x1="{_num(x)}" y1="{_num(mid)}" x2="{_num(x + sample)}"'
                      f' y2="{_num(mid)}" fill="none" stroke-width="2"'
                      f'{_attrs(stroke_dasharray=DASHES[i % len(DASHES)])}/>')
        else:
            swatch = (f'<rect class="chart-swatch" x="{_num(x + sample * 0.15)}"'
                      f' y="{_num(mid - f * 0.5)}" width="{_num(sample * 0.7)}"'
                      f' height="{_num(f)}"/>')
        out.append(_group(i, swatch + _markers(i, [(x + sample / 2, mid)], f * 0.3)))
        out += [_text(x + sample + 4, y + f * 0.95 + k * line_h, t, f, ink=True)
                for k, t in enumerate(text_lines)]
        x += w + gap
        row_h = max(row_h, line_h * len(text_lines) + f * 0.35 + f * 0.3)
    return out, y + row_h


def _open(width: float, height: float, title: str, desc: str, kind: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" role="img" class="chart chart-{kind}"'
            f' viewBox="0 0 {_num(width)} {_num(height)}" width="{_num(width)}"'
            f' height="{_num(height)}" preserveAspectRatio="xMidYMid meet">'
            f"<title>{escape(title)}</title><desc>{escape(desc or title)}</desc>")


def _spread(wanted: list[float], gap: float, lo: float, hi: float) -> list[float]:
    """Label positions as near ``wanted`` as they can be, ``gap`` apart, within [lo, hi].

    >>> _spread([10, 11, 50], 8, 0, 100)
    [6.5, 14.5, 50]
    """
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [wanted[i] for i in order]
    for _ in range(len(placed)):  # a few passes settle clusters symmetrically enough
        for k in range(1, len(placed)):
            overlap = placed[k - 1] + gap - placed[k]
            if overlap > 0:
                placed[k - 1] -= overlap / 2
                placed[k] += overlap / 2
        placed[0] = max(placed[0], lo)
        for k in range(1, len(placed)):
            placed[k] = max(placed[k], placed[k - 1] + gap)
        placed[-1] = min(placed[-1], hi)
        for k in range(len(placed) - 2, -1, -1):
            placed[k] = min(placed[k], placed[k + 1] - gap)
    return [_clean(p) for _, p in sorted(zip(order, placed))]


def _y_axis(scale_ticks: list[Number], top: float, bottom: float, left: float, right: float,
            f: Number, fmt: Format) -> tuple[Callable[[Number], float], list[str]]:
    """Values to y (the highest tick at ``top``, the lowest at ``bottom``), and the ticks'
    grid lines (the zero line darker) with their values."""
    lo, hi = scale_ticks[0], scale_ticks[-1]

    def y_of(value: Number) -> float:
        return top + (hi - value) / (hi - lo) * (bottom - top)

    out = []
    for t in scale_ticks:
        y = y_of(t)
        cls, colour, w = ("chart-zero", INK, 1.2) if t == 0 else ("chart-grid", GRID, 0.6)
        out.append(f'<line class="{cls}" x1="{_num(left)}" y1="{_num(y)}" x2="{_num(right)}"'
                   f' y2="{_num(y)}" stroke="{colour}" stroke-width="{w}"/>')
        out.append(_text(left - 4, y + f * 0.35, fmt(t), f, "end"))
    return y_of, out


def line_chart(series: Sequence[Series | tuple[str, Sequence[Number]]],
               x_labels: Sequence[str], *, title: str, desc: str = "",
               origin: Number | None = None, width: Number = 340, height: Number = 200,
               font_size: Number = 11, fmt: Format = signed,
               x_every: int = 1, ends: bool = True, marks_all: bool = True) -> Markup:
    """One line per series through its values (one per x label), as SVG markup.

    ``origin``: a value every line starts from, one step before the first label (0 for
    running totals). ``height`` is the plot's band; the legend adds rows above it.
    ``x_every``: label every n-th x only (and the last). ``ends=False`` leaves out the
    values at the lines' ends; ``marks_all=False`` marks only the labelled points (both
    for a PDF, where each word and mark costs).

    >>> svg = line_chart([("A", [100, -100])], ["1", "2"], title="t", width=300, height=200)
    >>> '<polyline points="' in svg and ">+100</text>" in svg and ">−100</text>" in svg
    True
    """
    series = [Series(*s) for s in series]
    f, start = font_size, origin is not None
    legend, legend_h = _legend([s.name for s in series], width, f, lines=True)
    values = [v for s in series for v in s.values] + [origin] * start
    scale_ticks = ticks(min(values, default=0), max(values, default=0))
    left = max(text_width(fmt(t), f) for t in scale_ticks) + 6
    last = [fmt(s.values[-1]) for s in series if s.values] if ends else []
    right = width - (max((text_width(e, f) for e in last), default=0) + f * 1.2)
    top = legend_h + f * 0.8
    bottom = top + height - f * 2.2
    y_of, axis = _y_axis(scale_ticks, top, bottom, left, right, f, fmt)
    slots = len(x_labels) + start
    step = (right - f * 0.6 - left) / max(slots - 1, 1)
    first = left + (f * 0.6 if slots > 1 else (right - left) / 2)
    widest = max([text_width("00", f), *(text_width(label, f) for label in x_labels)])
    every = max(x_every, math.ceil((widest + 4) / step)) if slots > 1 else 1

    def shown(k: int, count: int) -> bool:  # an x labelled: every n-th, and the last
        return (k + 1) % every == 0 or k == count - 1

    out = [_open(width, top + height, title, desc, "line"), *legend, *axis]
    out += [_text(first + (i + start) * step, bottom + f * 1.3, label, f, "middle")
            for i, label in enumerate(x_labels) if shown(i, len(x_labels))]
    ends_y = iter(_spread([y_of(s.values[-1]) for s in series if s.values], f * 1.15, top, bottom))
    labels = []
    for i, s in enumerate(series):
        pts = [(first + (k + start) * step, y_of(v)) for k, v in enumerate(s.values)]
        marked = [p for k, p in enumerate(pts) if marks_all or shown(k, len(pts))]
        from_origin = [(first, y_of(origin))] if start else []
        points = " ".join(f"{_num(x)},{_num(y)}" for x, y in from_origin + pts)
        out.append(_group(i, f'<polyline points="{points}" fill="none" stroke-width="2"'
                             f' stroke-linejoin="round"'
                             f'{_attrs(stroke_dasharray=DASHES[i % len(DASHES)])}/>'
                           + _markers(i, marked, f * 0.27)))
        if ends and pts:
            (x, y), end_y, lx = pts[-1], next(ends_y), right + f * 0.9
            labels.append(_group(i, f'<line x1="{_num(x + f * 0.3)}" y1="{_num(y)}"'
                                    f' x2="{_num(lx - 2)}" y2="{_num(end_y)}" stroke-width="1"/>')
                          + _text(lx, end_y + f * 0.35, fmt(s.values[-1]), f, ink=True))
    return Markup("".join([*out, *labels, "</svg>"]))


def bar_chart(groups: Sequence[str], series: Sequence[str],
              values: Sequence[Sequence[Number]], *, title: str, desc: str = "",
              width: Number = 340, height: Number = 220, font_size: Number = 11,
              fmt: Format = signed) -> Markup:
    """Grouped bars: for each group (``values[g]``) one bar per series, rising from the
    zero line, a negative one below it, each with its value at its end. Group names go
    under the plot (wrapped); ``height`` is the plot's band, the legend adds rows above.
    """
    f = font_size
    legend, legend_h = _legend(series, width, f, lines=False)
    flat = [v for row in values for v in row]
    scale_ticks = ticks(min(flat, default=0), max(flat, default=0))
    left = max(text_width(fmt(t), f) for t in scale_ticks) + 6
    right = width - 2
    band = (right - left) / max(len(groups), 1)
    bar = band * 0.84 / max(len(series), 1)
    label_w = max((text_width(fmt(v), f * 0.9) for v in flat), default=0)
    upright = label_w + 2 <= bar  # else the value labels are turned to run along the bar

    def room(values: list[Number]) -> float:  # for the value labels beyond the bars
        return f * 1.3 if upright else max(text_width(fmt(v), f * 0.9) for v in values) + f * 0.7

    above = room([v for v in flat if v >= 0]) if max(flat, default=0) > 0 else f * 0.5
    below = room([v for v in flat if v < 0]) if min(flat, default=0) < 0 else 0
    group_lines = [wrap(g, band - 4, f) for g in groups]
    under = f * 1.25 * max((len(g) for g in group_lines), default=1) + f * 0.4
    top = legend_h + f * 0.6
    plot_bottom = top + height - under - below
    y_of, axis = _y_axis(scale_ticks, top + above, plot_bottom, left, right, f, fmt)
    out = [_open(width, top + height, title, desc, "bar"), *legend, *axis]
    zero = y_of(0)
    texts: list[str] = []
    for g, row in enumerate(values):
        for i, v in enumerate(row):
            x = left + g * band + band * 0.08 + i * bar
            y = y_of(v)
            y1, y2 = min(y, zero), max(y, zero)
            out.append(_group(i, f'<rect class="chart-bar" x="{_num(x + 0.5)}" y="{_num(y1)}"'
                                 f' width="{_num(bar - 1)}" height="{_num(max(y2 - y1, 0))}"'
                                 ' stroke="none"/>'
                               + _markers(i, [(x + bar / 2, y)], min(bar * 0.28, f * 0.27))))
            cx, pad = x + bar / 2, f * 0.45
            if upright:
                ty = y - pad if v >= 0 else y + pad + f * 0.75
                texts.append(_text(cx, ty, fmt(v), f * 0.9, "middle"))
            else:
                tx, ty = cx + f * 0.3, y - pad if v >= 0 else y + pad
                texts.append(_text(tx, ty, fmt(v), f * 0.9, "start" if v >= 0 else "end",
                                   transform=f"rotate(-90 {_num(tx)} {_num(ty)})"))
    texts += [_text(left + g * band + band / 2, plot_bottom + below + f * 1.25 * (k + 1), line,
                    f, "middle", ink=True)
              for g, lines in enumerate(group_lines) for k, line in enumerate(lines)]
    return Markup("".join([*out, *texts, "</svg>"]))


def bar_table(groups: Sequence[str], series: Sequence[str],
              values: Sequence[Sequence[Number]], *, caption: str, group_heading: str,
              fmt: Format = signed) -> Markup:
    """A bar chart's numbers: a row per group, a column per series."""
    head = "".join(f'<th scope="col">{escape(c)}</th>' for c in series)
    body = "".join(
        f'<tr><th scope="row">{escape(label)}</th>'
        + "".join(f'<td class="num">{escape(fmt(v))}</td>' for v in row) + "</tr>"
        for label, row in zip(groups, values))
    return Markup(f'<table class="chart-table"><caption>{escape(caption)}</caption>'
                  f'<thead><tr><th scope="col">{escape(group_heading)}</th>{head}</tr></thead>'
                  f"<tbody>{body}</tbody></table>")


def line_table(series: Sequence[Series | tuple[str, Sequence[Number]]],
               x_labels: Sequence[str], *, caption: str, x_heading: str,
               fmt: Format = signed) -> Markup:
    """A line chart's numbers: a row per x label, a column per series."""
    series = [Series(*s) for s in series]
    return bar_table(x_labels, [s.name for s in series],
                     [[s.values[k] for s in series] for k in range(len(x_labels))],
                     caption=caption, group_heading=x_heading, fmt=fmt)


#: The sheets' type (static/sheet.css), for a chart's words drawn as an image.
SHEET_FONTS = "Sheet, 'DejaVu Sans Condensed', 'DejaVu Sans', sans-serif"


class _Chart:
    def image(self, **size: Number) -> Markup:
        """The chart as an ``<img>`` of itself (a ``data:`` address), for the PDF sheets:
        WeasyPrint draws an image with its SVG renderer alone, not through the page's style
        cascade. The words keep the sheet's type, named on the SVG itself.

        >>> chart = BarChart("A & B", "", ("g",), ("s",), ((1,),), "")
        >>> img = chart.image()
        >>> img.startswith('<img class="chart" alt="A &amp; B" src="data:image/svg+xml;base64,')
        True
        >>> base64.b64decode(img.split(",", 1)[1].rstrip('">')).decode()[:31]
        '<svg font-family="Sheet, &#39;D'
        """
        svg = str(self.svg(**size)).replace("<svg ", f'<svg font-family="{escape(SHEET_FONTS)}" ', 1)
        data = base64.b64encode(svg.encode()).decode()
        return Markup(f'<img class="chart" alt="{escape(self.title)}"'  # type: ignore[attr-defined]
                      f' src="data:image/svg+xml;base64,{data}">')


@dataclass(frozen=True)
class LineChart(_Chart):
    """A line chart's data and words, drawn at any size (:meth:`svg`) or as a table."""

    title: str
    desc: str
    series: tuple[Series, ...]
    x_labels: tuple[str, ...]
    x_heading: str
    origin: Number | None = 0
    fmt: Format = field(default=signed, compare=False)

    def svg(self, **size: Number) -> Markup:
        return line_chart(self.series, self.x_labels, title=self.title, desc=self.desc,
                          origin=self.origin, fmt=self.fmt, **size)

    def table(self) -> Markup:
        return line_table(self.series, self.x_labels, caption=self.title,
                          x_heading=self.x_heading, fmt=self.fmt)


@dataclass(frozen=True)
class BarChart(_Chart):
    """A grouped bar chart's data and words, drawn at any size or as a table."""

    title: str
    desc: str
    groups: tuple[str, ...]
    series: tuple[str, ...]
    values: tuple[tuple[Number, ...], ...]
    group_heading: str
    fmt: Format = field(default=signed, compare=False)

    def svg(self, **size: Number) -> Markup:
        return bar_chart(self.groups, self.series, self.values, title=self.title,
                         desc=self.desc, fmt=self.fmt, **size)

    def table(self) -> Markup:
        return bar_table(self.groups, self.series, self.values, caption=self.title,
                         group_heading=self.group_heading, fmt=self.fmt)
