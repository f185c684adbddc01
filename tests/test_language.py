"""The detected language (blockdensity.language) and the text's digest, in every Fit.

CLD2 reads the first SAMPLE_CHARACTERS of the kept text; `lang` stays what
the page declares. The samples are real pages in six languages.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from blockdensity import PUBLISHED_CONF, fit_text
from blockdensity.language import SAMPLE_CHARACTERS, detect_language
from tests.helpers import fit, seq

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


@pytest.mark.parametrize(
    ("sample", "language"),
    [
        ("de-comwrap-dmexco", "de"),  # declared en: the page says English, its text is German
        ("en-nasa-water-plumes", "en"),
        ("ja-trademark-modification", "ja"),
        ("ko-entermedia-column", "ko"),
        ("pt-mensagens-reflexao", "pt"),
        ("ru-atkins-diet", "ru"),
    ],
)
def test_the_samples_are_detected_in_their_language(sample: str, language: str) -> None:
    result = fit_text((SAMPLES / f"{sample}.html").read_bytes())
    assert result.lang_detected == language
    assert result.lang_confidence is not None
    assert 0.5 <= result.lang_confidence <= 1.0


def test_the_declared_language_stays_beside_the_detected_one() -> None:
    result = fit_text((SAMPLES / "de-comwrap-dmexco.html").read_bytes())
    assert (result.lang, result.lang_detected) == ("en", "de")


def test_chinese_scripts_are_told_apart() -> None:
    assert detect_language("这是一个中文句子\uff0c用来测试语言检测是否正确。" * 3)[0] == "zh"
    assert detect_language("這是一個中文句子\uff0c用來測試語言檢測是否正確。" * 3)[0] == "zh-Hant"


@pytest.mark.parametrize("text", ["", "   \n ", "12 34 56", "\x00\x01\x02", "a\ud800b"])
def test_no_language_is_none_never_an_error(text: str) -> None:
    assert detect_language(text) == (None, None)


def test_control_characters_do_not_stop_detection() -> None:
    text = "The quick brown fox jumps over the lazy dog near the river bank today.\x00\x07" * 3
    assert detect_language(text)[0] == "en"


@pytest.mark.parametrize("control", ["\x0b", "\x0c", "\x1f", "\x7f"], ids=repr)
def test_a_control_reads_as_a_blank(control: str) -> None:
    text = "The quick brown fox jumps over the lazy dog near the river bank today. " * 3
    assert detect_language(text.replace(" ", control)) == detect_language(text)
    assert detect_language(f"  {control}  ") == (None, None)


def test_only_the_sample_is_read() -> None:
    english = "This is plainly an English sentence about the weather and the sea. " * 40
    german = "Dies ist ganz eindeutig ein deutscher Satz über das Wetter und das Meer. " * 200
    assert len(english) >= SAMPLE_CHARACTERS
    assert detect_language(english + german)[0] == "en"


def test_text_sha256_is_the_digest_of_the_text_in_both_profiles() -> None:
    body = f"<p>{seq('a', 1, 20)}</p><p>{seq('b', 1, 20)}</p>"
    for conf in (None, PUBLISHED_CONF):
        result = fit(body, conf)
        assert result.text_sha256 == hashlib.sha256(result.text.encode()).hexdigest()
    assert fit("<p>x</p>").text_sha256 != fit("<p>y</p>").text_sha256
