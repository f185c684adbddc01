"""The command (blockdensity.cli): `main` in-process, and `python -m blockdensity` as a process.

Small pages are written to tmp_path and run through every mode: the clean
text (one page, several, stdin), --format markdown, --json (--format json), --explain,
--highlight OUT.html,
--charset, --no-drop; and the exit statuses: 1 with a one-line message naming
an input that cannot be read (or an output that cannot be written), 2 on bad
usage. In-process runs read stdout and stderr through capsys; the process
runs check that the module is a working command.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from blockdensity import PageType, cli, fit_text
from blockdensity.decide.kinds import LISTING_DOUBT, LISTING_GAIN, SCANT_WORDS, TYPE_CONFIDENCE
from tests.helpers import seq

A20 = seq("a", 1, 20)
B20 = seq("b", 1, 20)
N20 = seq("n", 1, 20)

# The nav (20 words, long) is content for the tree but dropped: 20 of the
# page's 60 content words is not more than half. So the text is a and b.
ARTICLE = (
    "<!DOCTYPE html><html lang=en><head><title>The title</title></head><body>"
    f"<nav><p>{N20}</p></nav><p>{A20}</p><p>{B20}</p></body></html>"
)
# One block with words: the fit falls back to the whole text.
SHORT = "<html><head><title>short</title></head><body><p>caf\u00e9 x01 x02</p></body></html>"

CYRILLIC = "\u041f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440"
# koi8-r bytes that declare windows-1251: only --charset koi8-r reads them right.
MISDECLARED = (
    f'<html><head><meta charset="windows-1251"></head><body><p>{CYRILLIC}</p>'
    f"<p>{A20}</p></body></html>"
).encode("koi8-r")

Capture = pytest.CaptureFixture[str]


@pytest.fixture
def article(tmp_path: Path) -> Path:
    path = tmp_path / "article.html"
    path.write_bytes(ARTICLE.encode())
    return path


@pytest.fixture
def short(tmp_path: Path) -> Path:
    path = tmp_path / "short.html"
    path.write_bytes(SHORT.encode())
    return path


def run_main(args: list[str], capsys: Capture) -> tuple[int, str, str]:
    """main(args) in this process: its status, stdout and stderr."""
    status = cli.main(args)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def usage_error(args: list[str], capsys: Capture) -> str:
    """main(args) must stop with status 2 (argparse's): its stderr."""
    with pytest.raises(SystemExit) as stopped:
        cli.main(args)
    assert stopped.value.code == 2
    return capsys.readouterr().err


# --------------------------------------------------------------------------- the clean text


def test_plain_output_is_the_kept_text(article: Path, capsys: Capture) -> None:
    assert run_main([str(article)], capsys) == (0, f"{A20}\n{B20}\n", "")


def test_several_pages_are_each_headed_by_their_name(
    article: Path, short: Path, capsys: Capture
) -> None:
    status, out, _ = run_main([str(article), str(short)], capsys)
    assert status == 0
    assert out == f"==> {article} <==\n{A20}\n{B20}\n\n==> {short} <==\ncaf\u00e9 x01 x02\n"


def test_dash_reads_the_page_from_stdin(monkeypatch: pytest.MonkeyPatch, capsys: Capture) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(ARTICLE.encode())))
    assert run_main(["-"], capsys) == (0, f"{A20}\n{B20}\n", "")


def test_a_page_without_text_prints_nothing(tmp_path: Path, capsys: Capture) -> None:
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"<html><body><script>x()</script></body></html>")
    assert run_main([str(empty)], capsys) == (0, "", "")


# --------------------------------------------------------------------------- --format


def test_format_markdown_prints_the_fits_markdown(tmp_path: Path, capsys: Capture) -> None:
    path = tmp_path / "structured.html"
    path.write_text(
        f"<h2>Head *1*</h2><p>{A20}</p><ul><li>{B20}</li><li>{N20}</li></ul>", encoding="utf-8"
    )
    status, out, _ = run_main(["--format", "markdown", str(path)], capsys)
    assert status == 0
    assert out == f"## Head \\*1\\*\n\n{A20}\n\n- {B20}\n- {N20}\n"
    assert out == fit_text(path.read_bytes()).markdown + "\n"


def test_format_text_is_the_default_and_json_the_same_as_the_json_flag(
    article: Path, capsys: Capture
) -> None:
    assert run_main(["--format", "text", str(article)], capsys) == run_main([str(article)], capsys)
    assert run_main(["--format", "json", str(article)], capsys) == run_main(
        ["--json", str(article)], capsys
    )


