"""Hypothesis profiles: `ci` (bounded, the default) and `long` (for local bug hunts).

Choose one with `pytest --hypothesis-profile long`.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings


def register_profiles() -> None:
    settings.register_profile("ci", max_examples=100, deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.register_profile("long", max_examples=5_000, deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile("ci")
