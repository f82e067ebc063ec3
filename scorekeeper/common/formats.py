"""Numbers and dates as the page's language writes them: the one place that formats them.

Everything a person reads (pages, charts, the PDF sheets) goes through here; what a
program reads (the JSON API, the exports) keeps machine forms (``-52.5``, ISO dates).
Babel does the work from CLDR's data (``81,2`` and ``25 lis 2026`` in Polish), with two
choices of the app's own:

* a negative number has a real minus sign (U+2212), and points carry a ``+`` above zero
  (``+680``, ``−52,5``, ``0``);
* thousands are grouped as the language groups them (a no-break space in Polish, so a
  number never wraps), but Polish leaves a four-digit number whole (``1300``, ``13 000``)
  as CLDR's ``minimumGroupingDigits`` says (Babel does not apply it); points do so in
  every language (``+1300``, ``−12,000``), so that a column of scores fits a phone.

Dates are Babel's *medium* form, a time its *short* form; stored moments are UTC, shown in
the display zone (Flask-Babel's ``BABEL_DEFAULT_TIMEZONE``, set at start by
:func:`display_zone`). ``locale`` may be given (a code or a :class:`babel.Locale`); left
out, it is the request's language, or English outside a request (Flask is imported only
to ask, so the charts stay plain Python).

>>> signed(680, locale="pl"), signed(-52.5, locale="pl"), signed(-52.5, locale="en")
('+680', '−52,5', '−52.5')
>>> number(81.25, 1, "pl"), number(12345, locale="pl"), number(1300, locale="pl")
('81,2', '12\\xa0345', '1300')
>>> date("2026-11-25T21:15:00+00:00", "pl"), date("2026-11-25", "en")
('25 lis 2026', 'Nov 25, 2026')
>>> moment("2026-11-25T21:15:00+00:00", "pl"), moment("2026-11-25T21:15:00+00:00", "en")
('25 lis 2026, 21:15', 'Nov 25, 2026, 9:15\\u202fPM')
>>> day("2026-11-25", "pl"), time("2026-11-25T21:15:00+00:00", "pl")
('25 lis', '21:15')
"""
from __future__ import annotations

import datetime as dt
import os
from contextlib import suppress
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel import Locale
from babel import dates as babel_dates
from babel import numbers as babel_numbers

MINUS = "−"  # U+2212
NONE = "–"  # a figure there is none of (no game yet)
#: Languages that leave a four-digit number ungrouped (CLDR's minimumGroupingDigits 2).
_UNGROUPED_BELOW = {"pl": 10_000}
#: Points (:func:`signed`) are grouped from five digits in every language.
_POINTS_UNGROUPED_BELOW = 10_000
#: Each language's decimal sign and thousands separator, from CLDR (Babel's data).
_SIGNS = {code: (babel_numbers.get_decimal_symbol(code), babel_numbers.get_group_symbol(code))
          for code in ("en", "pl")}

LocaleLike = Locale | str | None


def _locale(locale: LocaleLike) -> Locale:
    if locale is None:
        from flask_babel import get_locale  # None outside an app's context

        locale = get_locale() or "en"
    return locale if isinstance(locale, Locale) else Locale.parse(locale)


def _digits(value: float, locale: LocaleLike, decimals: int, fixed: bool = False,
            points: bool = False, plus: bool | None = False) -> str:
    """``value`` in the language's digits: grouped thousands, its decimal sign, up to (or,
    ``fixed``, exactly) ``decimals`` decimals, rounded half to even as Babel rounds; a minus
    sign below zero, a plus above it too when ``plus``, no sign at all when it is None, nor
    on a figure that rounds to zero.

    >>> _digits(2.675, "en", 2), _digits(12345.5, "pl", 1, True), _digits(-0.04, "pl", 1)
    ('2.68', '12\xa0345,5', '0')
    """
    code = _locale(locale).language
    below = _POINTS_UNGROUPED_BELOW if points else _UNGROUPED_BELOW.get(code[:2], 1000)
    point, group = _SIGNS.get(code[:2], _SIGNS["en"])
    exact = Decimal(str(abs(value))).quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_EVEN)
    whole, _, tail = (f"{exact:,f}" if abs(value) >= below else f"{exact:f}").partition(".")
    tail = tail if fixed else tail.rstrip("0")
    text = whole.replace(",", group) + (point + tail if tail else "")
    sign = ("+" if value > 0 else MINUS) if plus else MINUS if value < 0 else ""
    return text if plus is None or not text.strip("0,.") else sign + text


def number(value: float | None, digits: int = 2, locale: LocaleLike = None) -> str:
    """A figure (an average place, a count): up to ``digits`` decimals, a minus sign when
    below zero, a dash for none.

    >>> number(2.346, locale="pl"), number(-0.04, 1, "en"), number(None)
    ('2,35', '0', '–')
    >>> number(1300, locale="en"), number(-1300, locale="pl")
    ('1,300', '−1300')
    """
    return NONE if value is None else _digits(value, locale, digits)