def test_format_markdown_heads_each_of_several_pages(
    article: Path, short: Path, capsys: Capture
) -> None:
    _, out, _ = run_main(["--format", "markdown", str(article), str(short)], capsys)
    assert out == f"==> {article} <==\n{A20}\n\n{B20}\n\n==> {short} <==\ncaf\u00e9 x01 x02\n"


# --------------------------------------------------------------------------- --json


def test_json_is_one_object_a_page_with_the_fit_fields(
    article: Path, short: Path, capsys: Capture
) -> None:
    status, out, _ = run_main(["--json", str(article), str(short)], capsys)
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["page"] == str(article)
    assert (first["text"], first["title"], first["lang"]) == (f"{A20}\n{B20}", "The title", "en")
    assert (first["fallback"], first["fallback_reason"], first["encoding"]) == (
        False,
        None,
        "utf-8",
    )
    assert (first["blocks_total"], first["blocks_kept"]) == (3, 2)
    assert (first["words_total"], first["words_kept"]) == (60, 40)
    assert 0.0 <= first["confidence"] <= 1.0
    assert [b["decision"] for b in first["blocks"]] == ["dropped", "content", "content"]
    assert first["blocks"][0]["scope"] == "nav"
    del first["page"]
    assert first == fit_text(ARTICLE.encode()).to_dict()
    assert (second["page"], second["fallback_reason"]) == (str(short), "single_block")


def test_json_has_the_metadata_with_urls_resolved_against_url(
    tmp_path: Path, capsys: Capture
) -> None:
    page = tmp_path / "meta.html"
    page.write_text(
        '<link rel="canonical" href="/story"><meta property="og:title" content="Shared">'
        f"<p>{A20}</p><p>{B20}</p>"
    )
    _, out, _ = run_main(["--json", "--url", "https://news.example/a/b?x=1", str(page)], capsys)
    metadata = json.loads(out)["metadata"]
    assert metadata["canonical_url"] == "https://news.example/story"
    assert metadata["title"] == "Shared"
    _, out, _ = run_main(["--json", str(page)], capsys)
    assert json.loads(out)["metadata"]["canonical_url"] == "/story"


def test_json_keeps_non_ascii_text_as_it_is(short: Path, capsys: Capture) -> None:
    _, out, _ = run_main(["--json", str(short)], capsys)
    assert "caf\u00e9" in out
    assert json.loads(out)["text"] == "caf\u00e9 x01 x02"


# --------------------------------------------------------------------------- --explain


def test_explain_lists_every_block_with_its_figures_and_the_verdict(
    article: Path, capsys: Capture
) -> None:
    status, out, _ = run_main(["--explain", str(article)], capsys)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == f"==> {article} <=="
    assert lines[1] == "title: 'The title'  lang: en  profile: article"
    header = ["#", "element", "words", "links", "ld\u2030", "decision", "reason", "text"]
    assert lines[2].split() == header
    assert lines[3].split()[:7] == ["0", "p", "20", "0", "0", "dropped", "semantic_drop"]
    assert "(nav)" in lines[3]
    assert lines[4].split()[:7] == ["1", "p", "20", "0", "0", "content", "long"]
    assert lines[5].split()[:7] == ["2", "p", "20", "0", "0", "content", "long"]
    assert lines[6] == "kept 2 of 3 blocks (3 with words), 40 of 60 words; no fallback"
    confidence = fit_text(ARTICLE.encode()).confidence
    assert confidence is not None
    assert lines[7].startswith(f"confidence {confidence:.3f} (the fit's estimate of its F1): ")
    fitted = fit_text(ARTICLE.encode())
    assert fitted.page_type is not None
    assert fitted.page_type_confidence is not None
    assert lines[8].startswith(
        f"page type: {fitted.page_type.value} {fitted.page_type_confidence:.3f} ("
    )
    assert len(lines) == 9


