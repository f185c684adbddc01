"""Settings: every BLOCKDENSITY_* environment variable, declared once; a settings type per program.

SETTINGS declares each variable once, with its parser, default and meaning.
Each program reads only its own: `StageSettings` (python -m worker),
`FeedSettings` (blockdensity-feed) and `CollectSettings`
(blockdensity-collect) list the settings they use as their fields, and
`from_env` parses those and no other (the feeder neither imports the fit
function seam nor reads the cgroup's CPU quota); each program's `--help`
prints its own part of the table (`help_table`). A value that does not
parse raises ConfigError naming the variable (each entry point turns it
into exit status 2). The library is imported only to parse the stage's
settings of the fit (profile, comments): the feeder and the collector
import no part of it.
"""

from __future__ import annotations

import math
import os
import pkgutil
import re
import textwrap
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Self
from urllib.parse import parse_qs, urlsplit, urlunsplit

if TYPE_CHECKING:
    from blockdensity import Comments, Profile

__all__ = [
    "ENV_PREFIX",
    "OUTPUT_FORMATS",
    "SETTINGS",
    "BrokerSettings",
    "CollectSettings",
    "ConfigError",
    "FeedSettings",
    "StageSettings",
    "available_cpus",
    "describe_statuses",
    "parse_statuses",
    "redact_url",
    "unknown_variables",
    "unverified_tls",
]

ENV_PREFIX: Final = "BLOCKDENSITY_"
LOG_LEVELS: Final = ("DEBUG", "INFO", "WARNING", "ERROR")
LOG_FORMATS: Final = ("text", "json")
# BLOCKDENSITY_FORMAT: what the stage's output holds besides the text.
OUTPUT_FORMATS: Final = ("text", "markdown")
# Variables with the prefix that belong to other tools of this project.
_FOREIGN: Final = frozenset({"BLOCKDENSITY_DATA"})


class ConfigError(ValueError):
    """A BLOCKDENSITY_* variable has a value that cannot be used."""


@dataclass(frozen=True, slots=True)
class BrokerSettings:
    """What every program reads, the broker's address; the base of each program's settings.

    A program's settings are a frozen dataclass of this base whose fields
    are names of SETTINGS: `from_env` fills exactly those. Declared with
    `repr=False`, so that this `__repr__`, which hides the password, is its.
    """

    amqp_url: str

    @property
    def amqp_urls(self) -> tuple[str, ...]:
        """The broker's addresses: one, or the nodes of one cluster."""
        return tuple(self.amqp_url.split(","))

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Self:
        """Parse this program's BLOCKDENSITY_* variables of `env` (default: os.environ)."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for setting in _settings_of(cls):
            raw = env.get(setting.env)
            if raw is None or not raw.strip():  # unset or empty: the default
                if setting.derive is not None:
                    values[setting.field] = setting.derive(values)
                    continue
                raw = setting.default
            try:
                values[setting.field] = setting.parse(raw)
            except ValueError as error:
                shown = redact_url(raw) if setting.field == "amqp_url" else raw
                raise ConfigError(f"{setting.env}={shown!r}: {error}") from None
        return cls(**values)

    @classmethod
    def help_table(cls, width: int = 79) -> str:
        """This program's variables with their defaults and meanings, for --help."""
        defaults = cls.from_env({})  # a derived default is shown as it comes out here
        lines = []
        for setting in _settings_of(cls):
            if setting.derive is not None:
                default = f"{setting.default}; here {getattr(defaults, setting.field)}"
            else:
                default = setting.default or "empty"
            lines.append(f"  {setting.env}  (default: {default})")
            lines += textwrap.wrap(
                setting.help, width, initial_indent=" " * 6, subsequent_indent=" " * 6
            )
        return "\n".join(lines)

    def __repr__(self) -> str:
        # The URL's password must never reach a log line or a traceback.
        values = "".join(
            f", {field.name}={_shown(getattr(self, field.name))}"
            for field in fields(self)
            if field.name != "amqp_url"
        )
        return f"{type(self).__name__}(amqp_url={redact_url(self.amqp_url)!r}{values})"

    __str__ = __repr__


