"""Slack of every theorem check on the reference.

The *slack* of one single-instance check is how far the reference's measurement sits inside
its bound, as a factor: ``bound / measured`` for ``<=`` and ``measured / bound`` for ``>=``
(both of the same sign; ``inf`` when the measurement is on the safe side of 0 and the bound
is not, e.g. a gap of exactly 0 under a positive bound).  ``==`` checks and checks whose
bound is 0 have no slack (they are exact).  A slack of 1 means the reference attains the
bound; a slack of 6000 means an implementation 6000 times worse would pass.

A driver's row records, over all the sub-checks it summarises with
:func:`~proofs_numeric.worst` (seen through :func:`~proofs_numeric._registry.recording`):

* ``slack`` — the smallest slack (its tightest part: a wrong implementation that is worse
  by more than this factor on that instance fails);
* ``loosest`` — the largest finite slack (the instance where a bug has the most room);
* ``subchecks``, ``loose`` — how many sub-checks, and how many of them have slack above
  :data:`LIMIT`.

A row whose ``slack`` exceeds :data:`LIMIT` must say in :data:`REASONS` why the theorem cannot
be tightened there (``tests/test_slack.py`` enforces it).  Regenerate the shipped record
``proofs_numeric/_slack.json`` (read by ``verifiedref list --checks`` and the report) with::

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python -m proofs_numeric._slack --write
"""

from __future__ import annotations

import json
import math
import os
import platform
import sys
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from proofs_numeric._registry import ProveProfile, TheoremEntry, all_theorems, recording
from proofs_numeric._result import BoundCheck

__all__ = [
    "LIMIT",
    "REASONS",
    "SlackRow",
    "measure",
    "slack_cell",
    "slack_factor",
    "slack_record",
    "slack_value",
]

#: A slack above this needs a tight part, a fitted rate, or a reason.
LIMIT = 10.0

RECORD = Path(__file__).resolve().parent / "_slack.json"

