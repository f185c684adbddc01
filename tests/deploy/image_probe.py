"""What the image holds, as seen from inside it: run there by tests/deploy/test_image.py.

Standard library only, and given to the image's `python -c` as source: it
writes one JSON object of facts to the file its first argument names (in a
directory the test binds from the host; `buildah run` once returned status 0
with its stdout empty, so the facts do not travel through it), and the test
decides. Facts, not verdicts, so a failure shows what the image actually
has.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

# What a build toolchain or a developer's environment would bring.
TOOLS = ["gcc", "cc", "c++", "g++", "clang", "make", "ld", "as", "pip", "pip3", "git"]
MODULES = ["pip", "setuptools", "wheel", "mypy", "mypyc", "Cython", "pytest", "ruff", "hypothesis"]


def _base_python_has(module: str) -> bool:
    """Whether the base image's own interpreter (not the venv's) can import `module`."""
    base = os.path.realpath(sys.executable)
    result = subprocess.run(  # noqa: S603 - the image's interpreter, fixed code
        [base, "-I", "-c", f"import {module}"], capture_output=True, check=False
    )
    return result.returncode == 0


def _module_file(name: str) -> str | None:
    spec = importlib.util.find_spec(name)
    return None if spec is None else spec.origin


def _writable(path: str) -> bool:
    try:
        with open(os.path.join(path, ".probe-write"), "w") as handle:
            handle.write("x")
    except OSError:
        return False
    os.remove(os.path.join(path, ".probe-write"))
    return True


def facts(compiled: list[str]) -> dict[str, object]:
    distribution = importlib.metadata.distribution("blockdensity")
    ca = Path("/etc/ssl/certs/ca-certificates.crt")
    return {
        "uid": os.getuid(),
        "gid": os.getgid(),
        "cwd": os.getcwd(),
        "python": platform.python_version(),
        "executable": sys.executable,
        "prefix": sys.prefix,
        "modules": {name: _module_file(name) for name in compiled},
        "tools": {name: shutil.which(name) for name in TOOLS},
        "importable": {name: importlib.util.find_spec(name) is not None for name in MODULES},
        "base_python_pip": _base_python_has("pip"),
        "python_h": (Path(sysconfig.get_paths()["include"]) / "Python.h").exists(),
        "distributions": {
            dist.metadata["Name"]: dist.version for dist in importlib.metadata.distributions()
        },
        "record": sorted(str(file) for file in distribution.files or []),
        "writable": {path: _writable(path) for path in ["/tmp", "/opt/venv", "/usr", "/etc", "/"]},  # noqa: S108
        "ca_bundle_sha256": hashlib.sha256(ca.read_bytes()).hexdigest() if ca.exists() else None,
        "environ": sorted(os.environ),
    }


if __name__ == "__main__":
    Path(sys.argv[1]).write_text(json.dumps(facts(sys.argv[2:])), encoding="utf-8")