class _InputQueues:
    """The input queues' names as a tuple, for the programs that read BLOCKDENSITY_INPUT_QUEUE."""

    __slots__ = ()
    input_queue: str

    @property
    def input_queues(self) -> tuple[str, ...]:
        """The input queues' names: one, or a list (a family written out)."""
        return tuple(self.input_queue.split(","))


@dataclass(frozen=True, slots=True, repr=False)
class StageSettings(BrokerSettings, _InputQueues):
    """The queue stage's configuration (python -m worker): every setting."""

    input_queue: str
    input_exchange: str
    output_exchange: str
    output_routing_key: str
    output_queue: str
    dead_letter_exchange: str
    dead_letter_queue: str
    delivery_limit: int
    pool_size: int
    prefetch: int
    max_tasks_per_child: int
    fit_memory_limit: int
    fit_recycle_memory: int
    pool_watch_interval: float
    fit_timeout: float
    pool_start_timeout: float
    publish_timeout: float
    publish_retry_for: float
    max_body_bytes: int
    max_url_bytes: int
    fit_statuses: frozenset[int]
    grace_period: float
    reconnect_interval: float
    heartbeat: int
    broker_timeout: float
    broker_check_interval: float
    http_host: str
    http_port: int
    liveness_timeout: float
    log_level: str
    log_format: str
    fit_function: str
    profile: Profile
    comments: Comments
    output_blocks: bool
    format: str
    markdown_links: bool
    markdown_images: bool


@dataclass(frozen=True, slots=True, repr=False)
class FeedSettings(BrokerSettings, _InputQueues):
    """blockdensity-feed's: where the pages go (the input queues, declared as the stage
    declares them), how large a page may be, how long a confirm may take."""

    input_queue: str
    input_exchange: str
    dead_letter_exchange: str
    delivery_limit: int
    max_body_bytes: int
    publish_timeout: float


@dataclass(frozen=True, slots=True, repr=False)
class CollectSettings(BrokerSettings):
    """blockdensity-collect's: the output and dead-letter queues (declared as the stage
    declares them)."""

    output_exchange: str
    output_routing_key: str
    output_queue: str
    dead_letter_exchange: str
    dead_letter_queue: str


def _shown(value: object) -> str:
    if isinstance(value, frozenset):  # the statuses: as the setting writes them
        return repr(describe_statuses(value))
    return repr(value)


@dataclass(frozen=True, slots=True)
class Setting:
    """One variable: the field it fills, how to parse it, its default and meaning."""

    field: str
    parse: Callable[[str], Any]
    default: str  # as the user would write it; with `derive`, what it is computed from
    help: str
    derive: Callable[[dict[str, Any]], Any] | None = None  # default from other settings

    @property
    def env(self) -> str:
        return ENV_PREFIX + self.field.upper()


def available_cpus() -> int:
    """CPUs this process may use: its affinity mask, capped by a cgroup CPU quota.

    os.cpu_count() counts the machine's CPUs, which on Kubernetes is the
    node's, not the container's share.
    """
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    count = cpus or 1
    quota = _cgroup_cpu_quota()
    if quota is not None:
        count = min(count, max(1, math.ceil(quota)))
    return count


def _cgroup_cpu_quota() -> float | None:
    """The cgroup v2 CPU limit in CPUs ("max 100000" means none), if readable."""
    try:
        text = Path("/sys/fs/cgroup/cpu.max").read_text(encoding="ascii").split()
    except OSError:
        return None
    if len(text) != 2 or text[0] == "max":
        return None
    try:
        return int(text[0]) / int(text[1])
    except (ValueError, ZeroDivisionError):
        return None


def _optional_name(value: str) -> str:
    return _name(value) if value.strip() else ""


def _name(value: str) -> str:
    # AMQP short strings: at most 255 bytes; an empty name would mean the
    # default exchange or a server-named queue, never what is meant here.
    if not value or len(value.encode()) > 255:
        raise ValueError("must be 1 to 255 bytes")
    return value


_FAMILY = re.compile(r"(?P<stem>.*)\{(?P<first>\d+)\.\.(?P<last>\d+)\}(?P<tail>.*)")


