"""The shape the code keeps: pure rules, and shared code that never asks which family it has."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

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
    from scorekeeper.web import adapters
    app = create_app({"DATABASE": ":memory:", "SECRET_KEY": "x", "TESTING": True})
    for family in registry.families().values():
        for role, template in adapters.of(family).templates.items():
            if template:
                assert template.startswith(f"{family.key}/"), (family.key, role)
                assert app.jinja_env.get_template(template)
        assert family.rulesets(), family.key


#: The layers, lowest first: a module imports its own layer and the ones below, never one
#: above. The rules kernel; each family's pure rules; what families and the app share
#: beside them; the families; the storage; the domain service; the outputs; the web
#: layer; the app factory and the command (``scorekeeper/__init__.py``, ``cli.py``). A
#: family's web adapter (``families/<key>/web/``: its pages, forms, charts, tools) is of the
#: web layer, so the family itself (its rules and flow) never imports it.
LAYERS = ["rules", "family rules", "common", "families", "storage", "domain", "outputs",
          "web", ""]
TOP = {"scorekeeper", "scorekeeper.cli"}


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports() -> dict[str, set[str]]:
    """Each module of the package and the package's modules it imports (lazily or not)."""
    import ast
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "scorekeeper").rglob("*.py")):
        name = _module(path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets = found.setdefault(name, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[:len(package.split(".")) - node.level + 1]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                if module.split(".")[0] != "scorekeeper":
                    continue
                for alias in node.names:  # "from . import store" names a module
                    sub = f"{module}.{alias.name}"
                    is_module = (ROOT / Path(*sub.split("."))).with_suffix(".py").exists() \
                        or (ROOT / Path(*sub.split(".")) / "__init__.py").exists()
                    targets.add(sub if is_module else module)
            elif isinstance(node, ast.Import):
                targets.update(a.name for a in node.names if a.name.startswith("scorekeeper."))
    return found


def _layer(module: str) -> int:
    if module in TOP:
        return LAYERS.index("")
    parts = module.split(".")
    assert parts[1] in LAYERS, f"{module} is in no layer"
    if parts[1] == "families" and "rules" in parts[3:4]:
        return LAYERS.index("family rules")
    if parts[1] == "families" and "web" in parts[3:4]:
        return LAYERS.index("web")
    return LAYERS.index(parts[1])


def test_every_module_is_in_a_layer():
    for module in _imports():
        assert module in TOP or module.split(".")[1] in LAYERS, module


def test_no_module_imports_a_layer_above_its_own():
    upward = [f"{m} -> {t}" for m, targets in _imports().items() for t in targets
              if _layer(t) > _layer(m)]
    assert upward == []


def test_the_imports_have_no_circle():
    graph = _imports()
    seen: dict[str, int] = {}  # 1: on the path being walked, 2: done

    def walk(module: str, path: list[str]) -> list[str] | None:
        seen[module] = 1
        for target in sorted(graph.get(module, ())):
            if target == module or target not in graph:
                continue
            if seen.get(target) == 1:
                return [*path, module, target]
            if target not in seen and (circle := walk(target, [*path, module])):
                return circle
        seen[module] = 2
        return None

    circles = [c for m in sorted(graph) if m not in seen and (c := walk(m, []))]
    assert circles == []


def test_families_import_no_storage_service_outputs_or_web():
    """A family's own pages get what they need from the shared views
    (``Family.blueprint(load_game)``)."""
    below = {"rules", "common", "families"}
    found = [f"{m} -> {t}" for m, targets in _imports().items() if m.startswith(
        "scorekeeper.families") for t in targets if t.split(".")[1] not in below]
    assert found == []


def test_a_family_never_imports_another():
    """The registry lists them; the interface (base) is everyone's; nothing else crosses."""
    shared = {"scorekeeper.families", "scorekeeper.families.base",
              "scorekeeper.families.registry"}
    found = [f"{m} -> {t}" for m, targets in _imports().items()
             if m.startswith("scorekeeper.families.") and m not in shared
             for t in targets if t.startswith("scorekeeper.families.") and t not in shared
             and t.split(".")[2] != m.split(".")[2]]
    assert found == []


#: Which folder may import which (issue 33), each with its own: rules ← common ←
#: families ← storage ← domain ← outputs ← web ← top (``scorekeeper/__init__.py``,
#: ``cli.py``), except that **the storage imports no family** (it keeps rows; what a game
#: means is the domain's) and **the web and the outputs import no storage**: they ask the
#: domain (its reads in ``domain/reads.py``, the house's writes in ``domain/house.py``,
#: the refusals they catch in ``domain/errors.py``, the connection pool in
#: ``domain/database.py``).
MAY_IMPORT = {
    "rules": {"rules"},
    "common": {"rules", "common"},
    "families": {"rules", "common", "families"},
    "storage": {"rules", "common", "storage"},
    "domain": {"rules", "common", "families", "storage", "domain"},
    "outputs": {"rules", "common", "families", "domain", "outputs"},
    "web": {"rules", "common", "families", "domain", "outputs", "web"},
    "top": {"rules", "common", "families", "storage", "domain", "outputs", "web", "top"},
}

#: Imports the table refuses that work in flight is taking out: none left (``web/live.py``
#: reads the domain since the events landed). A (module, layer) pair here is tolerated.
NOT_YET: set[tuple[str, str]] = set()


def _folder(module: str) -> str:
    """A module's layer: its folder under ``scorekeeper/``; a family's web adapter
    (``families/<key>/web/``) is the web layer's."""
    if module in TOP:
        return "top"
    parts = module.split(".")
    return "web" if parts[1] == "families" and "web" in parts[3:4] else parts[1]


def _refused(layer: str) -> list[str]:
    return [f"{m} -> {t}" for m, targets in sorted(_imports().items()) if _folder(m) == layer
            for t in sorted(targets) if _folder(t) not in MAY_IMPORT[layer]
            and (m, _folder(t)) not in NOT_YET]


@pytest.mark.parametrize("layer", list(MAY_IMPORT))
def test_each_layer_imports_only_the_layers_it_may(layer):
    assert _refused(layer) == []


def test_the_layer_table_has_no_circle_and_covers_every_module():
    assert {_folder(m) for m in _imports()} <= set(MAY_IMPORT)
    order = list(MAY_IMPORT)  # lowest first: each may import only its own and lower ones
    assert all(order.index(below) <= order.index(layer)
               for layer, allowed in MAY_IMPORT.items() for below in allowed)


def test_the_web_and_the_outputs_never_name_the_storage():
    """The web and the outputs ask the domain: no module of theirs imports the storage,
    lazily or not (only the skip-list's, which work in flight takes out)."""
    found = [f"{m} -> {t}" for m, targets in sorted(_imports().items())
             if _folder(m) in ("web", "outputs")
             for t in sorted(targets) if _folder(t) == "storage"
             and (m, "storage") not in NOT_YET]
    assert found == []


def test_storage_only_stores():
    """The storage takes and returns rows and plain values: it replays no game, so it
    imports no family, no domain, no output and nothing of the web (issue 33)."""
    above = {"families", "domain", "outputs", "web"}
    found = [f"{m} -> {t}" for m, targets in _imports().items()
             if m.startswith("scorekeeper.storage") for t in targets
             if len(t.split(".")) > 1 and t.split(".")[1] in above]
    assert found == []


def test_the_pure_parts_load_without_flask():
    """The domain, the storage and the families (their rules and flow) import without the
    web stack: Flask, its forms, its translations and its templates are the web layer's
    (each family's web adapter, ``families/<key>/web/``)."""
    code = ("import sys, scorekeeper.domain.service, scorekeeper.domain.tournaments, "
            "scorekeeper.domain.people, scorekeeper.domain.variants, "
            "scorekeeper.storage.game_writes, scorekeeper.storage.game_reads; "
            "from scorekeeper.families import registry; registry.families(); "
            "print(sorted(m for m in ('flask', 'werkzeug', 'jinja2', 'flask_babel', "
            "'flask_wtf', 'wtforms', 'flask_limiter', 'markupsafe') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout.strip()
    assert out == "[]"


def test_every_family_hook_is_declared():
    """Shared code calls a family only through the protocol: every hook, optional ones
    included, is a member of ``Family`` or ``WebFamily`` (with a default), never read with
    ``getattr``."""
    found = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
             for p in sorted((ROOT / "scorekeeper").rglob("*.py"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1)
             if re.search(r"getattr\((family|adapter|web|fam|f|game\.family)\b", line)]
    assert found == []
