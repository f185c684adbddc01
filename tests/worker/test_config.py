"""The settings: defaults, every variable parsed, invalid values named, the password hidden;
a settings type per program, each reading and listing only its own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from worker.config import (
    SETTINGS,
    BrokerSettings,
    CollectSettings,
    ConfigError,
    FeedSettings,
    StageSettings,
    available_cpus,
    redact_url,
    unknown_variables,
    unverified_tls,
)


def test_defaults() -> None:
    settings = StageSettings.from_env({})
    assert settings.amqp_url == "amqp://guest:guest@127.0.0.1:5672/"
    assert settings.input_queue == "pages.fetched"
    assert settings.output_exchange == "pages"
    assert settings.output_routing_key == "clean"
    assert settings.output_queue == "pages.clean"
    assert settings.dead_letter_exchange == "pages.dlx"
    assert settings.dead_letter_queue == "pages.dead"
    assert settings.delivery_limit == 5
    assert settings.pool_size == available_cpus()
    assert settings.prefetch == 2 * settings.pool_size
    assert settings.fit_timeout == 10.0
    assert settings.max_body_bytes == 8 * 1024 * 1024
    assert settings.grace_period == 25.0
    assert settings.http_port == 9108
    assert settings.log_level == "INFO"
    assert settings.log_format == "text"
    assert settings.fit_function == ""


def test_available_cpus_is_the_affinity_not_the_machine() -> None:
    assert 1 <= available_cpus() <= len(os.sched_getaffinity(0))


def test_overrides() -> None:
    settings = StageSettings.from_env(
        {
            "BLOCKDENSITY_POOL_SIZE": "3",
            "BLOCKDENSITY_MAX_BODY_BYTES": "512KiB",
            "BLOCKDENSITY_FIT_TIMEOUT": "2.5s",
            "BLOCKDENSITY_LOG_LEVEL": "debug",
            "BLOCKDENSITY_LOG_FORMAT": "JSON",
            "BLOCKDENSITY_INPUT_QUEUE": "crawl.pages",
            "BLOCKDENSITY_FIT_FUNCTION": "devkit.faults:fit_page_with_markers",
        }
    )
    assert settings.pool_size == 3
    assert settings.prefetch == 6  # follows the pool size unless set
    assert settings.max_body_bytes == 512 * 1024
    assert settings.fit_timeout == 2.5
    assert settings.log_level == "DEBUG"
    assert settings.log_format == "json"
    assert settings.input_queue == "crawl.pages"
    assert settings.fit_function == "devkit.faults:fit_page_with_markers"


def test_empty_value_means_default() -> None:
    assert StageSettings.from_env({"BLOCKDENSITY_PREFETCH": " "}).prefetch == 2 * available_cpus()


@pytest.mark.parametrize(
    ("variable", "value", "complaint"),
    [
        ("BLOCKDENSITY_POOL_SIZE", "two", "whole number"),
        ("BLOCKDENSITY_POOL_SIZE", "0", "between 1"),
        ("BLOCKDENSITY_PREFETCH", "-1", "between 1"),
        ("BLOCKDENSITY_DELIVERY_LIMIT", "1.5", "whole number"),
        ("BLOCKDENSITY_FIT_TIMEOUT", "soon", "seconds"),
        ("BLOCKDENSITY_FIT_TIMEOUT", "nan", "between"),
        ("BLOCKDENSITY_MAX_BODY_BYTES", "8MB", "KiB, MiB or GiB"),
        ("BLOCKDENSITY_HTTP_PORT", "70000", "between 0 and 65535"),
        ("BLOCKDENSITY_LOG_LEVEL", "loud", "one of"),
        ("BLOCKDENSITY_LOG_FORMAT", "xml", "one of"),
        ("BLOCKDENSITY_FIT_FUNCTION", "segfault", "module:function"),
        ("BLOCKDENSITY_FIT_FUNCTION", "devkit.nowhere:fit", "cannot import it"),
        ("BLOCKDENSITY_FIT_FUNCTION", "devkit.faults:no_such_fit", "cannot import it"),
        ("BLOCKDENSITY_FIT_FUNCTION", "devkit.faults:MARKERS_FIT", "not name a function"),
        ("BLOCKDENSITY_AMQP_URL", "http://broker/", "amqp://"),
        ("BLOCKDENSITY_INPUT_QUEUE", "q" * 256, "255 bytes"),
        ("BLOCKDENSITY_PROFILE", "tabloid", "one of"),
        ("BLOCKDENSITY_OUTPUT_BLOCKS", "maybe", "expected one of true"),
        ("BLOCKDENSITY_FORMAT", "html", "one of 'text', 'markdown'"),
    ],
)
def test_invalid_value_names_the_variable(variable: str, value: str, complaint: str) -> None:
    with pytest.raises(ConfigError) as error:
        StageSettings.from_env({variable: value})
    assert str(error.value).startswith(f"{variable}=")
    assert complaint in str(error.value)


def test_password_is_never_shown() -> None:
    url = "amqp://crawler:s3cret@rabbit.internal:5672/pages"
    settings = StageSettings.from_env({"BLOCKDENSITY_AMQP_URL": url})
    assert settings.amqp_url == url
    assert "s3cret" not in repr(settings)
    assert "s3cret" not in str(settings)
    assert redact_url(url) == "amqp://crawler:***@rabbit.internal:5672/pages"
    assert redact_url("amqp://localhost/") == "amqp://localhost/"
    with pytest.raises(ConfigError) as error:
        StageSettings.from_env({"BLOCKDENSITY_AMQP_URL": "https://crawler:s3cret@h/"})
    assert "s3cret" not in str(error.value)


def test_a_cluster_is_a_list_of_addresses_each_checked_and_redacted() -> None:
    urls = "amqp://u:pw1@node-a:5672/, amqp://u:pw2@node-b:5672/,amqp://u:pw3@node-c/"
    settings = StageSettings.from_env({"BLOCKDENSITY_AMQP_URL": urls})
    assert settings.amqp_urls == (
        "amqp://u:pw1@node-a:5672/",
        "amqp://u:pw2@node-b:5672/",
        "amqp://u:pw3@node-c/",
    )
    shown = repr(settings)
    assert not any(secret in shown for secret in ("pw1", "pw2", "pw3"))
    assert "amqp://u:***@node-b:5672/" in shown
    assert redact_url(settings.amqp_url).count("***") == 3


@pytest.mark.parametrize(
    ("urls", "complaint"),
    [
        ("amqp://u:pw1@a/,http://u:pw2@b/", "address 2 of 2 ('http://u:***@b/') must be an amqp"),
        ("amqp://u:pw1@a/,", "address 2 of 2 ('') must be an amqp"),
        ("amqp://u:pw1@a:99999/", "cannot be parsed: Port out of range"),
        ("amqp://u:p,w@a/", "a password with a comma must be written %2C"),
    ],
)
def test_an_address_that_cannot_be_used_fails_at_start(urls: str, complaint: str) -> None:
    with pytest.raises(ConfigError) as error:
        StageSettings.from_env({"BLOCKDENSITY_AMQP_URL": urls})
    message = str(error.value)
    assert message.startswith("BLOCKDENSITY_AMQP_URL=")
    assert complaint in message
    assert "pw1" not in message
    assert "pw2" not in message


@pytest.mark.parametrize(
    ("value", "queues"),
    [
        ("pages.fetched", ("pages.fetched",)),
        ("a, b,c", ("a", "b", "c")),
        ("pages.fetched.{0..3}", tuple(f"pages.fetched.{n}" for n in range(4))),
        ("x.{8..9}.in,y", ("x.8.in", "x.9.in", "y")),
    ],
)
def test_input_queues_are_one_a_list_or_a_family(value: str, queues: tuple[str, ...]) -> None:
    assert StageSettings.from_env({"BLOCKDENSITY_INPUT_QUEUE": value}).input_queues == queues


@pytest.mark.parametrize(
    ("value", "complaint"),
    [("a,a", "names a queue twice"), ("q.{5..2}", "at most 1000 names"), ("a,,b", "1 to 255")],
)
def test_bad_input_queues_say_why(value: str, complaint: str) -> None:
    with pytest.raises(ConfigError, match=complaint):
        StageSettings.from_env({"BLOCKDENSITY_INPUT_QUEUE": value})


def test_unknown_variables_are_reported() -> None:
    env = {"BLOCKDENSITY_POOL_SIZ": "2", "BLOCKDENSITY_POOL_SIZE": "2", "BLOCKDENSITY_DATA": "x"}
    assert unknown_variables(env) == ["BLOCKDENSITY_POOL_SIZ"]


@pytest.mark.parametrize(
    ("url", "unverified"),
    [
        ("amqps://u:p@h:5671/?cafile=/ca.pem", False),
        ("amqps://u:p@h:5671/?no_verify_ssl=0", False),
        ("amqps://u:p@h:5671/?no_verify_ssl=1", True),
        ("amqps://u:p@h:5671/?cafile=/ca.pem&no_verify_ssl=", True),  # aiormq: not "0"
        ("amqps://u:p@h:5671/?no_verify_ssl=yes&no_verify_ssl=0", True),  # the first counts
        ("amqp://u:p@h:5672/?no_verify_ssl=1", False),  # no TLS to verify
    ],
)
def test_a_url_that_turns_certificate_checks_off_is_told(url: str, unverified: bool) -> None:
    assert unverified_tls(StageSettings.from_env({"BLOCKDENSITY_AMQP_URL": url})) is unverified


def test_help_lists_every_variable_with_its_default() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "worker", "--help"], capture_output=True, text=True, check=True
    )
    for setting in SETTINGS:
        assert setting.env in result.stdout
    assert "(default: pages.fetched)" in result.stdout
    assert "(default: 8MiB)" in result.stdout


def test_invalid_setting_exits_2_naming_the_variable() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "worker"],
        capture_output=True,
        text=True,
        env={**os.environ, "BLOCKDENSITY_GRACE_PERIOD": "forever"},
        check=False,
    )
    assert result.returncode == 2
    assert "BLOCKDENSITY_GRACE_PERIOD='forever'" in result.stderr


def test_the_documentation_lists_every_variable() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "worker.md").read_text()
    for setting in SETTINGS:
        assert f"| `{setting.env}` |" in text


@pytest.mark.parametrize(
    ("value", "expected"), [("true", True), ("YES", True), ("0", False), ("off", False)]
)
@pytest.mark.parametrize("name", ["output_blocks", "markdown_links", "markdown_images"])
def test_switches_read_the_usual_booleans(name: str, value: str, expected: bool) -> None:
    variable = f"BLOCKDENSITY_{name.upper()}"
    assert getattr(StageSettings.from_env({variable: value}), name) is expected
    assert getattr(StageSettings.from_env({}), name) is False


# --- a settings type per program ----------------------------------------------------

PROGRAMS: dict[str, tuple[type[BrokerSettings], str]] = {
    "python -m worker": (StageSettings, "worker"),
    "blockdensity-feed": (FeedSettings, "worker.feed"),
    "blockdensity-collect": (CollectSettings, "worker.collect"),
}
FEED_VARIABLES = {
    "BLOCKDENSITY_AMQP_URL",
    "BLOCKDENSITY_INPUT_QUEUE",
    "BLOCKDENSITY_INPUT_EXCHANGE",
    "BLOCKDENSITY_DEAD_LETTER_EXCHANGE",
    "BLOCKDENSITY_DELIVERY_LIMIT",
    "BLOCKDENSITY_MAX_BODY_BYTES",
    "BLOCKDENSITY_PUBLISH_TIMEOUT",
}
COLLECT_VARIABLES = {
    "BLOCKDENSITY_AMQP_URL",
    "BLOCKDENSITY_OUTPUT_EXCHANGE",
    "BLOCKDENSITY_OUTPUT_ROUTING_KEY",
    "BLOCKDENSITY_OUTPUT_QUEUE",
    "BLOCKDENSITY_DEAD_LETTER_EXCHANGE",
    "BLOCKDENSITY_DEAD_LETTER_QUEUE",
}


def _variables(help_text: str) -> set[str]:
    return {line.split()[0] for line in help_text.splitlines() if line.startswith("  BLOCK")}


def test_each_program_reads_its_own_settings_and_no_other() -> None:
    assert _variables(StageSettings.help_table()) == {setting.env for setting in SETTINGS}
    assert _variables(FeedSettings.help_table()) == FEED_VARIABLES
    assert _variables(CollectSettings.help_table()) == COLLECT_VARIABLES
    # Another program's setting, even a broken one, is not the feeder's or the collector's
    # business: the fit seam is not imported, the CPUs not counted.
    others = {
        "BLOCKDENSITY_FIT_FUNCTION": "nowhere.at.all:fit",
        "BLOCKDENSITY_POOL_SIZE": "many",
        "BLOCKDENSITY_INPUT_QUEUE": "q",
        "BLOCKDENSITY_OUTPUT_QUEUE": "out",
    }
    assert FeedSettings.from_env(others).input_queues == ("q",)
    assert CollectSettings.from_env(others).output_queue == "out"
    with pytest.raises(ConfigError, match="BLOCKDENSITY_POOL_SIZE='many'"):
        StageSettings.from_env(others)
    # The same variable means the same to each: one table.
    env = {"BLOCKDENSITY_INPUT_QUEUE": "pages.{0..1}", "BLOCKDENSITY_DELIVERY_LIMIT": "7"}
    stage, feed = StageSettings.from_env(env), FeedSettings.from_env(env)
    assert stage.input_queues == feed.input_queues == ("pages.0", "pages.1")
    assert stage.delivery_limit == feed.delivery_limit == 7


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_no_program_shows_the_password(program: str) -> None:
    kind, _ = PROGRAMS[program]
    settings = kind.from_env({"BLOCKDENSITY_AMQP_URL": "amqp://crawler:s3cret@rabbit/"})
    assert repr(settings).startswith(f"{kind.__name__}(amqp_url='amqp://crawler:***@rabbit/'")
    assert "s3cret" not in repr(settings)
    assert "s3cret" not in str(settings)


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_each_help_lists_exactly_its_own_variables(program: str) -> None:
    kind, module = PROGRAMS[program]
    result = subprocess.run(  # noqa: S603 - our own interpreter and modules
        [sys.executable, "-m", module, "--help"], capture_output=True, text=True, check=True
    )
    assert result.stdout.startswith(f"usage: {program}")
    listed = _variables(result.stdout[result.stdout.index("environment variables:") :])
    assert listed == _variables(kind.help_table())


@pytest.mark.parametrize(("value", "expected"), [("text", "text"), (" Markdown ", "markdown")])
def test_format_is_text_or_markdown(value: str, expected: str) -> None:
    assert StageSettings.from_env({"BLOCKDENSITY_FORMAT": value}).format == expected
    assert StageSettings.from_env({}).format == "text"
