"""Hypothesis profiles: `ci` (bounded, derandomized, the default) and `long` (for local bug hunts).

Choose one with `pytest --hypothesis-profile long`. `ci` draws the same examples on every
run (derandomize, no example database), so a CI failure is reproducible and a property
test fails only when the code, an engine or a strategy changed.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings

# A cross-engine example (tests/property) writes a file with one engine and reads it with
# another, a hundred times the cost of a plain property's example: those tests run this
# many examples per writer/reader pair (issue 6 item 4: "a property run of the CI profile
# finishes in minutes").
CROSS_ENGINE_EXAMPLES = {"ci": 30, "long": 600}
# A pair with a protocol adapter (adapters/README.md: an engine in a process of its own,
# started once in the test's process and once in its cells' worker) costs more: 0.1 to
# 0.75 s an example, and a second or two to start (parquet-java's JVM, node, chdb). The
# 14 default pairs of the reference with the 7 bundled adapters, measured under `ci` on
# 2 cores shared with other work: 30 examples a pair, 130 s (92 s of CPU); 20 examples,
# 68 s of CPU (175 s of wall time at a load average of 9 to 13 on the 2 cores). The
# slowest pairs are chdb->reference (most drawn examples are rejected as unsupported
# after a write) and parquet-java's. CI's budget for them is about 3 minutes of a
# 24-minute run: 20 examples a pair, with room for the strategies to grow.
PROTOCOL_ADAPTER_EXAMPLES = {"ci": 20, "long": 600}
# A count of examples per pair that replaces the profile's (a long hunt on a budget).
EXAMPLES_ENV = "CONFORMANCE_PROPERTY_EXAMPLES"
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


def cross_engine_settings(protocol_adapter: bool = False) -> settings:
    """The current profile with its cross-engine example budget per pair: a pair with a
    protocol adapter has its own; ``$CONFORMANCE_PROPERTY_EXAMPLES`` replaces either."""
    profile = settings.get_current_profile_name()
    budget = PROTOCOL_ADAPTER_EXAMPLES if protocol_adapter else CROSS_ENGINE_EXAMPLES
    configured = os.environ.get(EXAMPLES_ENV)
    examples = int(configured) if configured else budget.get(profile, settings().max_examples)
    return settings(max_examples=examples,
                    phases=_CROSS_ENGINE_PHASES.get(profile, _CROSS_ENGINE_PHASES["long"]))
