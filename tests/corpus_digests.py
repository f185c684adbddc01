"""The text the fit makes of every corpus page, as stored digests: a change of output shows.

Every page of every set under the data folder (`*/html/*.html.gz`: the two
development sets and the trafilatura evaluation half) is fitted from its
bytes as fetched under both profiles, and the SHA-256 of each text is
compared with the one stored in corpus_digests.json (its first 16 hex
digits: enough to see any change, small enough to keep in the repository).
tests/test_corpus_digests.py checks them; a change meant to alter outputs
rewrites the file, and its diff names every page whose text changed:

    python -m tests.corpus_digests            # rewrite tests/corpus_digests.json
    python -m tests.corpus_digests --check    # list the pages that differ
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from pathlib import Path
from typing import Final

from blockdensity import DEFAULT_CONF, PUBLISHED_CONF, Conf, fit_text
from devkit.corpus import DEFAULT_DATA

STORED: Final = Path(__file__).with_name("corpus_digests.json")
PROFILES: Final[dict[str, Conf]] = {"article": DEFAULT_CONF, "published": PUBLISHED_CONF}
DIGITS: Final = 16

# page ("set/page id") -> profile -> digest of the fit's text
Digests = dict[str, dict[str, str]]


def page_files(data: Path = DEFAULT_DATA) -> list[Path]:
    return sorted(data.glob("*/html/*.html.gz"))


def page_key(path: Path) -> str:
    return f"{path.parent.parent.name}/{path.name.removesuffix('.html.gz')}"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:DIGITS]


def compute(data: Path = DEFAULT_DATA) -> Digests:
    digests: Digests = {}
    for path in page_files(data):
        raw = gzip.decompress(path.read_bytes())
        digests[page_key(path)] = {
            name: digest(fit_text(raw, conf).text) for name, conf in PROFILES.items()
        }
    return digests


def load() -> Digests:
    stored: Digests = json.loads(STORED.read_text(encoding="utf-8"))
    return stored


def differences(found: Digests, stored: Digests) -> list[str]:
    """One line per page and profile whose text is not the stored one, or that is missing."""
    lines = [f"{key}: not stored" for key in sorted(found.keys() - stored.keys())]
    lines += [f"{key}: not in the data" for key in sorted(stored.keys() - found.keys())]
    for key in sorted(found.keys() & stored.keys()):
        for profile, value in found[key].items():
            if stored[key].get(profile) != value:
                lines.append(f"{key} ({profile}): text changed")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not rewrite")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    found = compute(args.data)
    if not found:
        print(f"no pages under {args.data}", file=sys.stderr)
        return 1
    if args.check:
        lines = differences(found, load())
        print("\n".join(lines) or f"all {len(found)} pages as stored")
        return 1 if lines else 0
    # One line per page, so that a diff of the file names the pages that changed.
    lines = [f"{json.dumps(key)}: {json.dumps(found[key])}" for key in sorted(found)]
    text = "{\n" + ",\n".join(lines) + "\n}\n"
    STORED.write_text(text, encoding="utf-8")
    print(f"{len(found)} pages written to {STORED}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
