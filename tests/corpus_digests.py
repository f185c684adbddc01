"""What the fit makes of every corpus page, as stored digests: a change of output shows.

Every page of every set under a data folder (`*/html/*.html.gz`) is fitted
from its bytes as fetched under both profiles, and what the fit returns is
compared with what is stored, per page and profile. There are two stores:
corpus_digests.json for the full development sets (../shared/data, where
they are), sample_digests.json for the repository's sample of them
(tests/corpus, always there). Each stores:

- `text`: the SHA-256 of the text;
- `metadata`: the SHA-256 of the metadata, every field, as canonical JSON;
- `language`: the detected language and its confidence, as they are
  (`"en 0.99"`, or `null` when CLD2 cannot tell);
- `comments`: the SHA-256 of the comments' text, or `null` when there are none;
- `summary`: the SHA-256 of every other field of the record (title, declared
  language, fallback, counts, profile, encoding), as canonical JSON, but the
  confidence: an estimate of the fit's quality from a model retrained as the
  rules change (bench/confidence_train.py), not an output of the fit's
  rules; tests/test_confidence.py holds how it is computed. Nor the page type,
  its confidence and the kind whose rules ran: a classifier's answer, refitted
  as its evidence changes (bench/pagetype_train.py); what it changes in the
  text shows in `text`, and tests/test_evidence.py and tests/test_pagetype.py
  hold how it is computed.

Digests are the first 16 hex digits: enough to see any change, small enough
to keep in the repository. tests/test_corpus_digests.py checks them; a
change meant to alter outputs rewrites both files, and their diffs name every
page whose output changed:

    python -m tests.corpus_digests            # rewrite both (the full sets' where they are)
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

from blockdensity import DEFAULT_CONF, PUBLISHED_CONF, Conf, Fit, fit_text
from devkit.corpus import DEFAULT_DATA, SAMPLE_DATA

STORED: Final = Path(__file__).with_name("corpus_digests.json")  # the full sets'
SAMPLE_STORED: Final = Path(__file__).with_name("sample_digests.json")  # tests/corpus's
PROFILES: Final[dict[str, Conf]] = {"article": DEFAULT_CONF, "published": PUBLISHED_CONF}
DIGITS: Final = 16

# What is stored of one page's fit under one profile: field -> digest (or value, or None).
Report = dict[str, str | None]
# page ("set/page id") -> profile -> its report
Digests = dict[str, dict[str, Report]]
# The fields of a Report, in the order a difference is named.
FIELDS: Final = ("text", "metadata", "language", "comments", "summary")
# The record's fields the other entries of a Report cover, left out of "summary".
_APART: Final = frozenset(
    {"text", "text_sha256", "metadata", "lang_detected", "lang_confidence", "comments"}
)
# The record's fields no entry covers (the module's docstring says why).
_UNDIGESTED: Final = frozenset({"confidence", "page_type", "page_type_confidence", "rules_kind"})


def page_files(data: Path = DEFAULT_DATA) -> list[Path]:
    return sorted(data.glob("*/html/*.html.gz"))


def page_key(path: Path) -> str:
    return f"{path.parent.parent.name}/{path.name.removesuffix('.html.gz')}"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:DIGITS]


def canonical(data: object) -> str:
    """`data` as JSON with sorted keys and no blanks: equal data, equal strings."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def report(fit: Fit) -> Report:
    """What is stored of `fit` (the module's docstring names each field)."""
    language = None if fit.lang_detected is None else f"{fit.lang_detected} {fit.lang_confidence!r}"
    rest = {
        name: value
        for name, value in fit.to_dict(blocks=False).items()
        if name not in _APART | _UNDIGESTED
    }
    return {
        "text": digest(fit.text),
        "metadata": digest(canonical(fit.metadata.to_dict())),
        "language": language,
        "comments": None if fit.comments is None else digest(fit.comments),
        "summary": digest(canonical(rest)),
    }


def compute(data: Path = DEFAULT_DATA) -> Digests:
    digests: Digests = {}
    for path in page_files(data):
        raw = gzip.decompress(path.read_bytes())
        digests[page_key(path)] = {
            name: report(fit_text(raw, conf)) for name, conf in PROFILES.items()
        }
    return digests


def load(stored_at: Path = STORED) -> Digests:
    stored: Digests = json.loads(stored_at.read_text(encoding="utf-8"))
    return stored


def differences(found: Digests, stored: Digests) -> list[str]:
    """One line per page and profile whose output is not the stored one (naming the
    fields that changed), or that is missing."""
    lines = [f"{key}: not stored" for key in sorted(found.keys() - stored.keys())]
    lines += [f"{key}: not in the data" for key in sorted(stored.keys() - found.keys())]
    for key in sorted(found.keys() & stored.keys()):
        for profile, fields in found[key].items():
            was = stored[key].get(profile)
            if was is None:
                lines.append(f"{key} ({profile}): not stored")
                continue
            changed = [name for name in FIELDS if fields.get(name) != was.get(name)]
            if changed:
                lines.append(f"{key} ({profile}): {', '.join(changed)} changed")
    return lines


def _rewrite(found: Digests, stored_at: Path) -> None:
    # One line per page, so that a diff of the file names the pages that changed.
    lines = [
        f"{json.dumps(key)}: {json.dumps(found[key], ensure_ascii=False)}" for key in sorted(found)
    ]
    stored_at.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    print(f"{len(found)} pages written to {stored_at}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not rewrite")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the full sets")
    args = parser.parse_args()
    stores = [(SAMPLE_DATA, SAMPLE_STORED)]
    if args.data.is_dir():
        stores.append((args.data, STORED))
    else:
        print(f"no full sets at {args.data}: only the sample's digests", file=sys.stderr)
    differing = 0
    for data, stored_at in stores:
        found = compute(data)
        if not found:
            print(f"no pages under {data}", file=sys.stderr)
            return 1
        if not args.check:
            _rewrite(found, stored_at)
            continue
        lines = differences(found, load(stored_at))
        print("\n".join(lines) or f"all {len(found)} pages under {data} as stored")
        differing += len(lines)
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