@pytest.mark.parametrize(
    ("kind", "sure", "ran", "says"),
    [
        (PageType.LISTING, 0.9, PageType.LISTING, "the rules for listing pages ran"),
        (PageType.ARTICLE, 0.9, PageType.ARTICLE, "judged as an article"),
        (PageType.LISTING, 0.3, PageType.ARTICLE, f"under {TYPE_CONFIDENCE}: judged as an article"),
        (
            PageType.LISTING,
            0.3,
            PageType.LISTING,
            f"under {TYPE_CONFIDENCE}: judged as an article; under {SCANT_WORDS} words kept as"
            " such, the rules for listing pages ran",
        ),
        (
            PageType.FORUM,
            0.9,
            PageType.COLLECTION,
            f"the rules for forum pages ran; under {SCANT_WORDS} words kept as such, the rules"
            " for collection pages ran",
        ),
        (
            PageType.ARTICLE,
            0.6,
            PageType.LISTING,
            f"judged as an article; under {LISTING_DOUBT}, a listing next likeliest: the rules"
            f" for listing pages kept {LISTING_GAIN} times the words or more, and ran",
        ),
        (PageType.FORUM, 0.9, None, "no rules configured"),
    ],
)
def test_explain_says_whose_rules_ran_on_the_page(
    kind: PageType, sure: float, ran: PageType | None, says: str
) -> None:
    fit = dataclasses.replace(
        fit_text(ARTICLE), page_type=kind, page_type_confidence=sure, rules_kind=ran
    )
    assert cli._page_type_line(fit) == f"page type: {kind.value} {sure:.3f} ({says})\n"


def test_explain_shows_the_terms_of_the_confidence_largest_first(
    article: Path, capsys: Capture
) -> None:
    _, out, _ = run_main(["--explain", str(article)], capsys)
    terms = out.splitlines()[7].split(": ", 1)[1].split(", ")
    # Each term: the feature, its value, and its part of the score; "bias" always,
    # a feature whose value is 0 never (nothing is overridden on this page).
    named = {term.split()[0]: term for term in terms}
    assert "bias" in named
    assert "kept_words" in named
    assert "rule_kept" not in named
    parts = [abs(float(term.rsplit("(", 1)[1].rstrip(")"))) for term in terms]
    assert parts == sorted(parts, reverse=True)


def test_explain_shortens_a_long_block_text_to_48_characters(
    article: Path, capsys: Capture
) -> None:
    _, out, _ = run_main(["--explain", str(article)], capsys)
    row = out.splitlines()[4]
    assert row.endswith(f" {A20[:47]}\u2026")


def test_explain_names_a_fallback_and_separates_pages(
    article: Path, short: Path, capsys: Capture
) -> None:
    _, out, _ = run_main(["--explain", str(article), str(short)], capsys)
    first, second = out.split("\n\n")
    assert first.splitlines()[-3].endswith("no fallback")
    assert second.startswith(f"==> {short} <==\ntitle: 'short'  lang: None  profile: article\n")
    assert second.splitlines()[-3] == (
        "kept 1 of 1 blocks (1 with words), 3 of 3 words; fallback: single_block"
    )
    assert "fallback_single_block 1.00" in second.splitlines()[-2]
    assert second.splitlines()[-1].startswith("page type: ")


# --------------------------------------------------------------------------- --highlight


def test_highlight_writes_the_page_with_its_blocks_marked(
    article: Path, tmp_path: Path, capsys: Capture
) -> None:
    out_path = tmp_path / "out.html"
    assert run_main(["--highlight", str(out_path), str(article)], capsys) == (0, "", "")
    marked = out_path.read_text(encoding="utf-8")
    assert '<mark class="bd-content" title="block 1 &lt;p&gt;: content (long)' in marked
    assert f'">{A20}</mark>' in marked
    assert '<mark class="bd-dropped" title="block 0 &lt;p&gt;: dropped' in marked
    assert "2 of 3 blocks kept, 40 of 60 words" in marked


def test_highlight_takes_the_charset_and_no_drop(tmp_path: Path, capsys: Capture) -> None:
    page_path = tmp_path / "ru.html"
    page_path.write_bytes(MISDECLARED)
    out_path = tmp_path / "out.html"
    run_main(["--highlight", str(out_path), "--charset", "koi8-r", str(page_path)], capsys)
    assert CYRILLIC in out_path.read_text(encoding="utf-8")
    article_path = tmp_path / "article.html"
    article_path.write_text(ARTICLE, encoding="utf-8")
    run_main(["--highlight", str(out_path), "--no-drop", str(article_path)], capsys)
    assert 'class="bd-dropped" title=' not in out_path.read_text(encoding="utf-8")


# --------------------------------------------------------------------------- --charset, --no-drop


