"""The app's JSON (safejson.py) reads as the standard library reads, with a bound on
nesting, and writes a document with parts written once (``Written``) as it writes the
whole.
"""
import datetime
import json

import flask
import pytest

from scorekeeper.common.safejson import MAX_DEPTH, Written, loads
from scorekeeper.families.kierki.rules import get_ruleset
from scorekeeper.web.jsonprovider import BoundedJSONProvider, whole_numbers
from tests.fixtures import results_for


def same_as_the_standard_library(text):
    """``loads(text)`` is ``json.loads(text)``: equal, and of the same types all the way
    down (1 is not 1.0, -0.0 is not 0.0), with the keys in the same order; Flask's
    requests read it so too, a whole float as the integer it is."""
    theirs = json.loads(text)
    for ours, expected in ((loads(text), theirs), (_FLASK.loads(text), whole_numbers(theirs))):
        assert repr(ours) == repr(expected)
        assert _typed(ours) == _typed(expected)


_FLASK = BoundedJSONProvider(flask.Flask("read"))


def _typed(value):
    if isinstance(value, dict):
        return [(k, _typed(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return type(value).__name__, repr(value)


ORDINARY = [
    '{"version": 3, "result": {"tricks": [13, 0, 0, 0]}}',
    json.dumps({"version": 12, "result": results_for(get_ruleset("standard-4"))[6]}),
    json.dumps({"ruleset": "standard-4", "players": ["Ala", "Bożena", "Żółć ♥", "<b>x</b>"],
                "first_dealer": 2}, ensure_ascii=False),
    json.dumps({"players": ["Żółć ♥"]}),  # as \\u escapes
    '{"a": {"b": {"c": [1, [2, [3, {"d": [null, true, false]}]]]}}, "e": [], "f": {}}',
    '["\\ud83c\\udca1", "\\u017b\\u00f3\\u0142\\u0107", "tab\\there", "\\"quoted\\"", "\\\\"]',
    '[0.1, 2.5, 1e-7, 1.5e300, 5e-324, 1.7976931348623157e308, 1E5, 3.0, -2.25e-3]',
    '[-0.0, -0, 0, 0.0, -1, -0e0]',
    '{"a": 1, "b": 2, "a": 3}',  # the last of a key twice wins, in the first one's place
    '{"a": {"x": 1}, "a": [2]}',
    "[9223372036854775807, -9223372036854775807, 18446744073709551615, 9007199254740993]",
    '  \n\t{"spaced" : [ 1 , 2 ] }\r\n  ',
    '"just a string"', "42", "null", "true", "[]", "{}",
]


@pytest.mark.parametrize("text", ORDINARY)
@pytest.mark.parametrize("given_as", ["str", "bytes", "bytearray"])
def test_ordinary_json_reads_as_the_standard_library_reads_it(text, given_as):
    data = {"str": text, "bytes": text.encode(), "bytearray": bytearray(text.encode())}
    same_as_the_standard_library(data[given_as])


#: What orjson refuses or would read otherwise (an integer past 64 bits as a float), read
#: by the standard library.
REFUSED_BY_ORJSON = [
    pytest.param(str(2**70), id="2**70"),
    pytest.param(f'{{"version": {2**70}, "result": {{}}}}',
                 id="2**70 in a body"),
    pytest.param(str(-2**70), id="-2**70"),
    pytest.param(str(2**64), id="2**64"),
    pytest.param(str(-2**63 - 1), id="-2**63-1"),
    pytest.param(f"[1, 2, {2**70}]", id="2**70 in a list"),
    pytest.param(b'{"big": 18446744073709551616, "n": NaN}', id="the doctest's"),
    pytest.param('[NaN, Infinity, -Infinity]', id="NaN, Infinity"),
    pytest.param('{"n": NaN, "big": 1e400, "small": -1e400}', id="NaN, 1e400"),
    pytest.param('"\\ud800 lone surrogate"', id="a lone surrogate"),
    pytest.param('{"players": ["Żółć ♥", "Ala"], "v": [1, 2.5]}'.encode("utf-16"),
                 id="UTF-16 with a BOM"),
    pytest.param('{"players": ["Żółć ♥"], "v": [1, -0.0]}'.encode("utf-16-le"),
                 id="UTF-16-LE"),
    pytest.param('{"players": ["Żółć ♥"], "v": [1, 0.1]}'.encode("utf-16-be"),
                 id="UTF-16-BE"),
    pytest.param('{"players": ["Żółć ♥"], "v": 3}'.encode("utf-32"), id="UTF-32"),
    pytest.param('{"players": ["Żółć ♥"]}'.encode("utf-8-sig"), id="UTF-8 with a BOM"),
]


@pytest.mark.parametrize("text", REFUSED_BY_ORJSON)
def test_what_orjson_refuses_reads_as_the_standard_library_reads_it(text):
    same_as_the_standard_library(text)


BROKEN = ["{not json", "", "   ", "[1,]", '{"a": 1,}', '{"a":}', '{"a" 1}', '"unterminated',
          "[1] x", "[1] [2]", "{'a': 1}", "tru", "01", "1.", ".5", "+1", "0x10", "[1 2]",
          '{"a": 1', '"tab\there"', '"\\x41"', "[nan]", "[-Infinity1]"]


@pytest.mark.parametrize("text", [*BROKEN, *(t.encode() for t in BROKEN),
                                  "\ufeff[1]"])  # a BOM: in bytes, UTF-8's; in text, wrong
def test_broken_json_raises_the_standard_librarys_error(text):
    with pytest.raises(ValueError) as expected:
        json.loads(text)
    with pytest.raises(ValueError) as raised:
        loads(text)
    assert type(raised.value) is type(expected.value)
    assert str(raised.value) == str(expected.value)


def test_bytes_that_are_not_utf8_raise_as_the_standard_library_does():
    for text in (b'"\xff"', b'{"a": "\xc3"}', b"\x80[1]"):
        with pytest.raises(ValueError) as expected:
            json.loads(text)
        with pytest.raises(ValueError) as raised:
            loads(text)
        assert (type(raised.value), str(raised.value)) == \
            (type(expected.value), str(expected.value))


def _nested(depth, inner="1"):
    return "".join("[" if i % 2 else '{"k":' for i in range(depth)) + inner + \
        "".join("]" if i % 2 else "}" for i in reversed(range(depth)))


@pytest.mark.parametrize("encoding", [None, "utf-8", "bytearray", "utf-8-sig", "utf-16",
                                      "utf-16-le", "utf-16-be", "utf-32"])
@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, MAX_DEPTH + 5, 100_000])
def test_json_nested_deeper_than_the_bound_is_a_value_error(encoding, depth):
    text = _nested(depth)
    data = text if encoding is None else bytearray(text.encode()) \
        if encoding == "bytearray" else text.encode(encoding)
    with pytest.raises(ValueError, match=f"nested deeper than {MAX_DEPTH} levels"):
        loads(data)


@pytest.mark.parametrize("given_as", ["str", "bytes"])
def test_json_as_deep_as_the_bound_and_brackets_in_strings_are_read(given_as):
    for text in (_nested(MAX_DEPTH), json.dumps({"a": ["[[[{{{" * 50, {"b": "]]]}}}" * 50}]}),
                 json.dumps(["\\\"[" * 40, "[" * 40])):
        same_as_the_standard_library(text if given_as == "str" else text.encode())


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le"])
def test_utf16_json_nested_deeper_than_the_bound_is_a_value_error_whatever_its_strings(
        encoding):
    deep = '["\u2200", ' + "[" * 5000 + "]" * 5000 + ', "x"]'
    with pytest.raises(ValueError):
        loads(deep.encode(encoding))


# -- Written ---------------------------------------------------------------------------

@pytest.fixture
def provider():
    return BoundedJSONProvider(flask.Flask("t"))


def deal(number):
    return {"number": number, "points": [0, -20 * number, 20 * number, 0],
            "totals": [number, -number, 0, 0], "result": {"tricks": [13, 0, 0, 0]},
            "dealer": number % 4, "leader": None, "sum": 0.5 * number, "expected_sum": -0.0,
            "name": "Żółć ♥ <b>", "zeta": 1e16, "alpha": [{"y": 1, "x": 2}]}


def document(written, **more):
    """A game's answer, its recorded deals and schedule as Written parts or plain."""
    wrap = Written if written else (lambda obj: obj)
    schedule = [{"number": n, "contract": "tricks", "fields": [{"name": "t", "total": 13}],
                 "kind": "tricks", "name": "Bez lew ♠"} for n in range(1, 4)]
    return {"id": "gAbC", "version": 4, "players": [{"name": "Żaneta", "seat": 0}],
            "deals": [wrap(deal(n)) for n in range(1, 4)], "schedule": wrap(schedule),
            "nested": wrap({"inner": wrap([wrap({"b": 1, "a": 2})])}),
            "when": datetime.datetime(2026, 11, 23, 19, 46, 36, tzinfo=datetime.UTC),
            "finished": False, "sum": None, **more}


@pytest.mark.parametrize("more", [{}, {"big": 2**70}, {"big": [1, -2**70]},
                                  {"nan": float("nan")}],
                         ids=["plain", "2**70", "-2**70 in a list", "NaN"])
@pytest.mark.parametrize("options", [{}, {"indent": 2}, {"ensure_ascii": True},
                                     {"separators": (", ", ": ")}],
                         ids=["compact", "indent=2", "ensure_ascii", "separators"])
def test_a_document_with_written_parts_is_written_as_the_whole(provider, more, options):
    written = provider.dumps(document(True, **more), **options)
    plain = provider.dumps(document(False, **more), **options)
    assert written == plain
    assert repr(json.loads(written)) == repr(json.loads(plain))
    value = json.loads(written)
    assert value["deals"][1]["points"] == [0, -40, 40, 0]
    assert list(value["deals"][0]) == sorted(value["deals"][0])  # keys sorted inside it
    assert value["nested"] == {"inner": [{"a": 2, "b": 1}]}
    if "big" in more:
        assert value["big"] == more["big"]  # exact, not a float


def test_a_written_part_is_the_same_text_in_every_answer_and_at_the_top(provider):
    part = Written(deal(2))
    assert provider.dumps(part) == provider.dumps(deal(2))
    assert provider.dumps(part, indent=2) == provider.dumps(deal(2), indent=2)
    assert provider.dumps([part, part]) == provider.dumps([deal(2), deal(2)])
    assert provider.dumps({"a": part, "big": 2**70}) == \
        provider.dumps({"a": deal(2), "big": 2**70})


def test_flask_answers_a_written_part_as_the_plain_one_debug_or_not():
    app = flask.Flask("t")
    app.json = BoundedJSONProvider(app)
    for debug in (False, True):  # debug: Flask indents
        app.debug = debug
        with app.app_context():
            assert app.json.response(document(True)).data == \
                app.json.response(document(False)).data
