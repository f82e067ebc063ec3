"""axe-core (Deque's accessibility checker, from the npm registry) run in a page.

Installed beside the tests, out of the repository: ``npm install --prefix tests/.node
axe-core@4`` (.ci/run does it before the tests). Without it the accessibility tests skip,
and fail under ``CI=true``.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

AXE = Path(__file__).resolve().parents[1] / ".node" / "node_modules" / "axe-core" / "axe.min.js"
#: The impacts a page must have none of.
BLOCKING = ("serious", "critical")


def axe_source() -> str:
    """axe-core's script; skips (fails under CI) when it is not installed."""
    if not AXE.exists():
        message = f"axe-core is not installed at {AXE} (npm install --prefix tests/.node axe-core@4)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    return AXE.read_text(encoding="utf-8")


def violations(page, source: str) -> list[str]:
    """The page's serious and critical violations (axe's rules, and its experimental
    label-content-name-mismatch: a control's name holds the words it shows), one line
    each: the rule, its impact,
    and the elements it found (their selectors), e.g.
    ``color-contrast (serious): .meta.unsigned``. The folds of the page are opened first,
    so that what they hold is checked too."""
    page.evaluate("() => { for (const d of document.querySelectorAll('details')) d.open = true; }")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(source)  # evaluated by the browser's debugger: the page's CSP allows it
    found = page.evaluate("""async () => {
      const r = await axe.run(document, {resultTypes: ["violations"],
        rules: {"label-content-name-mismatch": {enabled: true}}});  // experimental in axe 4
      return r.violations.map((v) => ({id: v.id, impact: v.impact,
        nodes: v.nodes.map((n) => n.target.join(" "))}));
    }""")
    return [f"{v['id']} ({v['impact']}): {', '.join(v['nodes'][:6])}"
            for v in found if v["impact"] in BLOCKING]
