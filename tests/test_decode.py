"""Bytes to text (blockdensity.decode, docs/spec.md section 7): the WHATWG steps, in order.

`decode_html`, `prepare_html` and `resolve_label` are called directly: BOM,
then the caller's (HTTP) charset, then the <meta> prescan of the first 1024
bytes, then UTF-8, then the detector, then windows-1252. The end-to-end cases
then show `fit_text` and `html_to_text` decoding bytes the same way.
"""

from __future__ import annotations

import codecs

import pytest

from blockdensity import fit_text, html_to_text
from blockdensity.decode import decode_html, prepare_html, resolve_label

LATIN = (
    "caf\u00e9 na\u00efve \u201cquoted\u201d r\u00e9sum\u00e9 \u2013 fa\u00e7ade d\u00e9j\u00e0 vu"
)
CYRILLIC = "\u041f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440"


def html_bytes(text: str, encoding: str, head: str = "") -> bytes:
    return f"<html><head>{head}</head><body><p>{text}</p></body></html>".encode(encoding)


def same_encoding(name: str | None, expected: str) -> bool:
    assert name is not None
    return codecs.lookup(name).name == codecs.lookup(expected).name


# --------------------------------------------------------------------------- labels


@pytest.mark.parametrize(
    ("label", "name"),
    [
        ("utf-8", "utf-8"),
        ("UTF8", "utf-8"),
        ("unicode-1-1-utf-8", "utf-8"),
        (' "utf-8" ', "utf-8"),  # quotes and spaces around a label are not part of it
        ("latin1", "windows-1252"),
        ("iso-8859-1", "windows-1252"),
        ("ascii", "windows-1252"),
        ("x-sjis", "shift_jis"),
        ("gb2312", "gbk"),
        ("l9", "iso-8859-15"),
        ("iso-2022-kr", "replacement"),
        ("x-user-defined", "x-user-defined"),
    ],
)
def test_resolve_label_gives_the_whatwg_name(label: str, name: str) -> None:
    assert resolve_label(label) == name


@pytest.mark.parametrize("label", ["rot13", "idna", "utf-32", "cp037", "base64", "", "no-such"])
def test_resolve_label_is_none_for_what_browsers_ignore(label: str) -> None:
    assert resolve_label(label) is None


# --------------------------------------------------------------------------- prepare_html


def test_utf8_stays_bytes_for_the_parser() -> None:
    """The parser reads UTF-8 itself: valid UTF-8 and plain ASCII come back as the same bytes."""
    data = "<p>caf\u00e9</p>".encode()
    assert prepare_html(data) == (data, "utf-8")
    assert prepare_html(b"<p>x</p>") == (b"<p>x</p>", "utf-8")
    assert prepare_html(data, "utf-8") == (data, "utf-8")


def test_a_utf8_bom_is_removed_and_the_rest_stays_bytes() -> None:
    assert prepare_html(b"\xef\xbb\xbf<p>x</p>") == (b"<p>x</p>", "utf-8")


@pytest.mark.parametrize(
    ("bom", "codec", "name"),
    [(b"\xff\xfe", "utf-16-le", "utf-16le"), (b"\xfe\xff", "utf-16-be", "utf-16be")],
)
def test_a_utf16_bom_decodes_to_str_without_the_bom(bom: bytes, codec: str, name: str) -> None:
    assert prepare_html(bom + "<p>x\u00e9</p>".encode(codec)) == ("<p>x\u00e9</p>", name)


def test_other_encodings_are_decoded_to_str() -> None:
    html, encoding = prepare_html(html_bytes(CYRILLIC, "koi8-r"), "koi8-r")
    assert isinstance(html, str)
    assert CYRILLIC in html
    assert encoding == "koi8-r"


def test_decode_html_always_returns_str() -> None:
    assert decode_html("<p>caf\u00e9</p>".encode()) == ("<p>caf\u00e9</p>", "utf-8")
    assert decode_html(b"") == ("", "utf-8")


