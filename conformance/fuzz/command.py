"""``conformance fuzz``: a seeded mutation campaign over the golden corpus (docs/fuzzing.md).

Prints the counts per format, tool and class, where the reproducers went, and exits 1
when any mutant was undocumented, hang, memory or crash (so CI can gate on it).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from conformance.formats import FORMATS
from conformance.golden.paths import default_corpus

from .campaign import Config, run_campaign, summary_lines
from .pool import DEFAULT_MEMORY_LIMIT_MB, DEFAULT_TIME_LIMIT_S, Limits
from .shrink import DEFAULT_BUDGET

EXIT_OK, EXIT_FOUND = 0, 1
BOTH = "both"
DEFAULT_MUTANTS = 1000
DEFAULT_WORKERS = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=(*FORMATS, BOTH), default=BOTH,
                        help="the format whose golden and bad files are mutated (default both)")
    parser.add_argument("--mutants", type=int, default=DEFAULT_MUTANTS, metavar="N",
                        help=f"mutants per format (default {DEFAULT_MUTANTS})")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="the campaign's seed: same seed, same mutants (default 0)")
    parser.add_argument("--out", type=Path, default=Path("fuzz-out"), metavar="DIR",
                        help="reproducers, their index and every mutant's record (default ./fuzz-out)")
    parser.add_argument("--corpus", type=Path, default=default_corpus(),
                        help="the golden corpus whose files are the seeds (default: the clone's)")
    parser.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT_S, metavar="SECONDS",
                        help=f"per tool and mutant; past it, a hang (default {DEFAULT_TIME_LIMIT_S:g})")
    parser.add_argument("--memory-limit", type=int, default=DEFAULT_MEMORY_LIMIT_MB, metavar="MB",
                        help=f"address space of each worker (default {DEFAULT_MEMORY_LIMIT_MB})")
    parser.add_argument("--workers", type=int, default=DEFAULT_WORKERS, metavar="N",
                        help=f"isolated worker processes (default {DEFAULT_WORKERS})")
    parser.add_argument("--shrink-budget", type=int, default=DEFAULT_BUDGET, metavar="N",
                        help=f"tool runs spent shrinking each reproducer (default {DEFAULT_BUDGET})")


def run(args: argparse.Namespace) -> int:
    formats = tuple(FORMATS) if args.format == BOTH else (args.format,)
    config = Config(formats=formats, mutants=args.mutants, seed=args.seed, out=args.out,
                    corpus=args.corpus, limits=Limits(args.time_limit, args.memory_limit),
                    workers=args.workers, shrink_budget=args.shrink_budget)
    result = run_campaign(config)
    for line in summary_lines(result):
        print(line)
    print(f"{len(result.saved)} new reproducer(s) in {args.out} (index {args.out / 'index.json'})")
    for path in result.saved:
        print(f"  {path}")
    return EXIT_FOUND if result.gating() else EXIT_OK
