"""The README's demo: python -m devkit.demo runs end to end and says what came back."""

from __future__ import annotations

import subprocess
import sys

import pytest

from devkit.messages import sample_pages
from devkit.paths import ROOT

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def test_demo_runs_end_to_end(rabbitmq: None) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "devkit.demo"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=180,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    for sample in sample_pages():
        assert f"== {sample.name}" in out
    assert "title:  NASA Just Confirmed There Are Water Plumes" in out
    # The German page declares English: both languages are shown.
    german = out[out.index("== de-comwrap-dmexco") :]
    assert german.splitlines()[2].startswith("   lang:   declared en, detected de (")
    assert f"pages by outcome:     ok {len(sample_pages())}" in out
    assert "SIGTERM sent: the worker exited with status 0" in out
