"""The modules setup.py compiles, read from setup.py, and whether their builds are current.

setup.py compiles some of blockdensity's modules with mypyc (COMPILED) and
Cython (CYTHON) into extension modules beside their sources. Python imports
the extension, not the source: after an edit, until the package is built
again (`./dev setup`), the tests would run the old code. tests/conftest.py
refuses to run then (`stale`), and tests/test_compiled.py checks that every
such module is imported from its extension. A Cython module is built from
its .pyx and the declaration files (.pxd) it depends on: its own, and those
it cimports from the package (whose inline functions are compiled into it),
so an edit to any of them makes it stale too.
"""

from __future__ import annotations

import ast
import re
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Final

__all__ = ["ROOT", "compiled_sources", "declarations", "extension", "module_name", "stale"]

ROOT: Final = Path(__file__).resolve().parents[1]
_LISTS: Final = ("COMPILED", "CYTHON")
# A cimport of one of the package's modules: "from blockdensity._x cimport ..."
# or "cimport blockdensity._x".
_CIMPORT: Final = re.compile(
    r"^\s*(?:from\s+([\w.]+)\s+cimport\b|cimport\s+([\w.]+))", re.MULTILINE
)


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


def declarations(source: Path, root: Path = ROOT) -> list[Path]:
    """The declaration files (.pxd) a Cython `source` is built with: its own, and
    those it cimports from the package, and theirs in turn (in the order found)."""
    found: list[Path] = []
    pending = [source]
    own = source.with_suffix(".pxd")
    if source.suffix == ".pyx" and own.exists():
        found.append(own)
        pending.append(own)
    while pending:
        text = pending.pop().read_text(encoding="utf-8")
        for match in _CIMPORT.finditer(text):
            module = match[1] or match[2]
            declared = root.joinpath(*module.split(".")).with_suffix(".pxd")
            if declared.exists() and declared not in found:
                found.append(declared)
                pending.append(declared)
    return found


def extension(source: Path) -> Path | None:
    """The extension module built from `source`, beside it; None if there is none."""
    for suffix in EXTENSION_SUFFIXES:
        built = source.with_name(source.stem + suffix)
        if built.exists():
            return built
    return None


def stale(root: Path = ROOT) -> list[str]:
    """One line per compiled module that is missing or older than a file it is built
    from (its source, or a declaration file of a Cython module's)."""
    problems = []
    for source in compiled_sources(root):
        built = extension(source)
        if built is None:
            problems.append(f"{source.relative_to(root)}: no compiled module beside it")
            continue
        origins = [source, *(declarations(source, root) if source.suffix == ".pyx" else [])]
        problems += [
            f"{origin.relative_to(root)} is newer than {built.relative_to(root)}, built from it"
            for origin in origins
            if built.stat().st_mtime < origin.stat().st_mtime
        ]
    return problems
