"""Regenerate k8s/base/prometheusrule.yaml from deploy/prometheus/rules.yml.

.venv/bin/python -m tests.deploy.sync_prometheusrule
"""

from __future__ import annotations

from tests.deploy.common import PROMETHEUS_RULE, ROOT, prometheus_rule_text


def main() -> None:
    PROMETHEUS_RULE.write_text(prometheus_rule_text(), encoding="utf-8")
    print(f"wrote {PROMETHEUS_RULE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
