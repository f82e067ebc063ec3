"""The "one home" rules of ``docs/architecture.md``, checked against the code (never
against the page's prose): SQL only in the storage, one game loader, one write helper,
every in-write handler in ``handlers.py``, every right read in ``access.py``, one stream
opener, one ETag maker, the security headers in one hook."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from tests.test_architecture import _folder, _imports

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "scorekeeper"
LAYERS = ("rules", "common", "families", "storage", "domain", "outputs", "web")


def _python_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


# -- the layers ----------------------------------------------------------------------------


def test_the_pure_parts_load_without_the_web_stack():
    """Every module of the rules, common/, the storage, the domain and the families
    (their rules and flow, not ``families/<key>/web/``) imports without Flask, Werkzeug,
    Jinja, Flask-Babel, WTForms or Flask-Limiter, as the drawing says; the rules without
    SQL either."""
    pure = [
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for layer in ("rules", "common", "storage", "domain", "families")
        for p in _python_files(PACKAGE / layer)
        if "web" not in p.relative_to(PACKAGE).parts]
    web_stack = ("flask", "werkzeug", "jinja2", "flask_babel", "flask_wtf", "wtforms",
                 "flask_limiter")
    code = (f"import importlib, sys\nfor m in {pure!r}: importlib.import_module(m)\n"
            "from scorekeeper.families import registry; registry.families()\n"
            f"print(sorted(m for m in {web_stack!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout.strip()
    assert out == "[]"
    rules = [m for m in pure if m.startswith("scorekeeper.rules")
             or re.match(r"scorekeeper\.families\.\w+\.rules", m)]
    code = (f"import importlib, sys\nfor m in {rules!r}: importlib.import_module(m)\n"
            "print(sorted(m for m in ('sqlite3', 'sqlite_utils', 'flask', 'weasyprint') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout.strip()
    assert out == "[]"


# -- SQL -----------------------------------------------------------------------------------

SQL = re.compile(r"\b(select\b.+\bfrom|insert\s+(or\s+\w+\s+)?into|update\s+\w+\s+set"
                 r"|delete\s+from|create\s+(table|index|unique|trigger|view)|drop\s+table"
                 r"|alter\s+table|pragma\s+\w+|begin(\s+immediate)?$|commit$|rollback$"
                 r"|savepoint\s|release\s|vacuum$)", re.IGNORECASE | re.DOTALL)


def _strings(path: Path):
    """Each string literal of a module (an f-string's text parts too), docstrings left
    out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                 ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docs:
            yield node.lineno, node.value.strip()


def test_the_storage_is_the_only_code_that_knows_sql():
    found = [f"{p.relative_to(ROOT)}:{line}: {text[:60]}"
             for p in _python_files(PACKAGE) if _folder(_module_name(p)) != "storage"
             for line, text in _strings(p) if SQL.search(text)]
    assert found == []


def test_the_sql_pattern_finds_sql():
    """The check above can fail: the storage's statements are found by it."""
    statements = [text for p in _python_files(PACKAGE / "storage")
                  for _, text in _strings(p) if SQL.search(text)]
    found = {word for text in statements for word in ("select", "insert", "update",
                                                      "delete", "create", "pragma")
             if re.search(rf"\b{word}\b", text, re.IGNORECASE)}
    assert found == {"select", "insert", "update", "delete", "create", "pragma"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


# -- events --------------------------------------------------------------------------------

def _event_classes() -> dict[str, type]:
    from scorekeeper.domain import events
    return {name: kind for name, kind in vars(events).items()
            if isinstance(kind, type) and issubclass(kind, events.Event)
            and kind.__module__ == events.__name__
            and kind not in (events.Event, events.GameEvent, events.TournamentEvent,
                             events.ClubEvent)}


def test_the_live_table_hears_every_event_after_the_commit():
    from scorekeeper import create_app
    from scorekeeper.domain import bus
    from scorekeeper.web import live
    create_app({"DATABASE": ":memory:", "SECRET_KEY": "x", "TESTING": True})
    for name, kind in _event_classes().items():
        after = [h for k in kind.__mro__ for h in bus._after.get(k, ())]
        assert live.heard in after, name


def test_every_in_write_handler_lives_in_handlers():
    """``bus.handles`` is used in ``domain/handlers.py`` alone: one home for every
    reaction made in the write."""
    found = [f"{p.relative_to(ROOT)}:{i}" for p in _python_files(PACKAGE)
             if p.name not in ("handlers.py", "bus.py")
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"\bhandles\(", line)]
    assert found == []


# -- what is kept between requests ---------------------------------------------------------

#: The module-level mutable containers of the package that are not caches: registries,
#: filled once per process.
REGISTRIES = {
    ("scorekeeper.domain.bus", "_in_write"), ("scorekeeper.domain.bus", "_after"),
    ("scorekeeper.web.adapters", "_ADAPTERS"), ("scorekeeper.web.live", "_subscribed"),
}


def _module_level_state():
    """(module, name, what): every name bound at a module's top level to a new mutable
    container, an ``LRU``, or a function memoised by ``functools``."""
    containers = {"dict", "list", "set", "OrderedDict", "defaultdict", "WeakValueDictionary",
                  "WeakKeyDictionary", "deque"}
    for path in _python_files(PACKAGE):
        module = _module_name(path)
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                value = node.value
                kind = None
                if isinstance(value, (ast.Dict, ast.List, ast.Set)) and not (
                        getattr(value, "keys", None) or getattr(value, "elts", None)):
                    kind = "container"
                elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
                    if value.func.id == "LRU":
                        kind = "LRU"
                    elif value.func.id in containers and not value.args:
                        kind = "container"
                if kind:
                    for t in targets:
                        if isinstance(t, ast.Name):
                            yield module, t.id, kind
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for deco in node.decorator_list:
                    fn = deco.func if isinstance(deco, ast.Call) else deco
                    name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
                    if name in ("lru_cache", "cache"):
                        size = [k.value for k in getattr(deco, "keywords", ())
                                if k.arg == "maxsize"]
                        bounded = name == "lru_cache" and size and \
                            isinstance(size[0], ast.Constant) and size[0].value is not None
                        takes = node.args.args or node.args.vararg or node.args.kwonlyargs
                        yield module, node.name, "memo" if bounded or not takes \
                            else "unbounded memo"


def test_nothing_is_kept_in_a_bare_container():
    """What a module keeps between requests is in an ``LRU`` (or a bounded memo, below):
    the only module-level dicts, lists and sets are the registries named above."""
    found = {(m, n) for m, n, kind in _module_level_state() if kind == "container"}
    assert found == REGISTRIES


# -- families ------------------------------------------------------------------------------

def _family_keys() -> set[str]:
    return {p.name for p in (PACKAGE / "families").iterdir() if (p / "family.py").exists()}


#: Shared modules that import a family's own modules by name: the API's documents,
#: which describe each family's kept ruleset (and Kierki's card sets) by its type.
NAMES_FAMILIES = {"scorekeeper.outputs.schema", "scorekeeper.web.api_models"}


def test_shared_code_imports_no_familys_own_modules():
    """Outside ``families/<key>/``, only the registry (and the two modules above) import
    a family's own modules; everything else reaches a family through the registry."""
    keys = _family_keys()
    found = {m for m, targets in _imports().items()
             if not (m.startswith("scorekeeper.families.")
                     and m.split(".")[2] in keys) and m != "scorekeeper.families.registry"
             for t in targets if t.startswith("scorekeeper.families.")
             and t.split(".")[2] in keys}
    assert found == NAMES_FAMILIES


def test_only_the_registry_loads_a_stored_ruleset():
    """``registry.loaded`` is the one home of rules loaded from a stored snapshot: every
    other ``load_rules`` call reads rules that are not stored yet (a file being imported,
    a house variant being checked)."""
    found = set()
    for path in _python_files(PACKAGE):
        for top in ast.parse(path.read_text(encoding="utf-8")).body:
            for node in ast.walk(top):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and node.func.attr == "load_rules":
                    found.add((_module_name(path), getattr(top, "name", "")))
    assert found == {("scorekeeper.families.registry", "loaded"),
                     ("scorekeeper.domain.service", "import_game"),
                     ("scorekeeper.domain.variants", "_checked")}


# -- the stream scripts --------------------------------------------------------------------

def test_the_live_pages_load_follow_before_their_own_script():
    """``static/follow.js`` is what the live pages share: every template that loads
    ``live.js`` or ``tournament.js`` loads it first."""
    loading = 0
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for script in ("live.js", "tournament.js"):
            at = text.find(f"'{script}'")
            if at >= 0:
                loading += 1
                follow = text.find("'follow.js'")
                if follow < 0 and "{% extends \"base.html\" %}" in text \
                        and "{% block scripts %}" in text[:at]:
                    base = (ROOT / "templates" / "base.html").read_text(encoding="utf-8")
                    follow, at = base.find("'follow.js'"), base.find("{% block scripts %}")
                assert 0 <= follow < at, (path.name, script)
    assert loading >= 2


# -- one home each -------------------------------------------------------------------------

def _calls(attribute: str, under: Path = PACKAGE) -> set[tuple[str, str]]:
    """Every (module, top-level function or class) of the package calling ``x.attribute(``
    outside the families' own folders."""
    found = set()
    for path in _python_files(under):
        if path.relative_to(PACKAGE).parts[0] == "families":
            continue
        for top in ast.parse(path.read_text(encoding="utf-8")).body:
            for node in ast.walk(top):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and node.func.attr == attribute:
                    found.add((_module_name(path), getattr(top, "name", "")))
    return found


def test_the_service_is_the_one_game_loader():
    """Only ``domain/service.py`` replays a history (``fold``): its ``Game`` on first use,
    a correction, an import; nothing else outside the families replays a game."""
    assert {m for m, _ in _calls("fold")} == {"scorekeeper.domain.service"}


def test_figures_are_made_by_figures_rows_alone_and_kept_by_its_callers():
    """A finished game's figures reach the store only as ``figures.rows(game)``, from the
    in-write handler (the start's backfill of an older database raises ``GameFinished``
    for each game that lacks them, in the write that keeps them)."""
    assert _calls("rows") == {("scorekeeper.domain.handlers", "keep_figures")}
    # kept by figures.keep (the handler's), in the write of a deal or of the backfill
    assert {m for m, _ in _calls("put_figures") | _calls("write_figures")} \
        == {"scorekeeper.domain.figures", "scorekeeper.domain.service"}


#: The store's public functions that write without ``@writes`` of their own: each is called
#: inside a write's transaction (the in-write handlers', or the store's own writes').
IN_A_WRITE = {"put_figures", "touch_tournament_of",
              "add_totals", "set_first", "set_runs", "carry_runs", "add_rated_game", "drop_rated_game",
              "count_casual", "put_rating_seats", "put_ratings"}


def test_every_write_of_the_store_is_a_writes_function():
    """Each public function of the storage's writing modules whose own statements change rows is
    decorated ``@writes`` (committed whole by it), but those the map names
    as called inside one."""
    changes = re.compile(r"^\s*(insert|update|delete|replace)\b", re.IGNORECASE)
    nodes = [node for path in sorted((PACKAGE / "storage").glob("*.py"))
             if path.name != "backups.py" and not path.name.endswith("_reads.py")
             for node in ast.parse(path.read_text(encoding="utf-8")).body]
    bare = set()
    for node in nodes:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            decorated = any(isinstance(d, ast.Name) and d.id == "writes"
                            for d in node.decorator_list)
            writing = any(isinstance(n, ast.Constant) and isinstance(n.value, str)
                          and changes.search(n.value) for n in ast.walk(node)) or any(
                isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                and n.func.attr in ("insert", "insert_all", "upsert", "update", "delete",
                                    "delete_where") for n in ast.walk(node))
            if writing and not decorated:
                bare.add(node.name)
    assert bare == IN_A_WRITE


def test_only_the_write_helper_takes_the_write_lock():
    """``BEGIN IMMEDIATE`` (the write lock) is taken in ``storage/transaction.py`` alone
    (``writes``)."""
    found = {p.name for p in _python_files(PACKAGE) for _, text in _strings(p)
             if re.search(r"\bbegin\s+immediate\b", text, re.IGNORECASE)}
    assert found == {"transaction.py"}


def test_the_api_and_the_exports_keep_machine_forms():
    """``common/formats.py`` writes numbers and dates for people: the JSON API, its
    documents and the exports never import it."""
    machine = {"scorekeeper.web.api", "scorekeeper.web.openapi", "scorekeeper.web.api_models",
               "scorekeeper.web.api_answers",
               "scorekeeper.outputs.exchange",
               "scorekeeper.outputs.schema"}
    imports = _imports()
    assert all("scorekeeper.common.formats" not in imports[m] for m in machine)


def test_every_right_is_read_in_access():
    """``web/access.py`` is the one home of every right: no other module reads the
    session but for its device id (rate limits), its flashed messages and its CSRF token
    (kept pages)."""
    keys: dict[str, set[str]] = {}
    for path in _python_files(PACKAGE):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            key = None
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
                    and node.value.id == "session":
                key = node.slice
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and isinstance(node.func.value, ast.Name) \
                    and node.func.value.id == "session" and node.args:
                key = node.args[0]
            if key is not None:
                keys.setdefault(path.name, set()).add(
                    key.value if isinstance(key, ast.Constant) else ast.unparse(key))
    assert "access.py" in keys
    elsewhere = {key for name, found in keys.items() if name != "access.py" for key in found}
    assert elsewhere <= {"device", "_flashes", "csrf_token"}


def test_one_function_opens_an_event_stream():
    found = {(m, f) for p in _python_files(PACKAGE)
             for top in ast.parse(p.read_text(encoding="utf-8")).body
             for n in ast.walk(top) if isinstance(n, ast.Constant)
             and n.value == "text/event-stream"
             for m, f in [(_module_name(p), getattr(top, "name", ""))]}
    assert found == {("scorekeeper.web.live", "answer")}


def _modules_saying(text: str, under: Path = PACKAGE) -> set[str]:
    return {_module_name(p) for p in _python_files(under)
            if text in p.read_text(encoding="utf-8")}


def test_one_function_makes_an_etag_and_one_hook_gives_the_304():
    """A view's ETag of what its answer shows is made by ``hardening.tagged`` alone, any
    other answer's by Werkzeug's ``add_etag``, and the 304 by ``make_conditional`` in the
    one ``after_request``: no view, no sheet sets one of its own."""
    assert {m for m, _ in _calls("set_etag")} == {"scorekeeper.web.hardening"}
    assert {m for m, _ in _calls("make_conditional")} == {"scorekeeper.web.hardening"}
    # access.py's HMACs (tokens), installable.py's cache name and hardening.py's static
    # file versions (URL parts) are hashes, not ETags
    assert _modules_saying("hashlib", PACKAGE / "web") == {
        "scorekeeper.web.access", "scorekeeper.web.views.installable",
        "scorekeeper.web.hardening"}
    assert _modules_saying('"ETag"') <= {"scorekeeper.web.hardening"}


def test_every_security_header_is_the_one_after_request():
    """The security headers are written by hardening's ``after_request`` alone (the
    server's own answers to a request it cannot read, ``cli.py``, take the same
    dictionary)."""
    assert _modules_saying("SECURITY_HEADERS") == {"scorekeeper.web.hardening",
                                                   "scorekeeper.cli"}



#: What a process keeps between requests in an ``LRU``: the loaded rules per stored
#: snapshot (``docs/architecture.md``, "What is kept between requests", says why).
KEPT = {("scorekeeper.families.registry", "_loaded")}


def test_what_is_kept_between_requests_is_the_short_list():
    assert {(m, n) for m, n, kind in _module_level_state() if kind == "LRU"} == KEPT
