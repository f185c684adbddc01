"""Real text of Thai, Lao, Khmer and Myanmar, for the tests and the benchmark of their words.

`udhr(lang)`: the UDHR paragraphs kept beside this module (devkit/realtext/,
from the gflanguages package; README.md there says where exactly and under
which licence). `debian_paragraphs(folder)`: more, and of other kinds, read
from Debian packages fetched into `folder` with
`apt-get download firefox-esr-l10n-th firefox-esr-l10n-km firefox-esr-l10n-my
libreoffice-help-km` (the browser's translated messages, MPL-2.0; LibreOffice's
Khmer help pages, MPL-2.0): nothing of them is kept in the repository. Lao has
no such package; its text is the UDHR's alone.
"""

from __future__ import annotations

import io
import re
import subprocess
import tarfile
import zipfile
from pathlib import Path
from typing import Final

from selectolax.lexbor import LexborHTMLParser

__all__ = ["SCRIPTS", "debian_paragraphs", "udhr"]

# Language code -> the script's name.
SCRIPTS: Final = {"th": "Thai", "lo": "Lao", "km": "Khmer", "my": "Myanmar"}
_HERE: Final = Path(__file__).parent / "realtext"
_SCRIPT_CHAR: Final = re.compile("[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]")
# A message or paragraph shorter than this (in characters of the scripts) is a label.
_MIN_CHARS: Final = 20
# A message of the browser's translations: `key = value`, or `.attribute = value`.
_MESSAGE: Final = re.compile(r"^\s*\.?[\w.-]+\s*=\s*(.+)$")
# Placeables, markup and printf arguments inside a message: not text.
_PLACEHOLDER: Final = re.compile(r"\{[^}]*\}|<[^>]+>|&[\w.-]+;|%\d?\$?[sdS]")


def udhr(lang: str) -> list[str]:
    """The UDHR paragraphs in `lang` (a key of SCRIPTS)."""
    text = (_HERE / f"{lang}.txt").read_text(encoding="utf-8")
    return [line for line in text.split("\n") if line]


def debian_paragraphs(folder: Path) -> dict[str, dict[str, list[str]]]:
    """Language -> source -> paragraphs, from the .deb files in `folder` (see above)."""
    found: dict[str, dict[str, list[str]]] = {}
    for deb in sorted(folder.glob("*.deb")):
        name = deb.name.split("_")[0]
        if name.startswith("firefox-esr-l10n-"):
            lang = name.rsplit("-", 1)[1]
            paragraphs = _firefox_messages(_deb_files(deb, ".xpi"))
        elif name == "libreoffice-help-km":
            lang = "km"
            paragraphs = _help_paragraphs(_deb_files(deb, ".html"))
        else:
            continue
        found.setdefault(lang, {})[name] = sorted(set(paragraphs))
    return found


def _deb_files(deb: Path, suffix: str) -> list[bytes]:
    """The contents of the files in a .deb whose names end with `suffix`."""
    tar = subprocess.run(  # noqa: S603 - a fixed command on a file the caller chose
        ["dpkg-deb", "--fsys-tarfile", str(deb)],  # noqa: S607 - Debian's own tool
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        return [
            extracted.read()
            for member in archive.getmembers()
            if member.isfile() and member.name.endswith(suffix)
            if (extracted := archive.extractfile(member)) is not None
        ]


def _firefox_messages(xpis: list[bytes]) -> list[str]:
    messages = []
    for xpi in xpis:
        with zipfile.ZipFile(io.BytesIO(xpi)) as archive:
            for name in archive.namelist():
                if not name.endswith((".ftl", ".properties")):
                    continue
                for line in archive.read(name).decode("utf-8", "replace").splitlines():
                    if (message := _MESSAGE.match(line)) is None:
                        continue
                    value = " ".join(_PLACEHOLDER.sub(" ", message[1]).split())
                    if len(_SCRIPT_CHAR.findall(value)) >= _MIN_CHARS:
                        messages.append(value)
    return messages


def _help_paragraphs(pages: list[bytes]) -> list[str]:
    paragraphs = []
    for page in pages:
        for node in LexborHTMLParser(page).css("p"):
            text = " ".join(node.text().split())
            if len(_SCRIPT_CHAR.findall(text)) >= _MIN_CHARS:
                paragraphs.append(text)
    return paragraphs
