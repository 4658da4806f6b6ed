"""The argument parser of the ``verifiedref`` command."""

from __future__ import annotations

import argparse

from properties._cli.options import add_budget_argument, add_executor_arguments
from properties._profiles import PROFILES
from properties._runner import DEFAULT_TIMEOUT, Capabilities
from properties._suite import PRECISIONS

__all__ = ["build_parser"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="verifiedref",
        description="Reference algorithms of 19 ICML 2026 papers: conformance suites and theorem checks.",
    )
    from verifiedref._version import distribution_version

    parser.add_argument(
        "--version", action="version", version=f"verifiedref {distribution_version()}"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    listing = sub.add_parser(
        "list", help="every algorithm with its module, suites and theorem checks"
    )
    listing.add_argument(
        "--markdown", action="store_true", help="print the algorithm table in Markdown"
    )
    listing.add_argument(
        "--wide", action="store_true", help="one line per row, however long (no wrapping)"
    )
    listing.add_argument(
        "--json", action="store_true", help="algorithms, suites and theorem checks as JSON"
    )
    listing.add_argument(
        "--checks",
        action="store_true",
        help="only the theorem checks, with their evidence: mutants caught, 'no teeth', 'sanity'",
    )
    listing.add_argument(
        "--width",
        type=int,
        default=None,
        metavar="COLUMNS",
        help="wrap the tables to this many columns (default: the terminal's, else 100)",
    )

    prove = sub.add_parser("prove", help="run the registered theorem checks")
    prove.add_argument("--only", metavar="FAMILY", default=None, help="run one family only")
    prove.add_argument("--profile", choices=["quick", "full"], default="quick")
    prove.add_argument("--seed", type=int, default=20260)
    prove.add_argument(
        "--wide", action="store_true", help="one line per row, however long (no wrapping)"
    )
    prove.add_argument(
        "--width",
        type=int,
        default=None,
        metavar="COLUMNS",
        help="wrap the table to this many columns (default: the terminal's, else 100)",
    )
    add_executor_arguments(prove)
    prove.add_argument(
        "--with",
        dest="with_",
        action="append",
        default=[],
        metavar="ALGORITHM=module:callable",
        help="run the checks that exercise ALGORITHM (a module:function from 'verifiedref list') "
        "with your callable in its place; repeatable; checks that do not exercise it are not run",
    )
    prove.add_argument(
        "--precision",
        choices=tuple(PRECISIONS),
        default="float64",
        help="working precision of the --with implementations: every compared number is "
        "allowed 64 u relative error (float32: 3.8e-6, bfloat16: 0.25), checks' own margins "
        "included; float64 changes nothing",
    )
    prove.add_argument(
        "--tolerance",
        type=float,
        default=None,
        help="promised relative accuracy of the --with implementations: every compared number "
        "is allowed this much relative error if it is more than the check's own budget",
    )
    prove.add_argument(
        "--hyper",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a keyword passed to the --with implementations on every call, whatever the "
        "check asks (torch optimizers take torch names, e.g. nesterov=False)",
    )
    prove.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="seconds one call of a --with implementation may take; a timeout is an ERROR row "
        "(default: no limit)",
    )
    add_budget_argument(prove, prove=True)
    prove.add_argument(
        "--report",
        metavar="PATH",
        default="",
        help="also write a Markdown report (plots beside it, in PATH_plots/, with matplotlib)",
    )
    prove.add_argument(
        "--json",
        metavar="PATH",
        default=None,
        help="also write every result as JSON, numbers to the last bit (for CI and diffs)",
    )

    describe = sub.add_parser(
        "describe", help="a suite's call shape, conventions, checks, variants and tolerances"
    )
    describe.add_argument("suite", help="suite name, e.g. optimizers.s_adam")

    cross = sub.add_parser("crosscheck", help="run a conformance suite against your implementation")
    cross.add_argument(
        "suite",
        help="suite name, e.g. games.solver (see 'verifiedref list'), or a comma list of suites",
    )
    cross.add_argument("target", help="package.module:callable (or package.module.callable)")
    cross.add_argument(
        "--json",
        metavar="PATH",
        default=None,
        help="also write the verdicts as JSON (per check: status, anchor, time, bounds, message, "
        "re-run snippet), for CI",
    )
    add_executor_arguments(cross)
    cross.add_argument("--profile", choices=PROFILES, default="conformance")
    cross.add_argument("--skip", action="append", default=[], metavar="CHECK")
    cross.add_argument("--expect-fail", action="append", default=[], metavar="CHECK=REASON")
    cross.add_argument(
        "--capability", action="append", default=[], choices=Capabilities.flag_names()
    )
    cross.add_argument(
        "--tolerance",
        type=float,
        default=None,
        help="promised accuracy in the suite's measure, relative to the instance scale (default "
        "1e-6); checks with a rounding-error model allow the larger of the model and this",
    )
    cross.add_argument(
        "--precision",
        choices=tuple(PRECISIONS),
        default="float64",
        help="working precision of the target: scales the rounding-error models of the checks "
        "that state one (unit roundoff 2^-53, 2^-24, 2^-8)",
    )
    cross.add_argument(
        "--variant",
        default=None,
        metavar="NAME",
        help="the suite's convention the target follows, e.g. optimizers.s_adam: "
        "eps_before_correction (default) or eps_after_correction (torch.optim.Adam)",
    )
    cross.add_argument(
        "--domain",
        default=None,
        metavar="NAME",
        help="the input domain the target is documented for (see 'verifiedref describe "
        "SUITE'), e.g. games.solver: all (default) or generic (non-degenerate, sides >= 2); "
        "checks draw only such inputs",
    )
    cross.add_argument(
        "--min-size",
        type=int,
        default=None,
        metavar="N",
        help="smallest problem size drawn (game sides, TSP cities, ...)",
    )
    cross.add_argument(
        "--max-size",
        type=int,
        default=None,
        metavar="N",
        help="largest problem size drawn (game sides, TSP cities, ...)",
    )
    cross.add_argument(
        "--returns",
        default=None,
        metavar="BLOCKS",
        help="a partial output: the comma list of blocks the target returns (qp_layers: of Q, q, "
        "G, h, A, b); the others are not judged and checks on them alone are skipped, named",
    )
    cross.add_argument(
        "--hyper",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a keyword passed to the target whatever the suite asks, on any callable target "
        "(a factory such as optax.adam: learning_rate=0.1; torch optimizers take torch names, "
        "e.g. nesterov=False, betas=(0.9,0.99), suite names being mapped by "
        "properties.adapters.TORCH_HYPER_NAMES)",
    )
    cross.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help="seconds one example of a check may take; a timeout fails that check, unshrunk "
        f"(default {DEFAULT_TIMEOUT:g})",
    )
    add_budget_argument(cross)
    cross.add_argument(
        "--raises",
        action="append",
        default=[],
        metavar="MODULE:CLASS",
        help="an exception class of the target that counts as rejecting bad input, beside "
        "ValueError and TypeError, in every bad-input check and in bad_input (repeatable), "
        "e.g. qpsolvers.exceptions:ProblemError",
    )
    cross.add_argument(
        "--like",
        metavar="CASE",
        default=None,
        help="bad_input and hard_input only: the registered function whose signature the target shares",
    )
    cross.add_argument(
        "--non-strict", action="store_true", help="an unexpected pass is not a failure"
    )
    cross.add_argument(
        "--wide", action="store_true", help="check lines as long as they are (no fitting)"
    )
    return parser