#: check -> one sentence: why its tightest part cannot be brought within :data:`LIMIT`.
REASONS: dict[str, str] = {
    # identities and exact recoveries: the bound is a rounding or solver budget, not a theorem's
    # constant; the reference sits at rounding, and a wrong formula misses by order 1
    "activations.fit_rational": "stationarity and documented fields: the budgets are the "
    "documented tol (1e-6), the solver's stopping rule (1e-8 relative gain) and rounding of "
    "sums; the reference's least squares converges superlinearly far past them (gradient "
    "1e-9 to 1e-11), while a solver stopped at ftol 1e-3 misses the 1e-8 gain by 10x.",
    "activations.gradients": "identity checked against central differences: the 1e-6 budget is "
    "the differences' truncation error, the reference's error (1e-10) is rounding.",
    "activations.newman_constant": "the claim is a 1% window on a constant the reference "
    "computes exactly (4.8e-15 off); the window is the spec's, a wrong node set misses by >1%.",
    "activations.pth_root_error": "an identity at the extremal points (r_k = x^(1/p)(1 ± "
    "delta_k)) within a 1e-14 float64 budget; the reference is at 4e-16, and the check's "
    "other part compares the error with delta_k as an equality.",
    "activations.near_pole": "sanity check (no library code): a lower bound on the curvature of "
    "a fixed target, the theorem's 1/(2 eps) is not attained by 1/(x^2 + eta^2).",
    "attention_queries.one_layer": "exact recovery in float64 (3e-3 of a 1e-8 budget): the "
    "budget is rounding amplified by the logit of the oracle's answers.",
    "attention_queries.proposition_7_1": "an identity (two parameter sets, equal outputs) "
    "within 1e-12; the reference is at 7e-16 rounding.",
    "attention_queries.theorem_4_1": "exact recovery: the budgets (1e-8 for W, 1e-12 for v) "
    "cover the logit's amplification of rounding on saturated answers, the reference is at "
    "1e-14; a wrong recovery misses by order 1.",
    "attention_queries.theorem_5_1": "the 1e-3 relative error is the spec's success criterion "
    "of nuclear-norm recovery; the reference's ADMM solves to 1e-6, so exact recovery shows "
    "as slack.",
    "constrained_map.example_2_2": "exactness against a grid and PaMap within 1e-6 (the grid "
    "oracle's SLSQP tolerance); the reference is exact to rounding.",
    "constrained_map.mpmap_vs_grid": "the budget 1e-6 is the dense-grid oracle's own accuracy "
    "(SLSQP refinement), not MpMap's; MpMap is exact to rounding.",
    "constrained_map.mpmap_vs_pamap": "exactness against PaMap within 1e-9 (PaMap's cell "
    "solver tolerance); the reference is exact to rounding.",
    "constrained_map.partition": "a set identity (cells disjoint, union = domain): the "
    "reference's measured overlap is exactly 0.",
    "constrained_map.theorem_4_5": "exactness on treewidth-one instances against an oracle "
    "accurate to 1e-6; the reference is exact to rounding.",
    "constrained_map.theorem_a_8": "Prop. A.6's recursive bound on the number of pieces is a "
    "worst case over all factor shapes; random instances merge pieces (ratio 0.056).",
    "divergence.g1_closed_form": "closed forms against the precision-form Gaussian integral "
    "within a 1e-9 rounding budget; the reference is at 1e-14, and a swapped alpha or a dropped "
    "determinant misses by order 1.",
    "divergence.v1_conjugate": "an identity (closed-form conjugate = numerical sup) within the "
    "1e-8 accuracy of the numerical sup; the reference is at rounding.",
    "extensive.kuhn_asymp_dgda": "last-iterate NashConv <= 1e-10 is a convergence target "
    "(the spec's); the reference converges linearly past it within the iteration budget.",
    "inconsistency.batch_kl_saturated": "a value against its 50-digit evaluation within "
    "1e-9 relative plus 1e-14 absolute (log-softmax rounding); the reference is at 1e-3 of "
    "that budget, the official code's clamp at 1e-6 misses by 1e2 to 1e5 times it.",
    "inconsistency.hessian_fisher": "an identity (E_y[H] = F) within 1e-6 of a finite-"
    "difference Hessian; the reference's error is the differences' (7e-9).",
    "inconsistency.quadratic_expansion": "the claim bounds the third-order remainder by "
    "10 ||δ|| (a constant chosen by the spec, not attained on softmax models).",
    "invariance.construction_3_3": "brute-force recovery of V_inv within dist² 0.01 on an "
    "exactly identified toy: the reference recovers it to 1e-5.",
    "invariance.e3_vs_e2": "agreement of two estimators within the spec's tolerance "
    "(dist <= 1); on the finite-sample instance they agree to 0.035.",
    "mirror_descent.sympy_identities": "symbolic identities evaluated in float64 within 1e-9; "
    "the reference is at rounding.",
    "perturbation.brps": "a qualitative direction (x_1 - x_3 >= 1e-3) at mu = 3, 4; the shift "
    "is 0.033 and no theorem gives its size.",
    "perturbation.minimiser_duality_gap": "a point and a value against an exact "
    "support-enumeration oracle within 1e-7 (SLSQP's documented accuracy); SLSQP reaches 1e-14 "
    "on these games, and a wrong weight or sign misses by order mu.",
    "preference.a6_tabular_optimum": "convergence to an independently computed minimiser "
    "within 1e-4 (Adam's jitter budget at a constant step); the reference reaches 7e-7, and "
    "a tenth of the steps or Adam without bias correction miss by 10x to 1000x.",
    "preference.t1_bregman": "an identity (regret = Bregman divergence) within 1e-12; the "
    "reference is at rounding.",
    "preference.t2_triptych": "an identity (canonical triptych) within 1e-10; the reference "
    "is at rounding.",
    "preference.t3_dpo": "an identity (DPO = log loss with softplus) within 1e-12; the "
    "reference is at rounding.",
    "preference.t4_embedding": "strict properness within 1e-6 of a numerical minimiser; "
    "the reference's error is the minimiser's (7e-9).",
    "preference.t8_optimal_policy": "an identity (the optimal policy's reward gap is constant) "
    "within 1e-6 of a numerical optimiser; the reference is at 1e-8.",
    "preference.t9_fisher": "Fisher consistency within 1e-5 of a numerical minimiser; the "
    "reference is at 5e-9.",
    "qp_layers.exact_blocks": "exactness of an affine map's forward difference within 1e-8 "
    "(the QP solver's tolerance); the reference is at 1e-11.",
    "qp_layers.ghost_equivalence": "two Jacobians (KKT, central difference) equal within 1e-8 "
    "(the difference's truncation); the reference is at 4e-13.",
    "qp_layers.pgd_alpha_independence": "independence of alpha within the O(1/alpha) warm-start "
    "term; the reference's spread is 6e-7 of a 6.5e-3 allowance derived from the warm start.",
    "qp_layers.rank_one_error": "an identity (the alpha-scaled error is the rank-one terms) "
    "within 1e-7 (the finite alpha's O(1/alpha) remainder); the reference is at 2e-9.",
    "qp_layers.thin_margins": "gradients against the null-space formula within 1e-6; the "
    "reference is at 1e-9 (KKT rounding), and a gradient on an active set one row off misses "
    "by 0.3 to 1.6.",
    "ski_rental.point_truth": "not tightened: the tightest grid point has loss 40 against "
    "40 EMD = 841; the constant 40 is the paper's worst case and we know no instance that "
    "nearly attains it.",
    "spectral.l4_threshold": "the lemma's ceiling formula upper-bounds the first threshold "
    "crossing under a norm-growth model; the synthetic runs cross far earlier (19 vs 409).",
    "stability.pareto_closed_forms": "closed forms against exact sympy integrals within 1e-12 "
    "relative; the reference is at rounding.",
}


