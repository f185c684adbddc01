"""The wheel: what it requires, what it holds, and that the library runs without the worker.

`pip install blockdensity` must give the library and its command with the
parser and the decoder's two dependencies, nothing of the queue stage's
stack, which comes with the "worker" extra. The wheel is built once
(compiled, as pip builds it for a user; offline: the environment's build
requirements, no index), then installed without its dependencies into a
fresh virtual environment that sees only the library's dependencies, linked
from this environment: no network needed.
"""

from __future__ import annotations

import configparser
import email.message
import email.parser
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.compiled import compiled_sources
from worker.extras import EXTRA_MODULES, missing_extra

ROOT: Final = Path(__file__).resolve().parents[1]
LIBRARY_REQUIREMENTS: Final = {
    "selectolax", "webencodings", "faust-cchardet", "pycld2", "msgspec", "icu4py",
}  # fmt: skip
WORKER_REQUIREMENTS: Final = {"aio-pika", "prometheus-client", "fastwarc", "stamina"}
# The demo and its broker helper: development tools of the repository, not
# part of what `pip install` gives a user.
NOT_SHIPPED: Final = ("worker/demo.py", "worker/devbroker.py")
# What .gitignore keeps out of a checkout (caches, build outputs, mypyc's
# in-place modules): the copy that is built is what a fresh clone holds.
_IGNORED: Final = shutil.ignore_patterns(
    ".git", ".venv", "__pycache__", "*.py[cod]", ".mypy_cache", ".ruff_cache", ".pytest_cache",
    ".hypothesis", "*.egg-info", "build", "dist", "*.so", "*__mypyc*", "*.highlight.html",
)  # fmt: skip


SETUPTOOLS_MIN: Final = 77  # PEP 639's `license = "MIT"` in pyproject.toml
TIMEOUT: Final = 120
# The wheel's build compiles the fit's modules (mypyc, Cython): minutes on a loaded
# 2-core machine. A bound against a hang, not a speed target.
BUILD_TIMEOUT: Final = 900
WORKER_TIMEOUT: Final = 30  # `python -m worker` that does not exit has started: a failure

