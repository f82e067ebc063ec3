"""The shape the code keeps: pure rules, and shared code that never asks which family it has."""
import re
import subprocess
import sys
from pathlib import Path

from scorekeeper.families import registry

ROOT = Path(__file__).resolve().parents[1]


def test_the_rules_import_without_the_web_stack_or_sql():
    code = ("import sys, scorekeeper.rules.checks, scorekeeper.families.kierki.rules, "
            "scorekeeper.families.tybet.rules; "
            "print(sorted(m for m in ('flask', 'jinja2', 'sqlite_utils', 'weasyprint') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout.strip()
    assert out == "[]"


def _shared_files():
    for path in sorted((ROOT / "scorekeeper").rglob("*.py")):
        if "families" not in path.relative_to(ROOT / "scorekeeper").parts:
            yield path
    for path in sorted((ROOT / "templates").glob("*.html")):
        yield path


def test_shared_code_never_names_a_family():
    """A third family is a new folder and a registry line: shared code names none."""
    keys = "|".join(map(re.escape, registry.families()))
    named = re.compile(rf"""["']({keys})["']""")
    found = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
             for p in _shared_files()
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1)
             if named.search(line)]
    assert found == []


def test_every_family_has_its_templates_and_rulesets():
    from scorekeeper import create_app
    app = create_app({"DATABASE": ":memory:", "SECRET_KEY": "x", "TESTING": True})
    for family in registry.families().values():
        for role, template in family.templates.items():
            if template:
                assert template.startswith(f"{family.key}/"), (family.key, role)
                assert app.jinja_env.get_template(template)
        assert family.rulesets(), family.key


#: What a family never imports: storage, the service and the shared web layer. Its own
#: pages get what they need from the shared views (``Family.blueprint(load_game)``).
SHARED_ONLY = ("service", "db", "store", "queries", "caches", "repeats", "views", "api", "live",
               "forms", "web")


def test_families_import_no_storage_service_or_shared_views():
    names = "|".join(SHARED_ONLY)
    imports = re.compile(
        rf"^\s*(from\s+(scorekeeper|\.{{2,}})\s*\.?\s*({names})\b"     # from ...db import x
        rf"|from\s+(scorekeeper|\.{{2,}})\s+import\s+.*\b({names})\b"   # from ... import service
        rf"|import\s+scorekeeper\.({names})\b)")
    found = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
             for p in sorted((ROOT / "scorekeeper" / "families").rglob("*.py"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1)
             if imports.search(line)]
    assert found == []