def _queue_names(value: str) -> str:
    """One queue name, a comma-separated list, or a numbered family such as
    pages.fetched.{0..7}; returned as the comma-separated list of names."""
    names: list[str] = []
    for item in value.split(","):
        part = item.strip()
        family = _FAMILY.fullmatch(part)
        if family is None:
            names.append(_name(part))
            continue
        first, last = int(family["first"]), int(family["last"])
        if not 0 <= last - first < 1000:  # a family, not a typo's range
            raise ValueError(f"{part!r}: a family is {{first..last}}, at most 1000 names")
        names += [
            _name(f"{family['stem']}{number}{family['tail']}") for number in range(first, last + 1)
        ]
    if len(set(names)) != len(names):
        raise ValueError("names a queue twice")
    return ",".join(names)


def _routing_key(value: str) -> str:
    if len(value.encode()) > 255:
        raise ValueError("must be at most 255 bytes")
    return value


def _amqp_urls(value: str) -> str:
    """One URL, or the nodes of one cluster as a comma-separated list; each checked."""
    urls = [url.strip() for url in value.split(",")]
    several = len(urls) > 1
    hint = " (a password with a comma must be written %2C)" if several else ""
    for position, url in enumerate(urls, 1):
        where = f"address {position} of {len(urls)} ({redact_url(url)!r})" if several else "it"
        try:
            parts = urlsplit(url)
            _ = parts.port  # raises ValueError for a port that is not a number or out of range
        except ValueError as error:
            raise ValueError(f"{where} cannot be parsed: {error}{hint}") from None
        if parts.scheme not in ("amqp", "amqps") or not parts.hostname:
            raise ValueError(f"{where} must be an amqp:// or amqps:// URL with a host{hint}")
    return ",".join(urls)


def _int(low: int, high: int) -> Callable[[str], int]:
    def parse(value: str) -> int:
        try:
            number = int(value.strip().replace("_", ""))
        except ValueError:
            raise ValueError("must be a whole number") from None
        if not low <= number <= high:
            raise ValueError(f"must be between {low} and {high}")
        return number

    return parse


def _seconds(low: float, high: float) -> Callable[[str], float]:
    def parse(value: str) -> float:
        text = value.strip().removesuffix("s")
        try:
            number = float(text)
        except ValueError:
            raise ValueError("must be a number of seconds, e.g. 2.5") from None
        if not (math.isfinite(number) and low <= number <= high):
            raise ValueError(f"must be between {low:g} and {high:g} seconds")
        return number

    return parse