PAGE: Final = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Water plumes</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About us</a></nav>
<article><h1>Water plumes on Europa</h1>
<p>Astronomers using the telescope have seen what appear to be plumes of water vapour
rising from the surface of the moon, a finding that would make it easier to sample the
ocean that is thought to lie beneath its icy crust without drilling through ice.</p>
<p>The plumes were seen on three of ten occasions over fifteen months, each time near
the south pole, and they reached heights of up to two hundred kilometres.</p>
</article>
<footer><a href="/privacy">Privacy</a> <a href="/terms">Terms</a> Copyright Example News</footer>
</body></html>
"""


def _not_in_a_checkout(directory: str, names: list[str]) -> set[str]:
    ignored = set(_IGNORED(directory, names))
    if Path(directory).resolve() == ROOT / "bench":
        ignored.add("out")  # /bench/out/
    return ignored


@dataclass(frozen=True)
class Wheel:
    path: Path
    names: list[str]  # the archive's file list
    metadata: email.message.Message
    entry_points: configparser.ConfigParser

    def __repr__(self) -> str:  # pytest shows it with every failure
        return f"Wheel({self.path.name})"


@dataclass(frozen=True)
class Venv:
    python: Path
    scripts: Path
    site_packages: Path
    env: dict[str, str]  # no PYTHONPATH, no user site, no BLOCKDENSITY_* settings
    cwd: Path  # not the repository: `python -c` must not import the source tree


def _run(
    command: list[str | Path],
    *,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = TIMEOUT,
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # noqa: S603 - our own commands
        [str(part) for part in command],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=cwd,
        check=False,  # the callers check, and show the output
    )


def _check(result: subprocess.CompletedProcess[str], what: str) -> None:
    assert result.returncode == 0, (
        f"{what} failed (exit {result.returncode}):\n{result.stdout}\n{result.stderr}"
    )


def _wheel_file(names: list[str], suffix: str, zf: zipfile.ZipFile) -> str:
    (name,) = [n for n in names if re.fullmatch(rf"[^/]+\.dist-info/{suffix}", n)]
    return zf.read(name).decode("utf-8")


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Wheel:
    setuptools = importlib.metadata.version("setuptools")
    if int(setuptools.split(".")[0]) < SETUPTOOLS_MIN:
        pytest.fail(
            f"setuptools {setuptools} in {sys.prefix} cannot build this project offline "
            f"(needs >= {SETUPTOOLS_MIN}): run ./dev setup, which installs the pinned one"
        )
    base = tmp_path_factory.mktemp("wheel")
    source, out = base / "source", base / "out"
    shutil.copytree(ROOT, source, ignore=_not_in_a_checkout, symlinks=True)
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    command: list[str | Path] = [sys.executable, "-m", "pip", "wheel", "--no-deps"]
    command += ["--no-build-isolation", "--no-index", "--wheel-dir", out, source]
    result = _run(command, env=env, timeout=BUILD_TIMEOUT)
    _check(result, "pip wheel")
    (path,) = out.glob("blockdensity-*.whl")
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        metadata = email.parser.Parser().parsestr(_wheel_file(names, "METADATA", zf))
        entry_points = configparser.ConfigParser(interpolation=None)
        entry_points.read_string(_wheel_file(names, "entry_points.txt", zf))
    return Wheel(path, names, metadata, entry_points)


def _library_dependencies(wheel: Wheel) -> Iterator[importlib.metadata.Distribution]:
    """The installed distributions `pip install blockdensity` needs: the closure, no extras."""
    pending = [Requirement(r) for r in wheel.metadata.get_all("Requires-Dist", [])]
    seen: set[str] = set()
    while pending:
        requirement = pending.pop()
        name = canonicalize_name(requirement.name)
        if name in seen or (
            requirement.marker is not None and not requirement.marker.evaluate({"extra": ""})
        ):
            continue
        seen.add(name)
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            pytest.fail(f"{name}, a dependency of the library, is not installed in {sys.prefix}")
        pending += [Requirement(r) for r in dist.requires or []]
        yield dist


@pytest.fixture(scope="session")
def venv(wheel: Wheel, tmp_path_factory: pytest.TempPathFactory) -> Venv:
    base = tmp_path_factory.mktemp("venv")
    root, deps = base / "venv", base / "deps"
    _check(_run([sys.executable, "-m", "venv", "--without-pip", root]), "python -m venv")
    paths = sysconfig.get_paths(scheme="venv", vars={"base": str(root), "platbase": str(root)})
    site_packages, scripts = Path(paths["purelib"]), Path(paths["scripts"])
    python = scripts / "python"
    # The library's dependencies, and only they, linked from this environment.
    deps.mkdir()
    for dist in _library_dependencies(wheel):
        tops = {file.parts[0] for file in dist.files or []} - {"..", "__pycache__"}
        if not tops:
            pytest.fail(f"{dist.name} in {sys.prefix} lists no files (no RECORD): cannot link it")
        for top in tops:
            (deps / top).symlink_to(Path(str(dist.locate_file(top))).resolve())
    (site_packages / "library-dependencies.pth").write_text(f"{deps}\n", encoding="utf-8")
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("PYTHON", "BLOCKDENSITY_", "PIP_")) and name != "VIRTUAL_ENV"
    }
    # No bytecode written: the linked dependencies are this environment's files.
    env |= {
        "PYTHONNOUSERSITE": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    # This environment's pip, run for the new interpreter: it installs there
    # and writes the console script for that interpreter.
    command: list[str | Path] = [sys.executable, "-m", "pip", "--python", python, "install"]
    command += ["--no-deps", "--no-index", wheel.path]
    _check(_run(command, env=env, cwd=base), "pip install of the wheel")
    return Venv(python, scripts, site_packages, env, base)


def _python(venv: Venv, *args: str, timeout: float = TIMEOUT) -> subprocess.CompletedProcess[str]:
    return _run([venv.python, *args], env=venv.env, cwd=venv.cwd, timeout=timeout)


# --- the metadata -----------------------------------------------------------------


def test_library_requires_only_the_parser_the_decoder_and_the_language_detector(
    wheel: Wheel,
) -> None:
    requirements = [Requirement(r) for r in wheel.metadata.get_all("Requires-Dist", [])]
    unconditional = {canonicalize_name(r.name) for r in requirements if r.marker is None}
    assert unconditional == LIBRARY_REQUIREMENTS
    for requirement in requirements:
        assert requirement.specifier, f"{requirement} lost its version floor"


def test_worker_stack_comes_only_with_the_worker_extra(wheel: Wheel) -> None:
    assert wheel.metadata.get_all("Provides-Extra") == ["worker"]
    conditional = [
        r for r in map(Requirement, wheel.metadata.get_all("Requires-Dist", [])) if r.marker
    ]
    for requirement in conditional:
        marker = requirement.marker
        assert marker is not None
        assert marker.evaluate({"extra": "worker"}), f"{requirement}: not the worker extra"
        assert not marker.evaluate({"extra": ""}), f"{requirement}: also without the extra"
    assert {canonicalize_name(r.name) for r in conditional} == WORKER_REQUIREMENTS
    # What `python -m worker` names when they are missing.
    assert set(EXTRA_MODULES.values()) == WORKER_REQUIREMENTS


def test_wheel_installs_the_command(wheel: Wheel) -> None:
    assert wheel.entry_points.sections() == ["console_scripts"]
    assert dict(wheel.entry_points["console_scripts"]) == {
        "blockdensity": "blockdensity.cli:run",
        "blockdensity-worker": "worker.__main__:run",
        "blockdensity-feed": "worker.feed.__main__:run",
        "blockdensity-collect": "worker.collect.__main__:run",
    }


# --- the file list ----------------------------------------------------------------


def test_wheel_holds_the_two_packages_and_nothing_else(wheel: Wheel) -> None:
    dist_info = f"blockdensity-{wheel.metadata['Version']}.dist-info"
    tops = {name.split("/")[0] for name in wheel.names}
    # mypyc's runtime for the modules it compiled: one shared library beside the packages.
    (runtime,) = [top for top in tops if re.fullmatch(r"[0-9a-f]+__mypyc\..+\.so", top)]
    assert tops == {"blockdensity", "worker", dist_info, runtime}, sorted(tops)
    # Each module setup.py compiles, as an extension module (no pure-Python build).
    for compiled in compiled_sources():
        module = compiled.relative_to(ROOT).with_suffix("").as_posix()
        assert any(re.fullmatch(rf"{module}\..+\.so", n) for n in wheel.names), module
    for name in NOT_SHIPPED:
        assert name not in wheel.names, f"{name} is a development tool, not the package's"
    for package in ("blockdensity", "worker"):
        assert f"{package}/py.typed" in wheel.names
        shipped = {n for n in wheel.names if n.startswith(f"{package}/") and n.endswith(".py")}
        # Every module of the source tree (a subpackage missing from
        # [tool.setuptools] packages would be left out).
        source = {
            path.relative_to(ROOT).as_posix() for path in (ROOT / package).rglob("*.py")
        } - set(NOT_SHIPPED)
        assert shipped == source, (shipped ^ source, "differs from the source tree")


# --- the library installed alone --------------------------------------------------


def test_library_imports_from_the_wheel(venv: Venv) -> None:
    code = (
        "import blockdensity\n"
        "print(blockdensity.__file__)\n"
        "print(blockdensity.fit_text(b'<p>Caf\\xc3\\xa9 au lait</p>').text)\n"
    )
    result = _python(venv, "-c", code)
    _check(result, "import blockdensity")
    location, text = result.stdout.splitlines()
    assert Path(location).resolve().is_relative_to(venv.site_packages.resolve()), location
    assert text == "Caf\u00e9 au lait"  # decoded (webencodings, cchardet), parsed (selectolax)


def test_command_prints_the_main_text(venv: Venv) -> None:
    page = venv.cwd / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    result = _run([venv.scripts / "blockdensity", page], env=venv.env, cwd=venv.cwd)
    _check(result, "blockdensity page.html")
    assert result.stdout.splitlines()[0] == "Water plumes on Europa"
    assert "plumes of water vapour" in result.stdout
    assert "two hundred kilometres" in result.stdout
    assert "About us" not in result.stdout  # the nav, dropped
    assert "Privacy" not in result.stdout  # the footer
    assert result.stderr == ""


def test_worker_stack_is_not_installed(venv: Venv) -> None:
    probe = (
        "import importlib, sys\n"
        "for name in sys.argv[1:]:\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ModuleNotFoundError:\n"
        "        print(name)\n"
    )
    modules = ["aio_pika", "prometheus_client", "fastwarc", "stamina"]
    result = _python(venv, "-c", probe, *modules)
    _check(result, "the import probe")
    assert result.stdout.split() == modules, "importable without the extra"


def test_worker_without_the_extra_says_what_to_install(venv: Venv) -> None:
    try:
        result = _python(venv, "-m", "worker", timeout=WORKER_TIMEOUT)
    except subprocess.TimeoutExpired as error:
        pytest.fail(f"python -m worker started without the extra; its output: {error.stderr!r}")
    assert result.returncode == 1, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    (line,) = lines
    assert line.startswith('python -m worker: needs the "worker" extra: ')
    assert 'pip install "blockdensity[worker]"' in line
    for dist in WORKER_REQUIREMENTS:
        assert dist in line, f"{dist} not named in {line!r}"


def test_feed_and_collect_without_the_extra_say_what_to_install(venv: Venv) -> None:
    for command in ("blockdensity-feed", "blockdensity-collect"):
        result = _run([venv.scripts / command, "in"], env=venv.env, cwd=venv.cwd)
        assert result.returncode == 1, result.stderr
        (line,) = result.stderr.splitlines()
        assert line.startswith(f'{command}: needs the "worker" extra: ')
        assert 'pip install "blockdensity[worker]"' in line


def test_worker_help_needs_no_extra(venv: Venv) -> None:
    result = _python(venv, "-m", "worker", "--help")
    _check(result, "python -m worker --help")
    assert "BLOCKDENSITY_AMQP_URL" in result.stdout
    # The console script is the same program.
    script = _run([venv.scripts / "blockdensity-worker", "--help"], env=venv.env, cwd=venv.cwd)
    _check(script, "blockdensity-worker --help")
    assert script.stdout == result.stdout


# --- the guard itself ------------------------------------------------------------


def test_missing_module_of_the_project_is_a_bug_not_a_missing_extra() -> None:
    for name in ("worker.nowhere", "blockdensity.nowhere"):
        assert missing_extra(ModuleNotFoundError(name=name)) is None
    assert missing_extra(ModuleNotFoundError()) is None


def test_missing_dependency_of_the_extra_is_named() -> None:
    # Here the extra is installed: what is missing is what the error names.
    assert missing_extra(ModuleNotFoundError(name="aiormq.abc")) == "aiormq is not installed"
