"""The compiled modules: each one setup.py builds is what Python imports, built from its source.

There is one implementation of each of the fit's passes, compiled; no
pure-Python build of the package exists. So every module setup.py lists
must import from its extension module (a .py of the same name would be old
or untyped code running in its place), and the guard of tests/conftest.py
must tell a build older than its source.
"""

from __future__ import annotations

import importlib
import os
import shutil
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from tests import conftest
from tests.compiled import ROOT, compiled_sources, declarations, module_name, stale


@pytest.mark.parametrize("source", compiled_sources(), ids=lambda path: path.name)
def test_every_compiled_module_is_imported_from_its_extension(source: Path) -> None:
    module = importlib.import_module(module_name(source))
    assert module.__file__ is not None
    assert module.__file__.endswith(tuple(EXTENSION_SUFFIXES)), module.__file__


def test_setup_lists_both_kinds_of_compiled_modules() -> None:
    suffixes = {path.suffix for path in compiled_sources()}
    assert suffixes == {".py", ".pyx"}
    assert ROOT / "blockdensity" / "_nesting.pyx" in compiled_sources()


def test_a_cython_module_depends_on_the_declarations_it_cimports() -> None:
    # The scan cimports the regions' declarations and the shared byte helpers;
    # the regions' own .pxd cimports the latter too (found once).
    package = ROOT / "blockdensity"
    assert declarations(package / "_nesting.pyx") == [
        package / "_bytes.pxd",
        package / "_regions.pxd",
    ]
    assert declarations(package / "_regions.pyx") == [
        package / "_regions.pxd",
        package / "_bytes.pxd",
    ]
    assert declarations(package / "_growing_references.pyx") == []


def _tree(tmp_path: Path, *, built_after: bool) -> Path:
    shutil.copy(ROOT / "setup.py", tmp_path / "setup.py")
    for source in compiled_sources():
        copy = tmp_path / source.relative_to(ROOT)
        copy.parent.mkdir(exist_ok=True)
        copy.write_text("# source\n", encoding="utf-8")
        if source.suffix == ".pyx":
            copy.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
            for declared in declarations(source):
                declared_copy = tmp_path / declared.relative_to(ROOT)
                declared_copy.write_text(declared.read_text(encoding="utf-8"), encoding="utf-8")
                os.utime(declared_copy, (1_000, 1_000))
        built = copy.with_name(copy.stem + EXTENSION_SUFFIXES[0])
        built.write_bytes(b"")
        os.utime(copy, (1_000, 1_000))
        os.utime(built, (2_000, 2_000) if built_after else (500, 500))
    return tmp_path


def test_the_guard_accepts_modules_built_after_their_sources(tmp_path: Path) -> None:
    assert stale(_tree(tmp_path, built_after=True)) == []


def test_the_guard_names_each_module_older_than_its_source(tmp_path: Path) -> None:
    root = _tree(tmp_path, built_after=True)
    os.utime(root / "blockdensity" / "segment.py", (3_000, 3_000))
    (root / "blockdensity" / ("_walk" + EXTENSION_SUFFIXES[0])).unlink()
    assert stale(root) == [
        f"blockdensity/segment.py is newer than blockdensity/segment{EXTENSION_SUFFIXES[0]}, "
        "built from it",
        "blockdensity/_walk.pyx: no compiled module beside it",
    ]


def test_a_stale_build_stops_the_run_naming_the_module_and_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pytestconfig: pytest.Config
) -> None:
    root = _tree(tmp_path, built_after=True)
    os.utime(root / "blockdensity" / "_nesting.pyx", (3_000, 3_000))
    monkeypatch.setattr(conftest, "stale", lambda: stale(root))
    with pytest.raises(pytest.UsageError) as raised:
        conftest.pytest_configure(pytestconfig)
    message = str(raised.value)
    assert "blockdensity/_nesting.pyx is newer than blockdensity/_nesting" in message
    assert "run ./dev setup" in message


def test_an_edited_declaration_file_makes_each_module_built_with_it_stale(tmp_path: Path) -> None:
    root = _tree(tmp_path, built_after=True)
    os.utime(root / "blockdensity" / "_bytes.pxd", (3_000, 3_000))
    suffix = EXTENSION_SUFFIXES[0]
    assert stale(root) == [
        f"blockdensity/_bytes.pxd is newer than blockdensity/_nesting{suffix}, built from it",
        f"blockdensity/_bytes.pxd is newer than blockdensity/_regions{suffix}, built from it",
    ]
