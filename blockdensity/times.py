"""Times as pages declare them, read into RFC 3339 (or nothing).

Pages write their published and modified times in every shape: ISO 8601
with or without an offset, with a space for the T, with fractions, in the
basic format (20190502T103000Z; Python 3.11's fromisoformat reads all of
ISO 8601's), as an RFC 2822 date (HTTP's and RSS's),
or as a bare date. Out comes one shape, RFC 3339:

- a date-time with its offset, seconds always, fractions only when given
  (`2019-05-02T10:30:00+02:00`, `2019-05-02T08:30:00.5Z` for UTC);
- a date-time the page gave without an offset keeps none as RFC 3339 says
  (section 4.3): `-00:00`, "the offset to local time is unknown";
- a bare date stays a date (`2019-05-02`, RFC 3339's full-date): a time
  the page did not give is not invented.

Failing those, the human forms pages also put in their `content`
(`Nov 20, 2019`, `20 November 2019 13:38`, `Fri 6:45 PM, Feb 16, 2018`,
`05/29/2007 09:49:00`): English month names, or a slashed date read as
month/day/year (the US order, which is where such dates come from) unless
the first number cannot be a month. Their time, if any, keeps no offset
(-00:00): a zone abbreviation is ambiguous (IST is India's, Israel's and
Ireland's), so none is read.

Anything else is no time (None), never an exception. Years outside
1900-2999 are taken as junk (a `0000-00-00` placeholder, a typo): no page
of the web was published before 1900.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from email.utils import parsedate_to_datetime
from typing import Final

__all__ = ["rfc3339"]

_EARLIEST_YEAR: Final = 1900
_LATEST_YEAR: Final = 2999
# Longer strings are not a time (and are not worth a regex's look).
_MAX_LENGTH: Final = 80

_DATE_ONLY: Final = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})|(\d{4})(\d{2})(\d{2})")
_HAS_TIME: Final = re.compile(r"[Tt ]\d")


def rfc3339(value: str) -> str | None:
    """`value` (a time as a page declares it) in RFC 3339; None if it is not a time."""
    text = value.strip()
    if not text or len(text) > _MAX_LENGTH:
        return None
    day_match = _DATE_ONLY.fullmatch(text)
    if day_match is not None:
        return _full_date(*(int(part) for part in day_match.groups() if part is not None))
    moment = _iso(text)
    if moment is not None and _HAS_TIME.search(text) is None:
        # A week or ordinal date (2019-W18-3, 2019-122): a day, not midnight.
        return _full_date(moment.year, moment.month, moment.day)
    if moment is None:
        moment = _rfc2822(text)
    if moment is None:
        return _human(text)
    if not _EARLIEST_YEAR <= moment.year <= _LATEST_YEAR:
        return None
    return _format(moment)


def _full_date(year: int, month: int, day: int) -> str | None:
    try:
        day_value = date(year, month, day)
    except ValueError:
        return None
    if not _EARLIEST_YEAR <= day_value.year <= _LATEST_YEAR:
        return None
    return day_value.isoformat()


def _iso(text: str) -> datetime | None:
    candidate = text.replace(" ", "T", 1) if len(text) > 10 and text[10] == " " else text
    if candidate[-1:] in "zZ":
        candidate = candidate[:-1] + "+00:00"
    try:
        return datetime.fromisoformat(candidate)
    except ValueError:
        return None


def _rfc2822(text: str) -> datetime | None:
    try:
        return parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


_MONTHS: Final = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
            ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
            ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
            ("dec", "december"),
        ),
        start=1,
    )
    for name in names
}  # fmt: skip
_MONTH_FIRST: Final = re.compile(r"\b([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b")
_DAY_FIRST: Final = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})\b")
_SLASHED: Final = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")
_CLOCK: Final = re.compile(r"\b(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp])\.?[Mm]\b\.?)?")
_NOON: Final = 12


def _human(text: str) -> str | None:
    day = _human_day(text)
    if day is None:
        return None
    year, month, day_of_month = day
    if _full_date(year, month, day_of_month) is None:
        return None
    clock = _CLOCK.search(text)
    if clock is None:
        return _full_date(year, month, day_of_month)
    hour, minute = int(clock[1]), int(clock[2])
    second = int(clock[3] or 0)
    if clock[4]:
        if not 1 <= hour <= _NOON:
            return None
        hour = hour % _NOON + (_NOON if clock[4] in "Pp" else 0)
    try:
        moment = datetime(year, month, day_of_month, hour, minute, second)
    except ValueError:
        return None
    return _format(moment)


def _human_day(text: str) -> tuple[int, int, int] | None:
    """(year, month, day) of a month-name or slashed date in `text`."""
    match = _MONTH_FIRST.search(text)
    if match is not None and match[1].lower() in _MONTHS:
        return int(match[3]), _MONTHS[match[1].lower()], int(match[2])
    match = _DAY_FIRST.search(text)
    if match is not None and match[2].lower() in _MONTHS:
        return int(match[3]), _MONTHS[match[2].lower()], int(match[1])
    match = _SLASHED.search(text)
    if match is not None:
        first, second = int(match[1]), int(match[2])
        month, day_of_month = (second, first) if first > _NOON else (first, second)
        return int(match[3]), month, day_of_month
    return None


def _format(moment: datetime) -> str:
    offset = moment.utcoffset()
    stamp = moment.replace(tzinfo=None).isoformat(timespec="auto")
    if len(stamp) == len("2019-05-02T10:30"):
        stamp += ":00"
    elif "." in stamp:
        stamp = stamp.rstrip("0")  # the fraction as given: .5, not .500000
    if offset is None:
        return stamp + "-00:00"
    if offset == timedelta(0):
        return stamp + "Z"
    sign = "+" if offset > timedelta(0) else "-"
    minutes = int(abs(offset).total_seconds()) // 60
    return f"{stamp}{sign}{minutes // 60:02d}:{minutes % 60:02d}"
