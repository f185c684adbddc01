"""The rooms of worker/: each program imports the shared floor and its own modules, never
another program's; the floor imports no program; each third-party library has one importer
(aio-pika and aiormq: the worker.amqp package)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Final

import pytest

from devkit.paths import ROOT

PROGRAMS: Final = ("stage", "feed", "collect")
# Third-party top-level modules and the one place allowed to import each.
IMPORTERS: Final = {
    "aio_pika": "worker/amqp/",
    "aiormq": "worker/amqp/",
    "prometheus_client": "worker/stage/metrics.py",
    "fastwarc": "worker/feed/warc.py",
    "stamina": "worker/stage/handler.py",
}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


MODULES: Final = {
    path.relative_to(ROOT).as_posix(): _imports(path)
    for path in sorted((ROOT / "worker").rglob("*.py"))
}


def _room(name: str) -> str | None:
    """The program a module path or a dotted module name belongs to, or None (the floor)."""
    parts = name.replace("/", ".").split(".")
    return parts[1] if len(parts) > 2 and parts[1] in PROGRAMS else None


def test_the_rooms_are_there() -> None:
    for program in PROGRAMS:
        assert f"worker/{program}/__init__.py" in MODULES
    assert len(MODULES) > 40


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_imports_no_other_program(module: str) -> None:
    # `python -m worker` is the stage's entry point; the rest of the floor imports no program.
    room = "stage" if module == "worker/__main__.py" else _room(module)
    crossing = {name for name in MODULES[module] if _room(name) not in (None, room)}
    assert not crossing, f"{module} imports {sorted(crossing)}"


@pytest.mark.parametrize(("library", "importer"), sorted(IMPORTERS.items()))
def test_each_library_has_one_importer(library: str, importer: str) -> None:
    users = {
        module
        for module, names in MODULES.items()
        if any(name == library or name.startswith(f"{library}.") for name in names)
    }
    assert users, f"nothing imports {library}: the table above is out of date"
    assert all(module.startswith(importer) for module in users), sorted(users)