def test_empty_bytes_decode_to_empty_text() -> None:
    assert prepare_html(b"") == (b"", "utf-8")
    assert decode_html(b"", "iso-2022-kr") == ("", "replacement")


def test_gbk_is_decoded_as_gb18030_as_the_standard_says() -> None:
    """WHATWG's GBK decoder is the gb18030 decoder: four-byte sequences decode too."""
    data = "<p>\u4e2d\u6587 \U0001f600</p>".encode("gb18030")
    assert decode_html(data, "gbk")[0] == "<p>\u4e2d\u6587 \U0001f600</p>"


def test_x_user_defined_is_read_as_windows_1252() -> None:
    assert decode_html(b'<meta charset="x-user-defined"><p>caf\xe9</p>') == (
        '<meta charset="x-user-defined"><p>caf\u00e9</p>',
        "windows-1252",
    )


def test_windows_1252_decodes_every_byte_as_the_whatwg_index_does() -> None:
    """The WHATWG windows-1252 index maps each of 0x81 0x8D 0x8F 0x90 0x9D to the C1
    control of the same number; no byte is undecodable, so none becomes U+FFFD."""
    text, encoding = decode_html(b"<p>a\x81b\x8dc\x8fd\x90e\x9df</p>", "windows-1252")
    assert encoding == "windows-1252"
    assert text == "<p>a\x81b\x8dc\x8fd\x90e\x9df</p>"


# --------------------------------------------------------------------------- the prescan


def prescanned(data: bytes) -> str:
    """The encoding prepare_html settles on for `data`, which is not valid UTF-8."""
    return prepare_html(data + b"<p>caf\xe9</p>")[1]


@pytest.mark.parametrize(
    "head",
    [
        b'<meta charset="koi8-r">',
        b"<meta charset=koi8-r>",
        b"<META CHARSET='KOI8-R'>",
        b'<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">',
        b"<meta content='text/html; charset=\"koi8-r\"' http-equiv=content-type>",
        b"<meta charset=rot13><meta charset=koi8-r>",  # an unknown label says nothing
        b"<meta charset=koi8-r><meta charset=windows-1251>",  # the first one wins
        b"<meta charset=koi8-r charset=windows-1251>",  # so does the first attribute
        b'<meta charset=koi8-r content="text/html; charset=windows-1251">',
        b"<!DOCTYPE html><html lang=ru><head><title>t</title><meta charset=koi8-r>",
        b" " * 900 + b"<meta charset=koi8-r>",  # inside the first 1024 bytes
    ],
)
def test_prescan_finds_the_declaration(head: bytes) -> None:
    assert prescanned(head) == "koi8-r"


@pytest.mark.parametrize(
    "head",
    [
        b"<!-- <meta charset=koi8-r> -->",  # comments are skipped
        b'<p title="<meta charset=koi8-r>">',  # an attribute value is no tag
        b'<meta content="text/html; charset=koi8-r">',  # content needs the pragma
        b'<meta http-equiv=refresh content="text/html; charset=koi8-r">',
        b" " * 1100 + b"<meta charset=koi8-r>",  # past the first 1024 bytes
        b"<meta charset=rot13>",
    ],
)
def test_prescan_ignores_what_declares_nothing(head: bytes) -> None:
    """Without a declaration the bytes (not UTF-8) go to the detector, never to koi8-r."""
    assert prescanned(head) != "koi8-r"


RUSSIAN = (
    "\u041f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440, "
    "\u043a\u0430\u043a \u0434\u0435\u043b\u0430? "
)
JAPANESE = "\u65e5\u672c\u8a9e\u306e\u6587\u7ae0\u3067\u3059\u3002"