def signed(value: float, digits: int = 1, locale: LocaleLike = None) -> str:
    """Points as a score sheet writes them: ``+25``, ``−20``, ``0``, ``+2,5``.

    >>> signed(1300, locale="en"), signed(-12000, locale="pl"), signed(-12000, locale="en")
    ('+1300', '−12\xa0000', '−12,000')
    >>> signed(0.04), signed(0)
    ('0', '0')
    """
    if type(value) is int and -_POINTS_UNGROUPED_BELOW < value < _POINTS_UNGROUPED_BELOW:
        return f"{value:+d}".replace("-", MINUS) if value else "0"  # alike in every language
    return _digits(value, locale, digits, points=True, plus=True)


def money(cents: int, signed: bool = False, locale: LocaleLike = None) -> str:
    """Cents as money is written, always two decimals: ``1,50`` in Polish; ``signed``:
    ``+1,50``, ``−0,25``.

    >>> money(150, locale="pl"), money(-25, True, "en"), money(0, True, "pl")
    ('1,50', '−0.25', '0,00')
    """
    return _digits(cents / 100, locale, 2, True, plus=True if signed else None)


def _when(value: Any, zone: dt.tzinfo | None) -> dt.date | dt.datetime | None:
    """A stored moment (ISO text or a datetime, UTC unless it says) in the display zone,
    or a day (ISO ``YYYY-MM-DD`` or a date) as it is."""
    if isinstance(value, str):
        try:  # "" too: no date, shown as it is
            value = dt.date.fromisoformat(value) if len(value) == 10 else dt.datetime.fromisoformat(value)
        except ValueError:
            return None
    if isinstance(value, dt.datetime):
        if zone is None:
            from flask import has_app_context
            from flask_babel import get_timezone

            zone = (get_timezone() if has_app_context() else None) or dt.UTC
        return (value if value.tzinfo else value.replace(tzinfo=dt.UTC)).astimezone(zone)
    return value if isinstance(value, dt.date) else None


def date(value: Any, locale: LocaleLike = None, zone: dt.tzinfo | None = None) -> str:
    """A day, in the language's medium form: ``25 lis 2026``, ``Nov 25, 2026``; text it
    cannot read is shown as it is."""
    when = _when(value, zone)
    if when is None:
        return str(value or "")
    return babel_dates.format_date(when, "medium", locale=_locale(locale))


def day(value: Any, locale: LocaleLike = None, zone: dt.tzinfo | None = None) -> str:
    """A day without its year (a chart's axis): ``25 lis``, ``Nov 25``."""
    when = _when(value, zone)
    if when is None:
        return str(value or "")
    return babel_dates.format_skeleton("MMMd", when, locale=_locale(locale))


def time(value: Any, locale: LocaleLike = None, zone: dt.tzinfo | None = None) -> str:
    """The time of a moment, short: ``21:15``, ``9:15 PM``."""
    when = _when(value, zone)
    if not isinstance(when, dt.datetime):
        return str(value or "")
    return babel_dates.format_time(when, "short", locale=_locale(locale))


def moment(value: Any, locale: LocaleLike = None, zone: dt.tzinfo | None = None) -> str:
    """A day and its time: ``25 lis 2026, 21:15``, ``Nov 25, 2026, 9:15 PM``."""
    when = _when(value, zone)
    if not isinstance(when, dt.datetime):
        return date(value, locale, zone)
    loc = _locale(locale)
    return babel_dates.get_datetime_format("medium", locale=loc).replace(
        "{1}", babel_dates.format_date(when, "medium", locale=loc)).replace(
        "{0}", babel_dates.format_time(when, "short", locale=loc))


def register(env: Any) -> None:
    """The formats as Jinja filters (``{{ x | signed }}``, ``{{ when | date }}``) and the
    number ones also as functions (``signed(x)``)."""
    for f in (number, signed, money, date, day, time, moment):
        env.filters[f.__name__] = f
    env.globals.update(number=number, signed=signed, money=money)


def display_zone(name: str | None = None, machine: str | None = None) -> str:
    """The IANA name of the zone times are shown in: ``name`` (``KIERKI_TIMEZONE``) when
    given, else the machine's own (``TZ``, ``/etc/timezone``, or the zone ``/etc/localtime``
    links to), else UTC. A name that is no zone is refused (``ValueError``) when the server
    starts, not at the first page.

    >>> display_zone("Europe/Warsaw"), display_zone(None, machine="")
    ('Europe/Warsaw', 'UTC')
    """
    chosen = name.strip() if isinstance(name, str) else ""
    chosen = chosen or (_machine_zone() if machine is None else machine or "UTC")
    try:
        ZoneInfo(chosen)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name too long for a path
        if name:
            raise ValueError(f"KIERKI_TIMEZONE={name!r} is not a time zone (such as "
                             f"Europe/Warsaw)") from None
        return "UTC"
    return chosen


def _machine_zone() -> str:
    given = os.environ.get("TZ", "").lstrip(":").strip()
    if given and not given.startswith("/"):
        return given
    with suppress(OSError):
        if named := Path("/etc/timezone").read_text().strip():
            return named
    return os.path.realpath("/etc/localtime").partition("zoneinfo/")[2] or "UTC"
