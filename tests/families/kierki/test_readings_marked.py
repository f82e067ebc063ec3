"""docs/rulesets.md marks the four readings the app takes of its sources (seed 002's
heart-lead ban, kurnik's three-player loteryjka clubs, Zdanowicz's −160, seed 001's K♥
"przy pierwszej okazji"), each quoting the seed's sentence in its own words, and every
ruleset that takes one says so where it takes it."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SEEDS = next((d for d in (ROOT.parent / "shared" / "seeds", ROOT.parents[1] / "shared" / "seeds")
              if d.is_dir()), None)


def _section(docs: str, title: str) -> str:
    return docs.split(f"\n{title}\n", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]


def test_the_four_readings_are_marked_with_the_seeds_sentences():
    docs = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
    readings = _section(docs, "## Readings")
    items = re.findall(r"^\d\. \*\*(.+?)\*\*", readings, re.MULTILINE)
    assert len(items) == 4
    quoted = re.findall(r"“([^”]+)”", readings)
    by_seed = {"002": ["The first move in any of the seven games", "worm suit",
                       "It is forbidden to go first"],
               "000": ["Dokładać można albo kartę o tej samej wartości"],
               "004": ["No 7th and last"], "001": ["przy pierwszej okazji"]}
    for seed, starts in by_seed.items():
        for start in starts:
            assert any(start in q for q in quoted) or start in readings, start
        if SEEDS is not None:  # each quote is the seed's own words
            text = " ".join(next(SEEDS.glob(f"{seed}_*.txt")).read_text(encoding="utf-8").split())
            for q in quoted:
                if any(start in q for start in starts):
                    assert " ".join(q.split()) in text, q
    for ruleset, number in (("seed002-4", 1), ("kurnik-3", 2), ("zdanowicz-5", 3),
                            ("zdanowicz-3", 3), ("seed001-4", 4), ("seed001-4-robber", 4),
                            ("seed001-3", 4), ("seed001-3-robber", 4)):
        section = _section(docs, f"### {ruleset}")
        assert f"a reading: [Readings](#readings), {number}" in " ".join(section.split()) \
            or f"([Readings](#readings), {number})" in " ".join(section.split()), ruleset