_SIZE = re.compile(r"\s*(\d+)\s*(|B|KiB|MiB|GiB)\s*", re.IGNORECASE)
_UNITS: Final = {"": 1, "b": 1, "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30}


def _size(value: str) -> int:
    match = _SIZE.fullmatch(value)
    if match is None:
        raise ValueError("must be a byte count, optionally with KiB, MiB or GiB, e.g. 8MiB")
    size = int(match[1]) * _UNITS[match[2].lower()]
    if not 1 <= size <= 1 << 30:
        raise ValueError("must be between 1 byte and 1GiB")
    return size


_TRUE: Final = ("true", "1", "yes", "on")
_FALSE: Final = ("false", "0", "no", "off")


def _boolean(value: str) -> bool:
    text = value.strip().lower()
    if text in _TRUE or text in _FALSE:
        return text in _TRUE
    raise ValueError(f"expected one of {', '.join(_TRUE + _FALSE)}")


def _choice(options: tuple[str, ...], *, upper: bool = False) -> Callable[[str], str]:
    def parse(value: str) -> str:
        value = value.strip()
        value = value.upper() if upper else value.lower()
        if value not in options:
            raise ValueError("must be one of " + ", ".join(repr(option) for option in options))
        return value

    return parse


def _profile(value: str) -> Profile:
    from blockdensity import Profile  # noqa: PLC0415 - the stage's alone (see above)

    return Profile(_choice(tuple(Profile))(value))


def _comments(value: str) -> Comments:
    from blockdensity import Comments  # noqa: PLC0415 - the stage's alone (see above)

    return Comments(_choice(tuple(Comments))(value))


def _import_path(value: str) -> str:
    """A `module:function` path that imports; stored as text, resolved by the pool."""
    value = value.strip()
    if not value:
        return value  # the density fit itself
    if not _IMPORT_PATH.fullmatch(value):
        raise ValueError("must be module:function, e.g. mypackage.fits:fit_page")
    try:
        function = pkgutil.resolve_name(value)
    except (ImportError, AttributeError) as error:
        raise ValueError(f"cannot import it: {error}") from None
    if not callable(function):
        raise ValueError("does not name a function")  # noqa: TRY004 - load_settings reports ValueError
    return value


_IMPORT_PATH: Final = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")


def parse_statuses(value: str) -> frozenset[int]:
    """`200-299,304` -> those statuses. ValueError says what is wrong."""
    statuses: set[int] = set()
    for item in value.split(","):
        part = item.strip()
        if not part:
            continue
        low_text, dash, high_text = part.partition("-")
        try:
            low = int(low_text)
            high = int(high_text) if dash else low
        except ValueError:
            raise ValueError(f"{part!r} is not a status or a range such as 200-299") from None
        if not 100 <= low <= high <= 599:
            raise ValueError(f"{part!r} is not within 100-599, low to high")
        statuses.update(range(low, high + 1))
    if not statuses:
        raise ValueError("names no status; e.g. 200-299")
    return frozenset(statuses)


def describe_statuses(statuses: Iterable[int]) -> str:
    """The inverse of parse_statuses, in ranges: {200, ..., 299, 304} -> "200-299,304"."""
    ordered = sorted(statuses)
    ranges: list[str] = []
    start = previous = ordered[0]
    for status in [*ordered[1:], None]:
        if status is not None and status == previous + 1:
            previous = status
            continue
        ranges.append(str(start) if start == previous else f"{start}-{previous}")
        if status is not None:
            start = previous = status
    return ",".join(ranges)


def _host(value: str) -> str:
    if not value.strip():
        raise ValueError("must be a host name or address, e.g. 0.0.0.0")
    return value.strip()


SETTINGS: Final[tuple[Setting, ...]] = (
    Setting(
        "amqp_url",
        _amqp_urls,
        "amqp://guest:guest@127.0.0.1:5672/",
        "The broker. URL query options of aio-pika apply (e.g. ?heartbeat=30). "
        "For a cluster, its nodes' URLs separated by commas: the worker connects to one "
        "that answers (in an order shuffled per process, so that replicas spread) and, "
        "when it is lost, moves on to the next. The passwords are never logged.",
    ),
    Setting(
        "input_queue",
        _queue_names,
        "pages.fetched",
        "Quorum queue the crawlers publish to; or several, comma-separated or as a "
        "numbered family (pages.fetched.{0..7}), consumed under one prefetch budget.",
    ),
    Setting(
        "input_exchange",
        _optional_name,
        "",
        "If set, an x-consistent-hash exchange (RabbitMQ's rabbitmq_consistent_hash_exchange "
        "plugin) that the worker declares and binds every input queue to, weight 1: "
        "crawlers publish to it with the page's URL as routing key, and each URL keeps "
        "to one queue.",
    ),
    Setting("output_exchange", _name, "pages", "Direct exchange the clean pages go to."),
    Setting("output_routing_key", _routing_key, "clean", "Routing key of the clean pages."),
    Setting("output_queue", _name, "pages.clean", "Durable queue bound to the output key."),
    Setting(
        "dead_letter_exchange", _name, "pages.dlx", "Fanout exchange for messages given up on."
    ),
    Setting("dead_letter_queue", _name, "pages.dead", "Durable queue bound to it."),
    Setting(
        "delivery_limit",
        _int(0, 1000),
        "5",
        "Returns to the queue (crash, timeout, failed publish, lost connection) a message "
        "may have before it is dead-lettered (x-delivery-limit): limit + 1 deliveries.",
    ),
    Setting(
        "pool_size",
        _int(1, 512),
        "the CPUs this process may use (affinity mask, cgroup quota)",
        "Fit processes.",
        derive=lambda _: available_cpus(),
    ),
    Setting(
        "prefetch",
        _int(1, 65535),
        "2 x BLOCKDENSITY_POOL_SIZE",
        "Unacknowledged messages held at once: the bound on work in flight.",
        derive=lambda values: 2 * values["pool_size"],
    ),
    Setting(
        "max_tasks_per_child",
        _int(0, 10_000_000),
        "1000",
        "Pages a fit process handles before it is replaced (0: never).",
    ),
    Setting(
        "pool_watch_interval",
        _seconds(0.1, 3600),
        "2",
        "How often the watchdog looks at the fit processes: a stopped one is replaced "
        "at once, an idle one that answers no ping for 3 rounds then.",
    ),
    Setting(
        "fit_timeout",
        _seconds(0.01, 3600),
        "10",
        "Hard limit on one page's fit; past it the process is killed and replaced.",
    ),
    Setting(
        "pool_start_timeout",
        _seconds(0.1, 3600),
        "30",
        "At start, how long to wait for the fit processes; if none is ready by then "
        "the worker exits with status 1 (the log says why) instead of taking pages.",
    ),
    Setting(
        "publish_timeout",
        _seconds(0.01, 3600),
        "10",
        "Wait this long for the broker to confirm a publish before requeueing the input; "
        "time in which the broker blocks publishing (a resource alarm) does not count. "
        "The feeder waits at least 30 s, and stops (to resume) when a confirm fails.",
    ),
    Setting(
        "publish_retry_for",
        _seconds(0, 3600),
        "30",
        "A publish the broker did not confirm (nacked, returned, timed out, lost) is tried "
        "again, at once and then after a pause growing from 0.1 s to 5 s, for up to this long "
        "while the input is held unacked; then the input is requeued. 0 requeues at once.",
    ),
    Setting(
        "max_body_bytes",
        _size,
        "8MiB",
        "Larger AMQP message bodies are dead-lettered as too_large, unparsed; "
        "a gzip or deflate body (AMQP content_encoding) is too_large when it "
        "decompresses to more. The feeder counts a larger page as too_large and "
        "does not publish it.",
    ),
    Setting(
        "max_url_bytes",
        _size,
        "8KiB",
        "A page whose url is longer is dead-lettered as invalid.",
    ),
    Setting(
        "fit_statuses",
        parse_statuses,
        "200-299",
        "HTTP statuses (FetchedPage.status) whose pages are fitted, as statuses and "
        "ranges, e.g. 200-299,304. A page of any other status is dead-lettered with "
        "reason status, unfitted: an error page's text is not the page's.",
    ),
    Setting(
        "grace_period",
        _seconds(0, 3600),
        "25",
        "On SIGTERM, time to finish in-flight pages before requeueing the rest.",
    ),
    Setting(
        "fit_memory_limit",
        _size,
        "256MiB",
        "How much a fit process's data may grow beyond its size at start (RLIMIT_DATA; 0: no "
        "limit). A page that needs more is dead-lettered as memory, and the process recycled: "
        "only its page fails, never the worker.",
    ),
    Setting(
        "fit_recycle_memory",
        _size,
        "128MiB",
        "A fit process whose resident memory is past this after a page is replaced (0: never): "
        "the memory a large page took goes back to the pod.",
    ),
    Setting(
        "reconnect_interval",
        _seconds(0.1, 600),
        "2",
        "Pause between attempts to reconnect to the broker.",
    ),
    Setting(
        "heartbeat",
        _int(0, 600),
        "5",
        "AMQP heartbeat asked of the broker, in seconds (0: none); an address's own "
        "?heartbeat= wins. Either side finds the other dead after about three of them.",
    ),
    Setting(
        "broker_timeout",
        _seconds(0.1, 600),
        "3",
        "Bound on each step of connecting (connect, declare, consume) and on the answer to "
        "the worker's own check of its connection; a connection that misses it is given up "
        "for the next address.",
    ),
    Setting(
        "broker_check_interval",
        _seconds(0.1, 600),
        "1",
        "How often the worker checks that the broker it consumes from answers (a passive "
        "declare of the input queue): a node cut off by the network is found within this "
        "plus BLOCKDENSITY_BROKER_TIMEOUT.",
    ),
    Setting("http_host", _host, "0.0.0.0", "Address of /metrics, /healthz and /readyz."),  # noqa: S104 - a pod's probes come from outside
    Setting("http_port", _int(0, 65535), "9108", "Port of /metrics, /healthz and /readyz."),
    Setting(
        "liveness_timeout",
        _seconds(0.1, 600),
        "5",
        "/healthz fails when the event loop has not ticked for this long.",
    ),
    Setting("log_level", _choice(LOG_LEVELS, upper=True), "INFO", "DEBUG logs every page."),
    Setting("log_format", _choice(LOG_FORMATS), "text", "text, or json (one object a line)."),
    Setting(
        "profile",
        _profile,
        "article",
        "Which fit runs: article (the default: the published fit and the article rules "
        "after it) or published (SPEC exactly).",
    ),
    Setting(
        "comments",
        _comments,
        "separate",
        "Where the page's user comments go (article profile): separate (the output's "
        "comments field, not its text), include (the text too, after the article), or drop.",
    ),
    Setting(
        "output_blocks",
        _boolean,
        "false",
        "true: the output also lists the kept blocks, each with its kind (heading and level, "
        "paragraph, list item, ...) and text; about doubles the output's size.",
    ),
    Setting(
        "format",
        _choice(OUTPUT_FORMATS),
        "text",
        "text: the output's text alone; markdown: also its Markdown, the same kept blocks as "
        "headings, lists, tables, code and quotes (the markdown field; comments_markdown, "
        "the comments'), about 12% more "
        "of a fit's time and up to about twice the text's size again.",
    ),
    Setting(
        "markdown_links",
        _boolean,
        "false",
        "true (with BLOCKDENSITY_FORMAT=markdown): the Markdown keeps the kept text's links "
        "as [text](url), resolved against the page's URL; false: their text alone.",
    ),
    Setting(
        "markdown_images",
        _boolean,
        "false",
        "true (with BLOCKDENSITY_FORMAT=markdown): the Markdown keeps the images inside the "
        "kept blocks as ![alt](src), resolved against the page's URL; false: none.",
    ),
    Setting(
        "fit_function",
        _import_path,
        "",
        "Empty for the density fit. For tests and experiments: module:function of "
        "another function the fit processes run on each page, of the signature of "
        "worker.stage.fitproc.fit_page (the test suite's crashes or hangs on marked pages).",
    ),
)


def _settings_of(kind: type[BrokerSettings]) -> list[Setting]:
    """The settings a program's type has fields for, in the table's order."""
    wanted = {field.name for field in fields(kind)}
    return [setting for setting in SETTINGS if setting.field in wanted]


def unknown_variables(env: Mapping[str, str] | None = None) -> list[str]:
    """BLOCKDENSITY_* variables no setting reads: most likely typos."""
    env = os.environ if env is None else env
    known = {setting.env for setting in SETTINGS} | _FOREIGN
    return sorted(name for name in env if name.startswith(ENV_PREFIX) and name not in known)


def unverified_tls(settings: BrokerSettings) -> bool:
    """True when the AMQP URL turns certificate verification off (aiormq's ?no_verify_ssl=1).

    Accepted (a test broker with a self-signed certificate needs it), but worth
    a warning at start: the connection is then open to a man in the middle.
    """
    for url in settings.amqp_urls:
        parts = urlsplit(url)
        # aiormq verifies only when the first value is "0" (or the parameter is absent).
        flags = parse_qs(parts.query, keep_blank_values=True).get("no_verify_ssl")
        if parts.scheme == "amqps" and flags is not None and flags[0] != "0":
            return True
    return False


def redact_url(url: str) -> str:
    """The URL (or each of a comma-separated list) with its password replaced by ***."""
    if "," in url:
        return ",".join(redact_url(part) for part in url.split(","))
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        netloc = parts.netloc.rpartition("@")[2]
        user = parts.username or ""
        return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc}"))
    except ValueError:
        return "<unparsable URL>"