def test_charset_beats_the_page_declaration(tmp_path: Path, capsys: Capture) -> None:
    path = tmp_path / "ru.html"
    path.write_bytes(MISDECLARED)
    _, declared, _ = run_main([str(path)], capsys)
    assert CYRILLIC not in declared  # read as the <meta> says: windows-1251
    status, out, _ = run_main(["--charset", "koi8-r", str(path)], capsys)
    assert (status, out) == (0, f"{CYRILLIC}\n{A20}\n")
    _, data, _ = run_main(["--json", "--charset", "koi8-r", str(path)], capsys)
    assert json.loads(data)["encoding"] == "koi8-r"


def test_no_drop_keeps_the_dropped_elements(article: Path, capsys: Capture) -> None:
    assert run_main(["--no-drop", str(article)], capsys) == (0, f"{N20}\n{A20}\n{B20}\n", "")
    _, data, _ = run_main(["--json", "--no-drop", str(article)], capsys)
    blocks = json.loads(data)["blocks"]
    assert [(b["decision"], b["scope"]) for b in blocks] == [("content", None)] * 3


# --------------------------------------------------------------------------- errors


def test_an_unreadable_input_exits_1_with_one_line_naming_it(
    article: Path, tmp_path: Path, capsys: Capture
) -> None:
    missing = tmp_path / "missing.html"
    status, out, err = run_main([str(article), str(missing)], capsys)
    assert status == 1
    assert out.startswith(f"==> {article} <==\n")  # the pages before it are done
    assert err == f"blockdensity: error: cannot read '{missing}': No such file or directory\n"


def test_a_directory_is_an_unreadable_input(tmp_path: Path, capsys: Capture) -> None:
    status, _, err = run_main([str(tmp_path)], capsys)
    assert status == 1
    assert err == f"blockdensity: error: cannot read '{tmp_path}': Is a directory\n"


def test_an_unwritable_highlight_exits_1_naming_it(
    article: Path, tmp_path: Path, capsys: Capture
) -> None:
    target = tmp_path / "no-such-dir" / "out.html"
    status, _, err = run_main(["--highlight", str(target), str(article)], capsys)
    assert status == 1
    assert err == f"blockdensity: error: cannot write '{target}': No such file or directory\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "the following arguments are required: PAGE"),
        (["--json", "--explain", "PAGE"], "argument --explain: not allowed with argument --json"),
        (
            ["--format", "markdown", "--explain", "PAGE"],
            "argument --explain: not allowed with argument --format",
        ),
        (["--format", "html", "PAGE"], "argument --format: invalid choice: 'html'"),
        (["--highlight", "out.html", "PAGE", "PAGE"], "--highlight takes exactly one PAGE"),
        (["--bogus", "PAGE"], "unrecognized arguments: --bogus"),
        (["--charset"], "argument --charset: expected one argument"),
    ],
)
def test_bad_usage_exits_2(args: list[str], message: str, article: Path, capsys: Capture) -> None:
    err = usage_error([str(article) if arg == "PAGE" else arg for arg in args], capsys)
    assert err.startswith("usage: blockdensity")
    assert f"blockdensity: error: {message}" in err


def test_version_prints_the_package_version(capsys: Capture) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["--version"])
    assert stopped.value.code == 0
    assert capsys.readouterr().out == f"blockdensity {version('blockdensity')}\n"


class ClosedPipe(io.StringIO):
    """A stdout whose reader has gone, as when piped into `head`."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_closed_pipe_is_not_an_error(article: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    monkeypatch.setattr(sys, "stderr", stderr)
    assert cli.main([str(article)]) == 0
    assert stderr.closed  # nothing more to say, and Python's exit must not say it either


def test_run_exits_with_the_status_of_main(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Capture
) -> None:
    monkeypatch.setattr(sys, "argv", ["blockdensity", str(tmp_path / "missing.html")])
    with pytest.raises(SystemExit) as stopped:
        cli.run()
    assert stopped.value.code == 1
    assert "cannot read" in capsys.readouterr().err


# --------------------------------------------------------------------------- as a process


def command(cwd: Path, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m blockdensity ARGS` in `cwd`, as the shell would run it."""
    return subprocess.run(  # noqa: S603 - our own interpreter and module
        [sys.executable, "-m", "blockdensity", *args],
        cwd=cwd,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        input=stdin.decode() if stdin is not None else None,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )


def test_command_prints_the_clean_text_of_a_file_and_of_stdin(article: Path) -> None:
    run = command(article.parent, article.name, "-", stdin=SHORT.encode())
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout == (f"==> {article.name} <==\n{A20}\n{B20}\n\n==> - <==\ncaf\u00e9 x01 x02\n")


