"""The Polish catalog is complete, compiled, and keeps every placeholder."""
import re
from pathlib import Path

from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

import scorekeeper

MESSAGES = Path(scorekeeper.__file__).parent / "translations" / "pl" / "LC_MESSAGES"
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def catalog():
    with open(MESSAGES / "messages.po", "rb") as f:
        return read_po(f)


def test_every_message_is_translated_with_its_placeholders():
    for msg in catalog():
        if not msg.id:
            continue
        ids = msg.id if isinstance(msg.id, tuple) else (msg.id,)
        strs = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        assert all(strs), f"untranslated: {msg.id!r}"
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        for s in strs:
            assert set(PLACEHOLDER.findall(s)) == wanted, (msg.id, s)


def _plain(catalog_):
    def key(v):
        return tuple(v) if isinstance(v, (list, tuple)) else v
    return {key(m.id): key(m.string) for m in catalog_ if m.id}


def test_the_compiled_catalog_matches_the_source():
    with open(MESSAGES / "messages.mo", "rb") as f:
        compiled = _plain(read_mo(f))
    source = _plain(catalog())
    assert compiled == source, "run: make translations (or pybabel compile)"


def test_every_message_in_the_code_is_in_the_catalog():
    from babel.messages.extract import extract_from_dir

    root = Path(scorekeeper.__file__).parents[1]
    method_map = [("scorekeeper/**.py", "python"), ("templates/**.html", "jinja2")]
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "_l": None,
                "lazy_gettext": None}
    found = set()
    for _file, _line, message, _comments, _ctx in extract_from_dir(
            str(root), method_map, keywords=keywords):
        found.add(tuple(message) if isinstance(message, (list, tuple)) else message)
    known = {tuple(m.id) if isinstance(m.id, (list, tuple)) else m.id for m in catalog()}
    missing = sorted(map(str, found - known))
    assert not missing, f"not in the Polish catalog (make translations): {missing}"


