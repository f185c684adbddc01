"""blockdensity.times: every shape a page writes a time in, read into RFC 3339, or nothing."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blockdensity.times import rfc3339

# RFC 3339's date-time (with its offset, -00:00 for an unknown one) or full-date.
RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}))?")


@pytest.mark.parametrize(
    ("declared", "expected"),
    [
        # ISO 8601 / RFC 3339, as most pages write it
        ("2019-05-02T10:30:00Z", "2019-05-02T10:30:00Z"),
        ("2019-05-02T10:30:00z", "2019-05-02T10:30:00Z"),
        ("2019-05-02T10:30:00+00:00", "2019-05-02T10:30:00Z"),
        ("2019-05-02T10:30:00+0200", "2019-05-02T10:30:00+02:00"),
        ("2019-05-02T10:30:00.120-05:00", "2019-05-02T10:30:00.12-05:00"),
        ("2019-05-02T10:30+05:30", "2019-05-02T10:30:00+05:30"),
        ("  2019-05-02 10:30:00  ", "2019-05-02T10:30:00-00:00"),  # no offset: unknown
        ("20190502T103000Z", "2019-05-02T10:30:00Z"),  # basic format
        # dates stay dates: no time is invented
        ("2019-05-02", "2019-05-02"),
        ("2019-5-2", "2019-05-02"),
        ("20190502", "2019-05-02"),
        ("2019-W18-3", "2019-05-01"),
        # RFC 2822 (HTTP, RSS)
        ("Thu, 02 May 2019 10:30:00 GMT", "2019-05-02T10:30:00Z"),
        ("Thu, 02 May 2019 10:30:00 +0530", "2019-05-02T10:30:00+05:30"),
        # human forms: English month names, US slashes, a clock anywhere
        ("Nov 20, 2019", "2019-11-20"),
        ("20 November 2019 13:38", "2019-11-20T13:38:00-00:00"),
        ("01:38:07 PM IST Nov 20, 2019", "2019-11-20T13:38:07-00:00"),
        ("Fri 6:45 PM, Feb 16, 2018", "2018-02-16T18:45:00-00:00"),
        ("12:55 AM May 3rd 2016", "2016-05-03T00:55:00-00:00"),
        ("05/29/2007 09:49:00", "2007-05-29T09:49:00-00:00"),
        ("29/05/2007", "2007-05-29"),  # 29 cannot be a month: day first
    ],
)
def test_declared_times_are_read_into_rfc3339(declared: str, expected: str) -> None:
    assert rfc3339(declared) == expected
    assert RFC3339.fullmatch(expected)


@pytest.mark.parametrize(
    "junk",
    [
        "", "   ", "yesterday", "1 hour ago", "May 2019", "0000-00-00", "0001-01-01T00:00:00Z",
        "2019-13-01", "2019-02-30", "Nov 31, 2019", "13:00 PM Nov 20, 2019", "3019-01-01",
        "2019-05-02T25:00:00Z", "x" * 81, "2019-05-02T10:30:00" + " " * 70 + "Z",
    ],
)  # fmt: skip
def test_what_is_not_a_time_of_this_web_is_none(junk: str) -> None:
    assert rfc3339(junk) is None


@given(st.text(max_size=90))
def test_any_string_gives_rfc3339_or_none_never_an_exception(value: str) -> None:
    result = rfc3339(value)
    assert result is None or RFC3339.fullmatch(result)
