"""docs/teacher/: the pages of lessons 06-08 state the engine's figures, and the index's links resolve."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from qardlab.lessons import best_question as bq
from qardlab.lessons import counting_deals as cd
from qardlab.lessons import crossing_out as co

ROOT = Path(__file__).resolve().parents[2]
TEACHER = ROOT / "docs" / "teacher"


def page(name: str) -> str:
    return (TEACHER / name).read_text(encoding="utf-8")


def test_lesson06_page_figures_are_the_engines():
    text = page("06-build-crossing-out.md")
    naive = ", ".join(str(len(p.knowledge.naive_candidates())) for p in co.positions("cross_out"))
    assert f"**{naive}**" in text
    logic = ", ".join(
        f"{len(co.cross_out_reference(p))} -> {len(p.knowledge.candidates())}"
        for p in co.positions("possible")
    )
    assert f"**{logic}**" in text
    sizes = ", ".join(
        f"{len(cx)} -> {sum(1 for q in cx if co.possible_reference(p, q))} -> {len(p.knowledge.candidates())}"
        for p in co.positions("sizes")
        for cx in [co.cross_out_reference(p)]
    )
    assert f"**{sizes}**" in text
    # the example of what the rules do not reach: seed 40 after 18 questions, Alice's view
    pos = co.seeded_position(40, 18, 0)
    by_rules = sum(1 for q in co.cross_out_reference(pos) if co.possible_with_sizes_reference(pos, q))
    assert (by_rules, len(pos.knowledge.candidates())) == (56, 53)
    assert "56 pairs by these rules and 53 by the engine" in text
    for m in co.MUTATIONS["cross_out"] + co.MUTATIONS["possible"] + co.MUTATIONS["sizes"]:
        assert f'"{m.name}"' in text, f"the page's table has no line for {m.name!r}"


def test_lesson07_page_figures_are_the_engines():
    text = page("07-build-counting-deals.md")
    parts = [
        f"{sum(pos.knowledge.counts().values())} of {sum(1 for _ in cd.all_deals(pos))}"
        for pos in cd.positions("counts")
    ]
    assert "**" + ", ".join(parts) + "**" in text
    post = cd.positions("posterior")[0].knowledge.posterior()
    top = sorted(post.items(), key=lambda kv: -kv[1])[:4]
    assert ", ".join(f"{f.symbol}{n.symbol} {p:.1%}".replace("%", " %") for (f, n), p in top) in text
    for m in cd.MUTATIONS["counts"] + cd.MUTATIONS["posterior"]:
        assert f'"{m.name}"' in text, f"the page's table has no line for {m.name!r}"


def test_lesson08_page_figures_are_the_engines():
    text = page("08-build-best-question.md")
    k = cd.mini_position(bq.LESSON08_SEED).knowledge
    best = k.questions()[0]
    assert f"**{k.entropy():.3f} bits**" in text and f"**{best.info:.3f} bits**" in text
    assert f"**{len(k.questions())}**" in text
    for m in bq.MUTATIONS["entropy"] + bq.MUTATIONS["information"]:
        assert f'"{m.name}"' in text, f"the page's table has no line for {m.name!r}"


@pytest.mark.parametrize(
    "name",
    [
        "README.md",
        "glossary.md",
        "06-build-crossing-out.md",
        "07-build-counting-deals.md",
        "08-build-best-question.md",
        "collecting-progress.md",
    ],
)
def test_links_resolve(name):
    for target in re.findall(r"\]\(([^)#]+)\)", page(name)):
        if target.startswith("http") or target == "../classroom.md":  # classroom.md: the classroom's own page
            continue
        assert (TEACHER / target).resolve().exists(), f"{name} links to a missing {target}"


def test_index_has_a_line_per_lesson_and_the_kit():
    text = page("README.md")
    for nb in sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb")):
        if nb.name[:2] != "09":  # 09 (Play together) is the classroom helper's: its line comes with it
            assert nb.name in text, f"the kit's index has no line for {nb.name}"
    for part in (
        "glossary.md",
        "notepad.svg",
        "../classroom.md",
        "write-your-own-lesson.md",
        "collecting-progress.md",
    ):
        assert part in text


def test_the_kits_timings_are_the_timing_scripts_and_add_up():
    """The kit's table is what scripts/lesson_timings.py computes from its counts (its rule of thumb)."""
    text = page("README.md")
    rows = re.findall(r"^\| (\d\d) \| ([\d.]+) \| (\d+) \| (\d+) \| (\d+) \| (\d+)", text, re.M)
    assert len(rows) == 12
    total = 0.0
    for lesson, run_all, words, widgets, exercises, minutes in rows:
        per = 10 if lesson in ("06", "07", "08") else 5
        expected = int(words) / 120 + int(widgets) * 2 + int(exercises) * per + float(run_all) / 60
        assert abs(expected - int(minutes)) <= 0.5, lesson
        total += expected
    assert f"({total:.0f} minutes" in text
    for lesson, *_rest in rows:  # each lesson's page has its timing
        pages = list(TEACHER.glob(f"{lesson}-*.md"))
        assert pages and "## Timing (about" in pages[0].read_text(encoding="utf-8")
