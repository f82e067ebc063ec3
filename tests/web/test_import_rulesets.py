"""An exported game whose ruleset was changed anywhere (a wrong type, a plain-string name,
a huge number, deep nesting) is refused with a message, or imported and then shown
everywhere: its page, the API, the CSV and the sheet; never a server error."""
import copy
import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import create_app
from scorekeeper.families.kierki.rules import get_ruleset
from tests.fixtures import errors_in, results_for

PLAYERS = ["Ala", "Bożena", "Czesław", "Dorota"]
TYBET_DEAL = {"declarations": [[{"kind": "cezar", "suit": "H", "extra": 1}], [], [], []],
              "aces": [3, 1], "honours": [11, 9], "last": 0, "special": None}


def _nested(depth):
    value: object = 1
    for _ in range(depth):
        value = [value] if depth % 2 else {"x": value}
    return value


#: What a file's ruleset may hold in the wrong place.
ODD = st.one_of(
    st.sampled_from([None, True, 0, -1, 1, 3, 4, 5, 13, 21, 10**30, -(10**30), 1.5, "",
                     "x", "4", "Our rules", "no_hearts", "tricks", "hearts", "pair",
                     "player", [], {}, ["x"], [1, 2], [None], {"en": "x"},
                     {"en": "x", "pl": "y"}, {"en": 5, "pl": "y"}, {"en": "x" * 5000,
                                                                  "pl": "y"},
                     {"kind": "tricks", "points": -20}, {"by": "pair", "bonus": 3},
                     "x" * 5000, "=HYPERLINK(\"x\")", "<b>x</b>"]),
    st.integers(min_value=1, max_value=40).map(_nested),
    st.integers(),
    st.text(max_size=6),
)


def _places(value, path=()):
    if path:
        yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _places(item, (*path, key))
        yield (*path, "name")  # a key that may be new here (a contract's own name)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _places(item, (*path, i))


def _changed(ruleset, path, value):
    out = copy.deepcopy(ruleset)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return out


@pytest.fixture
def app(tmp_path):
    """A property test imports hundreds of files from one client in a minute: past the
    per-client limits of a real server (tests/web/test_limits.py tests those)."""
    return create_app({"DATABASE": str(tmp_path / "test.sqlite"), "SECRET_KEY": "test",
                       "TESTING": True, "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False,
                       "PDF_CACHE_DIR": str(tmp_path / "sheets")})


def _import(client, exported):
    raw = json.dumps(exported).encode()
    return client.post("/games/import", data={"file": (io.BytesIO(raw), "game.json")},
                       content_type="multipart/form-data")


def _exported(client, ruleset, results, **extra):
    made = client.post("/api/games", json={"ruleset": ruleset, "players": PLAYERS,
                                           "first_dealer": 0, **extra})
    game = made.get_json()
    auth = {"Authorization": f"Bearer {game['token']}"}
    for number, result in enumerate(results, start=1):
        r = client.put(f"/api/games/{game['id']}/deals/{number}",
                       json={"version": number, "result": result}, headers=auth)
        assert r.status_code == 200, r.get_json()
    return json.loads(client.get(f"/games/{game['id']}/export.json").data)


def _check(client, exported, data):
    path = data.draw(st.sampled_from(list(_places(exported["ruleset"]))))
    odd = data.draw(ODD)
    r = _import(client, {**exported, "ruleset": _changed(exported["ruleset"], path, odd)})
    assert r.status_code in (302, 422), (path, odd, r.status_code)
    if r.status_code == 422:
        assert errors_in(r.text), (path, odd)
        return
    gid = r.location.rsplit("/", 1)[1]
    for page in (f"/games/{gid}", f"/api/games/{gid}", f"/games/{gid}/export.csv",
                 f"/games/{gid}/sheet", f"/games/{gid}/export.json"):
        assert client.get(page).status_code == 200, (page, path, odd)


SOME = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


@SOME
@given(data=st.data())
def test_a_kierki_export_with_its_ruleset_changed_anywhere(client, data):
    results = results_for(get_ruleset("standard-4"))[:3]
    exported = _exported(client, "standard-4", results)
    _check(client, exported, data)


@SOME
@given(data=st.data())
def test_a_tybet_export_with_its_ruleset_changed_anywhere(client, data):
    exported = _exported(client, "tybet-21", [TYBET_DEAL])
    _check(client, exported, data)


def test_a_contract_named_by_a_plain_string_is_refused(client):
    """The name of a contract is a text in each language; a plain string (which the
    import once took, and the game page, the API and the CSV then failed on) is
    refused."""
    exported = _exported(client, "standard-4", results_for(get_ruleset("standard-4"))[:1])
    for name in ("Bez lew", {"en": "No tricks"}, {"en": "", "pl": "Bez lew"}):
        changed = _changed(exported["ruleset"], ("contracts", "no_tricks", "name"), name)
        r = _import(client, {**exported, "ruleset": changed})
        assert r.status_code == 422
        assert errors_in(r.text) == ["The rules in the file are damaged."]
    named = _changed(exported["ruleset"], ("contracts", "no_tricks", "name"),
                     {"en": "Nothing", "pl": "Nic"})
    r = _import(client, {**exported, "ruleset": named})
    assert r.status_code == 302
    gid = r.location.rsplit("/", 1)[1]
    assert client.get(f"/games/{gid}/export.csv").status_code == 200
    assert client.get(f"/api/games/{gid}").status_code == 200


def test_the_pdf_sheet_of_an_imported_ruleset(client):
    """An imported game whose rules were changed (so kept as its own) prints."""
    exported = _exported(client, "standard-4", results_for(get_ruleset("standard-4"))[:2])
    changed = _changed(exported["ruleset"], ("contracts", "no_tricks", "points"), -2000)
    r = _import(client, {**exported, "ruleset": changed})
    assert r.status_code == 302
    gid = r.location.rsplit("/", 1)[1]
    pdf = client.get(f"/games/{gid}/sheet.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