def slack_factor(check: BoundCheck) -> float:
    """How far ``check.measured`` sits inside ``check.bound``, as a factor (``nan``: no slack).

    ``nan`` for ``==`` checks, bound 0, non-finite values, and measurements on the wrong side
    of 0 (a violated check, whose slack is not defined).
    """
    m, b = float(check.measured), float(check.bound)
    if check.sense == "==" or b == 0.0 or not (math.isfinite(m) and math.isfinite(b)):
        return math.nan
    if check.sense == ">=":
        m, b = b, m  # measured >= bound  <=>  bound <= measured: the same factor, mirrored
    if b > 0.0:
        if m > 0.0:
            return b / m
        return math.inf  # measured <= 0 < bound
    if m < 0.0:
        return m / b  # both negative: measured is |m|/|b| times further below 0
    return math.nan


@dataclass(frozen=True, slots=True, kw_only=True)
class SlackRow:
    """The slack of one registered check on the reference (see the module docstring)."""

    check: str
    slack: float
    loosest: float
    subchecks: int
    loose: int
    seconds: float

    def as_json(self) -> dict[str, object]:
        """The row as the record stores it (``inf``/``nan`` as strings)."""
        return {
            "slack": _num(self.slack),
            "loosest": _num(self.loosest),
            "subchecks": self.subchecks,
            "loose": self.loose,
            "reason": REASONS.get(self.check, ""),
        }


def _num(value: float) -> float | str:
    return value if math.isfinite(value) else str(value)


def measure(entry: TheoremEntry, profile: ProveProfile) -> SlackRow:
    """Run ``entry`` on the reference and measure the slack of each of its sub-checks."""
    start = time.perf_counter()
    with recording() as leaves:
        result = entry.driver(profile)
    seconds = time.perf_counter() - start
    if result.subchecks == 1 and not leaves:
        leaves.append(result)
    seen: set[tuple[str, float, float, str]] = set()
    factors: list[float] = []
    for leaf in leaves:
        key = (leaf.claim, float(leaf.measured), float(leaf.bound), leaf.sense)
        if key in seen:
            continue
        seen.add(key)
        factors.append(slack_factor(leaf))
    defined = [f for f in factors if not math.isnan(f)]
    finite = [f for f in defined if math.isfinite(f)]
    return SlackRow(
        check=entry.name,
        slack=min(defined, default=math.nan),
        loosest=max(finite, default=math.nan),
        subchecks=len(factors),
        loose=sum(f > LIMIT for f in defined),
        seconds=seconds,
    )


def slack_record() -> dict[str, dict[str, object]]:
    """check -> its recorded row (``proofs_numeric/_slack.json``); empty if not shipped."""
    try:
        text = resources.files("proofs_numeric").joinpath("_slack.json").read_text("utf-8")
    except FileNotFoundError:
        return {}
    raw: dict[str, dict[str, object]] = json.loads(text)["checks"]
    return raw


def slack_value(record: dict[str, dict[str, object]], name: str) -> float:
    """The recorded slack of ``name`` as a float (``nan``: exact or not recorded)."""
    row = record.get(name)
    if row is None:
        return math.nan
    value = row.get("slack")
    return float(value) if isinstance(value, int | float | str) else math.nan


def slack_cell(record: dict[str, dict[str, object]], name: str) -> str:
    """The ``slack`` cell of ``verifiedref list --checks`` and the report: ``4.7``, ``exact``
    (no sub-check with a slack: identities and ``bound == 0``), ``inf``, ``-`` (not recorded);
    ``*`` marks a recorded reason."""
    if name not in record:
        return "-"
    value = slack_value(record, name)
    text = "exact" if math.isnan(value) else "inf" if math.isinf(value) else f"{value:.3g}"
    return text + ("*" if record[name].get("reason") else "")


def _write(only: str | None) -> None:
    profile = ProveProfile.named("quick")
    old = json.loads(RECORD.read_text()) if RECORD.exists() else {"checks": {}}
    rows = dict(old["checks"])
    for entry in all_theorems(only, profile="quick"):
        row = measure(entry, profile)
        rows[entry.name] = row.as_json()
        print(
            f"{entry.name:45s} slack {row.slack:10.3g} loosest {row.loosest:10.3g} "
            f"{row.loose}/{row.subchecks} loose  {row.seconds:.1f}s",
            flush=True,
        )
    for name, row in rows.items():
        row["reason"] = REASONS.get(name, "")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
    record = {
        "profile": "quick",
        "seed": profile.seed,
        "python": platform.python_version(),
        "blas_threads": os.environ.get("OPENBLAS_NUM_THREADS", "unset"),
        "load_1min": round(load, 2),
        "checks": dict(sorted(rows.items())),
    }
    RECORD.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {RECORD}")


if __name__ == "__main__":
    args = sys.argv[1:]
    if not args or args[0] != "--write" or len(args) > 2:
        sys.exit("usage: python -m proofs_numeric._slack --write [FAMILY]")
    _write(args[1] if len(args) == 2 else None)
