"""The modules setup.py compiles, read from setup.py, and whether their builds are current.

setup.py compiles some of blockdensity's modules with mypyc (COMPILED) and
Cython (CYTHON) into extension modules beside their sources. Python imports
the extension, not the source: after an edit, until the package is built
again (`./dev setup`), the tests would run the old code. tests/conftest.py
refuses to run then (`stale`), and tests/test_compiled.py checks that every
such module is imported from its extension.
"""

from __future__ import annotations

import ast
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Final

__all__ = ["ROOT", "compiled_sources", "extension", "module_name", "stale"]

ROOT: Final = Path(__file__).resolve().parents[1]
_LISTS: Final = ("COMPILED", "CYTHON")


def compiled_sources(root: Path = ROOT) -> list[Path]:
    """The sources setup.py compiles (its COMPILED and CYTHON lists), as paths."""
    tree = ast.parse((root / "setup.py").read_text(encoding="utf-8"))
    found: dict[str, list[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id in _LISTS:
                found[target.id] = ast.literal_eval(node.value)
    missing = set(_LISTS) - found.keys()
    if missing:
        raise RuntimeError(f"setup.py: no {' or '.join(sorted(missing))} list of sources")
    return [root / source for name in _LISTS for source in found[name]]


def module_name(source: Path, root: Path = ROOT) -> str:
    return ".".join(source.relative_to(root).with_suffix("").parts)


def extension(source: Path) -> Path | None:
    """The extension module built from `source`, beside it; None if there is none."""
    for suffix in EXTENSION_SUFFIXES:
        built = source.with_name(source.stem + suffix)
        if built.exists():
            return built
    return None


def stale(root: Path = ROOT) -> list[str]:
    """One line per compiled module that is missing or older than its source."""
    problems = []
    for source in compiled_sources(root):
        built = extension(source)
        where = source.relative_to(root)
        if built is None:
            problems.append(f"{where}: no compiled module beside it")
        elif built.stat().st_mtime < source.stat().st_mtime:
            problems.append(f"{where} is newer than {built.relative_to(root)}, built from it")
    return problems
