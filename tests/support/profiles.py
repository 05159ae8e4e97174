"""Hypothesis profiles: `ci` (bounded, derandomized, the default) and `long` (for local bug hunts).

Choose one with `pytest --hypothesis-profile long`. `ci` draws the same examples on every
run (derandomize, no example database), so a CI failure is reproducible and a property
test fails only when the code, an engine or a strategy changed.
"""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, settings

# A cross-engine example (tests/property) writes a file with one engine and reads it with
# another, a hundred times the cost of a plain property's example: those tests run this
# many examples per writer/reader pair (issue 6 item 4: "a property run of the CI profile
# finishes in minutes").
CROSS_ENGINE_EXAMPLES = {"ci": 30, "long": 600}
_SUPPRESSED = [HealthCheck.too_slow, HealthCheck.filter_too_much]
# Hypothesis's explain phase traces every line while it replays a failure: with two
# engines under the tracer, shrinking one finding took minutes. The shrunk example and
# its evidence are what we keep. Under `ci` nothing is shrunk either: shrinking runs the
# engines hundreds of times more, for an example that goes to a temporary folder (the
# `long` profile's hunts shrink what they save into the corpus).
_CROSS_ENGINE_PHASES = {
    "ci": tuple(phase for phase in Phase if phase not in (Phase.explain, Phase.shrink)),
    "long": tuple(phase for phase in Phase if phase != Phase.explain),
}


def register_profiles() -> None:
    settings.register_profile("ci", max_examples=100, deadline=None, derandomize=True,
                              database=None, suppress_health_check=_SUPPRESSED)
    settings.register_profile("long", max_examples=5_000, deadline=None,
                              suppress_health_check=_SUPPRESSED)
    settings.load_profile("ci")


def cross_engine_settings() -> settings:
    """The current profile with its cross-engine example budget."""
    profile = settings.get_current_profile_name()
    return settings(max_examples=CROSS_ENGINE_EXAMPLES.get(profile, settings.default.max_examples),
                    phases=_CROSS_ENGINE_PHASES.get(profile, _CROSS_ENGINE_PHASES["long"]))