@pytest.mark.parametrize(
    ("text", "codec", "name"),
    [
        (RUSSIAN, "cp1251", "windows-1251"),
        (RUSSIAN, "koi8-r", "koi8-r"),
        (JAPANESE, "shift_jis", "shift_jis"),
    ],
)
def test_undeclared_bytes_that_are_not_utf8_are_detected(text: str, codec: str, name: str) -> None:
    data = f"<p>{text * 20}</p>".encode(codec)
    decoded, encoding = decode_html(data)
    assert encoding == name
    assert text in decoded


# --------------------------------------------------------------------------- through the fit


def test_utf8_is_the_default() -> None:
    data = html_bytes(LATIN + " \u65e5\u672c", "utf-8")
    text, encoding = decode_html(data)
    assert LATIN + " \u65e5\u672c" in text
    assert same_encoding(encoding, "utf-8")
    result = fit_text(data)
    assert result.text == LATIN + " \u65e5\u672c"
    assert same_encoding(result.encoding, "utf-8")


def test_str_input_reports_no_encoding() -> None:
    assert fit_text("<p>x</p>").encoding is None


@pytest.mark.parametrize(
    ("bom", "codec"),
    [(b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")],
)
def test_bom_decides_and_beats_http_charset_and_meta(bom: bytes, codec: str) -> None:
    data = bom + html_bytes(LATIN, codec, head='<meta charset="windows-1251">')
    for charset in (None, "windows-1251"):
        text, _ = decode_html(data, charset)
        assert LATIN in text
        assert "\ufeff" not in text
        assert fit_text(data, charset=charset).text == LATIN


def test_http_charset_beats_meta() -> None:
    data = html_bytes(CYRILLIC, "windows-1251", head='<meta charset="utf-8">')
    assert fit_text(data, charset="windows-1251").text == CYRILLIC
    assert same_encoding(fit_text(data, charset="windows-1251").encoding, "cp1251")
    assert html_to_text(data, charset="windows-1251") == CYRILLIC


def test_meta_charset_is_read() -> None:
    data = html_bytes(CYRILLIC, "windows-1251", head='<meta charset="windows-1251">')
    assert fit_text(data).text == CYRILLIC
    assert html_to_text(data) == CYRILLIC


def test_meta_http_equiv_is_read() -> None:
    head = '<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">'
    data = html_bytes(CYRILLIC, "koi8-r", head=head)
    assert fit_text(data).text == CYRILLIC
    assert same_encoding(fit_text(data).encoding, "koi8-r")


def test_windows_1252_page_without_declaration() -> None:
    data = html_bytes(LATIN, "cp1252")
    assert fit_text(data).text == LATIN
    assert html_to_text(data) == LATIN


@pytest.mark.parametrize(
    "data",
    [
        b'<meta charset="utf-8"><p>caf\xc3\xa9 \xff\xfe x\x80y</p>',
        b"<p>caf\xc3\xa9 \xc3 end</p>",
    ],
)
def test_invalid_utf8_becomes_replacement_character(data: bytes) -> None:
    result = fit_text(data, charset="utf-8")
    assert "caf\u00e9" in result.text
    assert "\ufffd" in result.text
    text, _ = decode_html(data, "utf-8")
    assert "\ufffd" in text


WESTERN = b"<p>\x93hi\x94 caf\xe9</p>"


@pytest.mark.parametrize(
    ("label", "data", "expected"),
    [
        ("latin1", WESTERN, "\u201chi\u201d caf\u00e9"),  # WHATWG: latin1 is windows-1252
        ("ISO-8859-1", WESTERN, "\u201chi\u201d caf\u00e9"),
        ("us-ascii", WESTERN, "\u201chi\u201d caf\u00e9"),  # so is us-ascii
        (" Windows-1252 ", WESTERN, "\u201chi\u201d caf\u00e9"),
        ("cp1252", WESTERN, "\u201chi\u201d caf\u00e9"),
        ("iso-8859-15", b"<p>\xbdhi\xff caf\xe9</p>", "\u0153hi\u00ff caf\u00e9"),
        ("UTF8", "caf\u00e9 \u65e5".encode(), "caf\u00e9 \u65e5"),
        ("x-sjis", "\u65e5\u672c\u8a9e".encode("shift_jis"), "\u65e5\u672c\u8a9e"),
        ("gb2312", "\u4e2d\u6587".encode("gbk"), "\u4e2d\u6587"),  # WHATWG: gb2312 is GBK
    ],
)
def test_charset_labels_resolve_as_whatwg_says(label: str, data: bytes, expected: str) -> None:
    if not data.startswith(b"<p>"):
        data = b"<p>" + data + b"</p>"
    assert fit_text(data, charset=label).text == expected
    assert expected in decode_html(data, label)[0]


def test_replacement_encoding_labels_decode_to_one_replacement_character() -> None:
    """WHATWG maps iso-2022-kr (and csiso2022kr, hz-gb-2312, ...) to 'replacement'."""
    data = b"<p>\x93hi\x94 caf\xe9</p>"
    assert fit_text(data, charset="iso-2022-kr").text == "\ufffd"


def test_unknown_http_charset_is_ignored() -> None:
    data = html_bytes(CYRILLIC, "windows-1251", head='<meta charset="windows-1251">')
    assert fit_text(data, charset="no-such-charset").text == CYRILLIC


def test_meta_declaring_utf16_is_read_as_utf8() -> None:
    """WHATWG: a page cannot declare itself UTF-16 from inside; the prescan gives UTF-8."""
    data = html_bytes(LATIN, "utf-8", head='<meta charset="utf-16">')
    assert fit_text(data).text == LATIN


@pytest.mark.parametrize(
    "data",
    [b"\xff\xfe\xfd", b"\x80" * 100, b"<p>\xc0\xaf</p>", b"\xfe\xff\xd8\x00", bytes(range(256))],
)
def test_decoding_never_raises(data: bytes) -> None:
    text, encoding = decode_html(data)
    assert isinstance(text, str)
    assert encoding
    assert isinstance(fit_text(data).text, str)


@pytest.mark.parametrize("label", ["rot13", "idna", "undefined"])
def test_meta_charset_that_is_no_whatwg_label_is_ignored_and_never_raises(label: str) -> None:
    """WHATWG prescan: a label that names no encoding is skipped; decoding never raises."""
    data = f'<meta charset="{label}"><p>hello world</p>'.encode("ascii")
    assert fit_text(data).text == "hello world"
    assert html_to_text(data) == "hello world"


def test_http_charset_that_is_no_whatwg_label_is_ignored_and_never_raises() -> None:
    data = b"<p>hello world</p>"
    assert fit_text(data, charset="base64").text == "hello world"


@pytest.mark.parametrize(
    ("label", "data", "expected"),
    [
        # Python codecs that are no WHATWG label: the declaration must be ignored.
        ("unicode_escape", b"<p>a\\u0041b</p>", "a\\u0041b"),
        ("cp037", b"<p>hello world</p>", "hello world"),
        ("utf-32", b"<p>hello world</p>", "hello world"),
    ],
)
def test_python_only_codec_names_are_not_charset_labels(
    label: str, data: bytes, expected: str
) -> None:
    declared = f'<meta charset="{label}">'.encode() + data
    assert fit_text(declared).text == expected


@pytest.mark.parametrize(
    ("label", "data", "expected"),
    [
        ("l9", b"<p>price 5 \xa4 and \xbd</p>", "price 5 \u20ac and \u0153"),
        ("csisolatin9", b"<p>price 5 \xa4 and \xbd</p>", "price 5 \u20ac and \u0153"),
        ("x-cp1253", b"<p>alpha \xe1 omega \xf9</p>", "alpha \u03b1 omega \u03c9"),
    ],
)
def test_whatwg_labels_name_their_encoding(label: str, data: bytes, expected: str) -> None:
    """WHATWG label table: l9 and csisolatin9 are ISO-8859-15, x-cp1253 is windows-1253."""
    assert fit_text(data, charset=label).text == expected