def test_command_json(article: Path) -> None:
    run = command(article.parent, "--json", article.name)
    assert run.returncode == 0
    data = json.loads(run.stdout)
    assert (data["page"], data["words_kept"], data["blocks_kept"]) == (article.name, 40, 2)


def test_command_explain(article: Path) -> None:
    run = command(article.parent, "--explain", article.name)
    assert run.returncode == 0
    assert run.stdout.splitlines()[-3] == (
        "kept 2 of 3 blocks (3 with words), 40 of 60 words; no fallback"
    )
    assert run.stdout.splitlines()[-2].startswith("confidence 0.")
    assert run.stdout.splitlines()[-1].startswith("page type: ")


def test_command_highlight(article: Path) -> None:
    run = command(article.parent, "--highlight", "out.html", article.name)
    assert (run.returncode, run.stdout, run.stderr) == (0, "", "")
    marked = (article.parent / "out.html").read_text(encoding="utf-8")
    assert marked.count('<mark class="bd-content" title=') == 2
    assert marked.count('<mark class="bd-dropped" title=') == 1


def test_command_charset_and_no_drop(article: Path) -> None:
    (article.parent / "ru.html").write_bytes(MISDECLARED)
    run = command(article.parent, "--charset", "koi8-r", "ru.html")
    assert (run.returncode, run.stdout) == (0, f"{CYRILLIC}\n{A20}\n")
    run = command(article.parent, "--no-drop", article.name)
    assert (run.returncode, run.stdout) == (0, f"{N20}\n{A20}\n{B20}\n")


def test_command_exits_1_with_one_line_naming_an_unreadable_input(tmp_path: Path) -> None:
    run = command(tmp_path, "missing.html")
    assert (run.returncode, run.stdout) == (1, "")
    assert run.stderr.splitlines() == [
        "blockdensity: error: cannot read 'missing.html': No such file or directory"
    ]


def test_command_exits_2_on_bad_usage(article: Path) -> None:
    run = command(article.parent, "--json", "--explain", article.name)
    assert (run.returncode, run.stdout) == (2, "")
    assert "error: argument --explain: not allowed with argument --json" in run.stderr
    assert command(article.parent).returncode == 2


def test_profile_option_chooses_the_fit(tmp_path: Path, capsys: Capture) -> None:
    body = f"<article><h1>Head</h1><p>{seq('a', 1, 30)}</p></article>"
    comments = f"<div class=comments><p>{seq('c', 1, 30)}</p></div>"
    page_file = tmp_path / "page.html"
    page_file.write_text(f"<html><body>{body}{comments}</body></html>")
    _, article_text, _ = run_main([str(page_file)], capsys)
    _, published_text, _ = run_main(["--profile", "published", str(page_file)], capsys)
    assert "c01" not in article_text
    assert "c01" in published_text
    _, explained, _ = run_main(["--explain", "--profile", "published", str(page_file)], capsys)
    assert "profile: published" in explained
    assert "invalid choice: 'tabloid'" in usage_error(
        ["--profile", "tabloid", str(page_file)], capsys
    )


def test_comments_option_chooses_where_comments_go(tmp_path: Path, capsys: Capture) -> None:
    body = f"<article><h1>Head</h1><p>{seq('a', 1, 30)}</p></article>"
    comments = f"<div class=comments><p>{seq('c', 1, 30)}</p></div>"
    page_file = tmp_path / "page.html"
    page_file.write_text(f"<html><body>{body}{comments}</body></html>")
    _, separate, _ = run_main(["--json", str(page_file)], capsys)
    record = json.loads(separate)
    assert record["comments"] == seq("c", 1, 30)
    assert "c01" not in record["text"]
    _, included, _ = run_main(["--comments", "include", str(page_file)], capsys)
    assert included.rstrip("\n").split("\n")[-1] == seq("c", 1, 30)
    _, dropped, _ = run_main(["--json", "--comments", "drop", str(page_file)], capsys)
    assert json.loads(dropped)["comments"] is None
    # The Markdown shows the comments where the text does: after the article when included.
    _, markdown, _ = run_main(["--format", "markdown", str(page_file)], capsys)
    assert markdown.startswith("# Head\n")
    assert "c01" not in markdown
    _, markdown, _ = run_main(
        ["--format", "markdown", "--comments", "include", str(page_file)], capsys
    )
    assert markdown.startswith("# Head\n")
    assert markdown.endswith("\n\n" + seq("c", 1, 30) + "\n")
    assert "invalid choice: 'keep'" in usage_error(["--comments", "keep", str(page_file)], capsys)
