"""The SVG charts: geometry, escaping, the text alternative (scorekeeper.charts)."""
import re
from xml.etree import ElementTree

import pytest

from scorekeeper.common import charts
from scorekeeper.common.charts import Series, bar_chart, bar_table, line_chart, line_table, ticks

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ElementTree.Element:
    return ElementTree.fromstring(str(svg))  # well-formed XML, or this raises


def polyline(svg: str, series: int) -> list[tuple[float, float]]:
    group = [g for g in parse(svg).iter(f"{SVG}g")
             if g.get("class") == f"chart-series s{series}" and g.find(f"{SVG}polyline") is not None]
    points = group[0].find(f"{SVG}polyline").get("points")
    return [tuple(map(float, p.split(","))) for p in points.split()]


def zero_y(svg: str) -> float:
    line = next(e for e in parse(svg).iter(f"{SVG}line") if e.get("class") == "chart-zero")
    return float(line.get("y1"))


@pytest.mark.parametrize("lo,hi,expected", [
    (0, 21, [0, 5, 10, 15, 20, 25]),
    (-2380, 800, [-3000, -2000, -1000, 0, 1000]),
    (-260, 0, [-300, -250, -200, -150, -100, -50, 0]),
    (5, 5, [0, 1, 2, 3, 4, 5]),
])
def test_ticks_are_round_and_hold_zero_and_every_value(lo, hi, expected):
    got = ticks(lo, hi)
    assert got == expected
    assert 0 in got and got[0] <= min(lo, 0) and got[-1] >= max(hi, 0)


def test_a_value_is_drawn_at_its_height_between_the_ticks():
    svg = line_chart([("A", [100, -100, 50])], ["1", "2", "3"], title="t", origin=0,
                     width=300, height=200)
    pts = polyline(svg, 0)
    assert len(pts) == 4  # the origin, then one point per deal
    zero = zero_y(svg)
    assert pts[0][1] == zero  # every line starts at 0
    up, down, half = pts[1][1] - zero, pts[2][1] - zero, pts[3][1] - zero
    assert up < 0 < down and up == pytest.approx(-down, abs=0.2)  # +100 above, −100 below
    assert half == pytest.approx(up / 2, abs=0.2)
    xs = [x for x, _ in pts]
    assert xs == sorted(xs) and xs[2] - xs[1] == pytest.approx(xs[3] - xs[2], abs=0.2)


def test_each_line_differs_by_colour_dash_and_marker():
    svg = line_chart([(n, [1, 2]) for n in "ABCDE"], ["1", "2"], title="t")
    root = parse(svg)
    lines = [g for g in root.iter(f"{SVG}g") if g.find(f"{SVG}polyline") is not None]
    assert len({g.get("stroke") for g in lines}) == 5
    assert len({g.find(f"{SVG}polyline").get("stroke-dasharray") for g in lines}) == 5
    marks = [g.find(f"{SVG}path").get("class") for g in lines]  # each line's markers
    assert len(set(marks)) == 5 and all(m.startswith("chart-mark m-") for m in marks)


def test_the_last_value_is_written_at_the_line_end():
    svg = line_chart([("A", [10, -2380]), ("B", [5, 800])], ["1", "2"], title="t")
    texts = [t.text for t in parse(svg).iter(f"{SVG}text")]
    assert "−2380" in texts and "+800" in texts


def test_names_and_titles_are_escaped():
    name = '<b>Dżon</b> & "Ala"'
    for svg in (line_chart([(name, [1])], ["1"], title="<i>t</i>", desc="a<b"),
                bar_chart(["<g>"], [name], [[5]], title="<i>t</i>")):
        assert "<b>" not in svg and "<i>" not in svg and "&lt;b&gt;Dżon&lt;/b&gt;" in svg
        root = parse(svg)
        assert root.get("role") == "img"
        assert root.find(f"{SVG}title").text == "<i>t</i>"
        assert root.find(f"{SVG}desc").text
        assert name in "".join(t.text or "" for t in root.iter(f"{SVG}text"))
    table = line_table([(name, [1])], ["<1>"], caption="c", x_heading="Deal")
    assert "<b>" not in table and "&lt;1&gt;" in table


def test_a_negative_bar_goes_below_the_zero_line_a_positive_one_above():
    svg = bar_chart(["Negative", "Trumps"], ["A", "B"], [[-260, 0], [175, 50]], title="t")
    zero = zero_y(svg)
    bars = [r for r in parse(svg).iter(f"{SVG}rect") if r.get("class") == "chart-bar"]
    assert len(bars) == 4
    top = [float(r.get("y")) for r in bars]
    bottom = [float(r.get("y")) + float(r.get("height")) for r in bars]
    assert top[0] == pytest.approx(zero) and bottom[0] > zero  # −260 hangs below zero
    assert float(bars[1].get("height")) == 0  # 0
    assert bottom[2] == pytest.approx(zero) and top[2] < top[3] < zero  # +175 taller than +50
    texts = [t.text for t in parse(svg).iter(f"{SVG}text")]
    assert {"−260", "+175", "+50", "Negative", "Trumps"} <= set(texts)


def test_the_text_alternative_has_every_number():
    series = [Series("Ala", [5, -3]), Series("Bo", [0, 12])]
    table = line_table(series, ["1", "2"], caption="Running totals", x_heading="Deal")
    cells = re.findall(r'<td class="num">([^<]*)</td>', table)
    assert cells == ["+5", "0", "−3", "+12"]
    assert "<caption>Running totals</caption>" in table
    bars = bar_table(["Robber"], ["Ala", "Bo"], [[-1300, 0]], caption="c", group_heading="Kind")
    assert re.findall(r'<td class="num">([^<]*)</td>', bars) == ["−1300", "0"]


def test_the_same_data_draws_the_same_svg():
    args = ([("A", [1.25, -7]), ("B", [3, 4])], ["1", "2"])
    assert line_chart(*args, title="t") == line_chart(*args, title="t")
    assert charts.plain(-3) == "−3" and charts.signed(0) == "0"


def test_a_long_legend_wraps_into_more_rows_and_a_taller_chart():
    short = line_chart([("A", [1]), ("B", [2])], ["1"], title="t", width=340)
    long = line_chart([("Małgorzata Konstantynowicz-Wiśniewska & Czesław Nowak", [1]),
                       ("B", [2])], ["1"], title="t", width=340)
    height = lambda svg: float(parse(svg).get("viewBox").split()[3])
    assert height(long) > height(short)
