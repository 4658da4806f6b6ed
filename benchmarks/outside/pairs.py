"""The (library, suite) pairs of the outside cross-check report (issue 19).

Each :class:`OutsidePair` is one ``verifiedref crosscheck SUITE TARGET OPTIONS`` run on a public
implementation.  ``benchmarks/crosscheck_outside.py`` runs them all and writes
``benchmarks/results/crosscheck_outside.{md,json}``; ``tests/test_outside.py`` (marker
``outside``) re-runs them and asserts the recorded verdict of every check.  Every failure is
classified in :data:`CLASSIFICATION`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["CLASSIFICATION", "PAIRS", "UNRECORDED", "Classification", "OutsidePair"]


@dataclass(frozen=True, slots=True, kw_only=True)
class OutsidePair:
    """One cross-check of an outside implementation.

    Attributes:
        key: short unique id (``nashpy.lp``), used by the test ids and the report.
        library: the distribution name on PyPI (``pip install NAME``).
        module: the module whose ``__version__`` is reported and whose absence skips the pair.
        suite: the suite name.
        target: ``module:callable`` given to ``crosscheck`` (an adapter of
            ``benchmarks.outside`` or the library's own class).
        options: further ``crosscheck`` arguments (``--domain generic``, ``--precision ...``).
        note: what the run declares and why (conventions, documented preconditions).
    """

    key: str
    library: str
    module: str
    suite: str
    target: str
    options: tuple[str, ...] = ()
    note: str = ""

    def argv(self, profile: str) -> list[str]:
        """The ``verifiedref`` arguments of this run."""
        return ["crosscheck", self.suite, self.target, "--profile", profile, *self.options]


Kind = Literal["their defect", "semantic difference", "our over-strictness", "not yet classified"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Classification:
    """Why a check fails on an outside implementation, with one line of evidence."""

    kind: Kind
    evidence: str


_GAMES = "benchmarks.outside.nashpy_games"
_TSP = "benchmarks.outside.tsp_solvers"
_QP = "benchmarks.outside.qp_solvers"

PAIRS: tuple[OutsidePair, ...] = (
    OutsidePair(
        key="nashpy.linear_program",
        library="nashpy",
        module="nashpy",
        suite="games.solver",
        target=f"{_GAMES}:linear_program",
        note="nashpy's row player maximises: the adapter solves Game(-A)",
    ),
    OutsidePair(
        key="nashpy.support_enumeration",
        library="nashpy",
        module="nashpy",
        suite="games.solver",
        target=f"{_GAMES}:support_enumeration",
        options=("--domain", "generic"),
        note="documented for non-degenerate games: domain generic",
    ),
    OutsidePair(
        key="nashpy.vertex_enumeration",
        library="nashpy",
        module="nashpy",
        suite="games.solver",
        target=f"{_GAMES}:vertex_enumeration",
        options=("--domain", "generic"),
        note="documented for non-degenerate games: domain generic",
    ),
    OutsidePair(
        key="nashpy.lemke_howson",
        library="nashpy",
        module="nashpy",
        suite="games.solver",
        target=f"{_GAMES}:lemke_howson",
        options=("--domain", "generic"),
        note="documented for non-degenerate games: domain generic",
    ),
    OutsidePair(
        key="open_spiel.lp_solver",
        library="open_spiel",
        module="pyspiel",
        suite="games.solver",
        target="benchmarks.outside.openspiel_games:lp_solver",
        note="needs cvxopt/ECOS; OpenSpiel's row player maximises: the game passed is (-A, A)",
    ),
    OutsidePair(
        key="elkai.lkh",
        library="elkai",
        module="elkai",
        suite="tsp.exact",
        target=f"{_TSP}:elkai_lkh",
        note="LKH is a heuristic; on 3-8 cities it is expected to be optimal",
    ),
    OutsidePair(
        key="networkx.christofides",
        library="networkx",
        module="networkx",
        suite="tsp.christofides",
        target=f"{_TSP}:networkx_christofides",
        options=("--domain", "metric"),
        note="Christofides' 1.5 guarantee assumes a metric",
    ),
    OutsidePair(
        key="cvxpy.qp",
        library="cvxpy",
        module="cvxpy",
        suite="qp_layers.solver",
        target=f"{_QP}:cvxpy_qp",
        note="cvxpy's default QP solver (OSQP) with its default accuracy; multipliers from dual_value",
    ),
    OutsidePair(
        key="qpth.qp",
        library="qpth",
        module="qpth",
        suite="qp_layers.solver",
        target=f"{_QP}:qpth_qp",
        options=("--capability", "primal_only"),
        note="public API returns x only; qpth declares numpy<2 (installed with --no-deps)",
    ),
    OutsidePair(
        key="cvxpylayers.qp",
        library="cvxpylayers",
        module="cvxpylayers",
        suite="qp_layers.solver",
        target=f"{_QP}:cvxpylayers_qp",
        options=("--capability", "primal_only"),
        note="public API returns x only",
    ),
    OutsidePair(
        key="torch.Adam",
        library="torch",
        module="torch",
        suite="optimizers.adam",
        target="torch.optim:Adam",
        options=("--variant", "l2_weight_decay"),
        note="torch.optim.Adam adds weight decay to the gradient (L2), eps after bias correction",
    ),
    OutsidePair(
        key="torch.AdamW",
        library="torch",
        module="torch",
        suite="optimizers.adam",
        target="torch.optim:AdamW",
        note="decoupled weight decay, eps after bias correction",
    ),
    OutsidePair(
        key="torch.Muon",
        library="torch",
        module="torch",
        suite="optimizers.muon",
        target="torch.optim:Muon",
        options=("--precision", "bfloat16"),
        note="torch's Muon runs Newton-Schulz in bfloat16",
    ),
    OutsidePair(
        key="lion_pytorch.Lion",
        library="lion-pytorch",
        module="lion_pytorch",
        suite="optimizers.lion",
        target="lion_pytorch:Lion",
    ),
    OutsidePair(
        key="pytorch_optimizer.Lion",
        library="pytorch-optimizer",
        module="pytorch_optimizer",
        suite="optimizers.lion",
        target="pytorch_optimizer:Lion",
    ),
    OutsidePair(
        key="pytorch_optimizer.Muon",
        library="pytorch-optimizer",
        module="pytorch_optimizer",
        suite="optimizers.muon",
        target="pytorch_optimizer:Muon",
        options=("--precision", "bfloat16"),
        note="Newton-Schulz in bfloat16",
    ),
    OutsidePair(
        key="pytorch_optimizer.Muon[groups]",
        library="pytorch-optimizer",
        module="pytorch_optimizer",
        suite="optimizers.muon",
        target="benchmarks.outside.torch_optimizers:pytorch_optimizer_muon",
        options=("--precision", "bfloat16"),
        note="one parameter group with use_muon=True, working around the constructor defect",
    ),
    OutsidePair(
        key="pytorch_optimizer.AdamW",
        library="pytorch-optimizer",
        module="pytorch_optimizer",
        suite="optimizers.adam",
        target="pytorch_optimizer:AdamW",
    ),
    OutsidePair(
        key="heavyball.AdamW",
        library="heavyball",
        module="heavyball",
        suite="optimizers.adam",
        target="heavyball:AdamW",
    ),
    OutsidePair(
        key="open_spiel.cfr",
        library="open_spiel",
        module="pyspiel",
        suite="extensive.cfr",
        target="benchmarks.outside.openspiel_cfr:cfr",
        options=("--variant", "other"),
        note="declares --variant other: OpenSpiel's CFRSolver alternates the players' updates, "
        "a recursion the suite does not list (its distance to the simultaneous CFR recursion is "
        "0.25 after a few iterations); OpenSpiel's Python CFRSolver on a pyspiel game built from the suite's sequence form "
        "(chance picks a nonzero payoff pair, each player walks to its sequence); averages mapped "
        "to realization plans",
    ),
    OutsidePair(
        key="open_spiel.cfr_plus",
        library="open_spiel",
        module="pyspiel",
        suite="extensive.cfr",
        target="benchmarks.outside.openspiel_cfr:cfr_plus",
        options=("--variant", "other"),
        note="OpenSpiel's Python CFRPlusSolver, same adapter; declares --variant other: its "
        "averages differ from the suite's CFR+ recursion (distance 0.40 after a few iterations)",
    ),
    OutsidePair(
        key="pytorch_optimizer.SAM",
        library="pytorch-optimizer",
        module="pytorch_optimizer",
        suite="optimizers.sam",
        target="pytorch_optimizer:SAM",
        options=("--precision", "float32"),
        note="davda54-style wrapper around torch.optim.SGD; it takes the gradient norm in float32 "
        "even for float64 parameters (at --precision float64 radius fails by 2e-8 relative)",
    ),
    *(
        OutsidePair(
            key=f"rational_activations.{impl}",
            library="rational_activations",
            module="rational",
            suite="activations.rational" if impl.split("_")[2] == "a" else "activations.rational_b",
            target=f"benchmarks.outside.rational_activations:{impl}",
            note="the package's own elementwise function (installed with --no-deps: it pins an "
            "old torch); padded: zero numerator coefficients up to max(n, 1) + 1",
        )
        for impl in (
            "numpy_version_a",
            "torch_version_a",
            "torch_version_a_padded",
            "numpy_version_b",
            "torch_version_b",
            "torch_version_b_padded",
        )
    ),
)

#: Pairs added since ``benchmarks/results/crosscheck_outside.json`` was last written; the next
#: ``python -m benchmarks.crosscheck_outside`` records them, and this set must then be emptied
#: (``tests/test_outside.py`` checks both ways).
UNRECORDED: frozenset[str] = frozenset()

#: (pair key, check) -> why it fails, with one line of evidence (measured here, 2026-12-01).
CLASSIFICATION: dict[tuple[str, str], Classification] = {}

_GAME_CHECKS = (
    "duality_gap",
    "value_matches_lp",
    "affine_invariance",
    "permutation_invariance",
    "player_swap",
)
for _check in ("strategies_on_simplices", *_GAME_CHECKS):
    CLASSIFICATION[("nashpy.support_enumeration", _check)] = Classification(
        kind="their defect",
        evidence="StopIteration: no equilibrium is returned (nashpy warns of an even number, 0, of "
        "equilibria) on the 3x3 generic-domain game of the snippet, whose LP equilibrium "
        "x = (0, 0.9436, 0.0564), y = (0.2669, 0, 0.7331) has supports of size 2 on both sides "
        "(also with tol=1e-12); the domain's non-degeneracy is by construction, not proven",
    )
for _check in _GAME_CHECKS:
    CLASSIFICATION[("nashpy.lemke_howson", _check)] = Classification(
        kind="their defect",
        evidence="the returned pair is not an equilibrium of a 5x4 generic-domain game: duality gap "
        "0.024 (recomputed), xᵀAy = 0.05103 against the LP value 0.05127",
    )
for _check in ("matches_brute_force", "relabel_and_scale"):
    CLASSIFICATION[("elkai.lkh", _check)] = Classification(
        kind="semantic difference",
        evidence="elkai rounds float distances to integers: on the 4-city instance of the snippet "
        "it returns a tour of length 2.56754 against OPT 2.50057 (brute force); the same matrix "
        "times 1000 gives the optimum",
    )
for _check in ("kkt_residual", "matches_planted_solution", "equality_only_closed_form"):
    CLASSIFICATION[("cvxpy.qp", _check)] = Classification(
        kind="semantic difference",
        evidence="cvxpy's default QP solver (OSQP, eps_abs = eps_rel = 1e-5) is accurate to ~5e-6 "
        "(scaled KKT residual 1.6e-6, x off by 5.3e-6) where the suite's default asks 1e-6; "
        "declare --tolerance 1e-4 or tighten the solver",
    )
for _check in ("kkt_residual", "matches_planted_solution", "objective_scaling_invariance"):
    CLASSIFICATION[("qpth.qp", _check)] = Classification(
        kind="semantic difference",
        evidence="QPFunction stops at its default maxIter = 20 and reports it only by a printed "
        "warning (silenced here by verbose=-1): scaled KKT residual 0.020, x off the planted "
        "solution by 0.070 and moved by 0.51 when (Q, q) is scaled",
    )
for _check in (
    "kkt_residual",
    "matches_planted_solution",
    "row_permutation_equivariance",
    "objective_scaling_invariance",
    "equality_only_closed_form",
):
    CLASSIFICATION[("cvxpylayers.qp", _check)] = Classification(
        kind="semantic difference",
        evidence="the layer's default solver (SCS) is accurate to ~1e-5..6e-5 (x moves by 6.1e-5 "
        "under a row permutation), where the suite's default asks 1e-6",
    )
for _check in ("stays_in_ball", "first_step_band", "orthogonal_equivariance", "scale_invariance"):
    CLASSIFICATION[("pytorch_optimizer.Muon", _check)] = Classification(
        kind="their defect",
        evidence="Muon(params=[tensor]) raises RuntimeError (Tensor.__contains__ with a str) "
        "although its signature accepts Iterable[Tensor]; with one group {'params': ..., "
        "'use_muon': True} (pair pytorch_optimizer.Muon[groups]) every check passes in bfloat16",
    )
for _check in ("matches_recursion", "weight_decay", "constant_gradient", "first_step_sign"):
    CLASSIFICATION[("heavyball.AdamW", _check)] = Classification(
        kind="not yet classified",
        evidence="every step differs from both declared eps conventions by ~5.7e-11 (allowed "
        "1e-12); --hyper storage_dtype=float64, --hyper eps=0.0 and --variant "
        "eps_before_correction do not remove it; cause not found",
    )

# rational_activations 0.2.0 (issue 30): its torch functions assume the package's own shapes
# (numerator degree m >= n, m >= 1); the suites draw m in 0..5, n in 0..4.
for _key, _checks in (
    (
        "rational_activations.torch_version_a",
        (
            "matches_reference",
            "a_denominator",
            "kink_at_zero",
            "a_gradients",
            "bounded_by_numerator",
            "polynomial_when_b_zero",
            "parity",
            "linear_in_numerator",
            "sign_of_b_irrelevant",
            "growth",
            "true_rational_agreement",
        ),
    ),
    (
        "rational_activations.torch_version_b",
        (
            "matches_reference",
            "bounded_by_numerator",
            "polynomial_when_b_zero",
            "parity",
            "linear_in_numerator",
            "sign_of_b_irrelevant",
            "growth",
            "true_rational_agreement",
        ),
    ),
):
    for _check in _checks:
        CLASSIFICATION[(_key, _check)] = Classification(
            kind="their defect",
            evidence="Rational_PYTORCH_A_F/B_F are right only for numerator degree m >= n, m >= 1 "
            "(the package ships only (5, 4)) and neither check nor document it: m < n raises 'zeros: Dimension size must be "
            "non-negative', m = n = 0 broadcasts a 2-column power table (x = -1, p = [1], q = [] "
            "gives 0.0, not 1.0); zero-padding p (the _padded pairs) passes every check",
        )

# ---------------------------------------------------------------- issue 29: round three rows
_QE = "benchmarks.outside.quantecon_games"
_PYTSP = "benchmarks.outside.python_tsp_solvers"
_QPS = "benchmarks.outside.qpsolvers_backends"
_ROUND_THREE: tuple[OutsidePair, ...] = (
    OutsidePair(
        key="optax.adam",
        library="optax",
        module="optax",
        suite="optimizers.adam",
        target="optax:adam",
        options=("--variant", "eps_after_correction", "--precision", "float32"),
        note="JAX computes in float32 unless x64 is enabled; optax.adam takes no weight_decay, so "
        "the decay check is skipped ('requires weight_decay')",
    ),
    OutsidePair(
        key="optax.adamw",
        library="optax",
        module="optax",
        suite="optimizers.adam",
        target="optax:adamw",
        options=("--precision", "float32"),
        note="decoupled decay (the suite's default variant), float32 as above",
    ),
    OutsidePair(
        key="optax.adam[first_order]",
        library="optax",
        module="optax",
        suite="optimizers.first_order",
        target="optax:adam",
        options=("--hyper", "learning_rate=0.1", "--precision", "float32"),
        note="the factory's learning rate fixed by --hyper; JAX arrays read through __array__",
    ),
    OutsidePair(
        key="optax.lion",
        library="optax",
        module="optax",
        suite="optimizers.lion",
        target="optax:lion",
        options=("--precision", "float32"),
        note="optax.lion(learning_rate, ..., weight_decay) in float32",
    ),
    OutsidePair(
        key="quantecon.lemke_howson",
        library="quantecon",
        module="quantecon",
        suite="games.solver",
        target=f"{_QE}:lemke_howson",
        note="NormalFormGame([Player(-A), Player(A.T)]): quantecon's players maximise",
    ),
    OutsidePair(
        key="quantecon.support_enumeration",
        library="quantecon",
        module="quantecon",
        suite="games.solver",
        target=f"{_QE}:support_enumeration",
        note="first equilibrium of the list; all games (the default domain)",
    ),
    OutsidePair(
        key="quantecon.support_enumeration[generic]",
        library="quantecon",
        module="quantecon",
        suite="games.solver",
        target=f"{_QE}:support_enumeration",
        options=("--domain", "generic"),
        note="the domain it is documented for (non-degenerate games)",
    ),
    OutsidePair(
        key="quantecon.vertex_enumeration[generic]",
        library="quantecon",
        module="quantecon",
        suite="games.solver",
        target=f"{_QE}:vertex_enumeration",
        options=("--domain", "generic"),
        note="non-degenerate games with sides >= 2 (scipy's qhull needs 2-D data)",
    ),
    OutsidePair(
        key="python_tsp.dynamic_programming",
        library="python-tsp",
        module="python_tsp",
        suite="tsp.exact",
        target=f"{_PYTSP}:dynamic_programming",
    ),
    OutsidePair(
        key="python_tsp.brute_force",
        library="python-tsp",
        module="python_tsp",
        suite="tsp.exact",
        target=f"{_PYTSP}:brute_force",
    ),
    OutsidePair(
        key="python_tsp.local_search",
        library="python-tsp",
        module="python_tsp",
        suite="tsp.christofides",
        target=f"{_PYTSP}:local_search",
        note="a heuristic without a 1.5 guarantee, from x0 = 0..n-1",
    ),
    OutsidePair(
        key="python_tsp.simulated_annealing",
        library="python-tsp",
        module="python_tsp",
        suite="tsp.christofides",
        target=f"{_PYTSP}:simulated_annealing",
        note="a heuristic without a 1.5 guarantee, from x0 = 0..n-1",
    ),
    OutsidePair(
        key="qpsolvers.osqp",
        library="qpsolvers",
        module="qpsolvers",
        suite="qp_layers.solver",
        target=f"{_QPS}:osqp",
        note="qpsolvers.solve_problem(solver='osqp'), the backend's default tolerances",
    ),
    OutsidePair(
        key="qpsolvers.clarabel",
        library="qpsolvers",
        module="qpsolvers",
        suite="qp_layers.solver",
        target=f"{_QPS}:clarabel",
        options=("--raises", "qpsolvers.exceptions:ProblemError"),
        note="qpsolvers.solve_problem(solver='clarabel'); ProblemError declared as its rejection",
    ),
    OutsidePair(
        key="qpsolvers.proxqp",
        library="qpsolvers",
        module="qpsolvers",
        suite="qp_layers.solver",
        target=f"{_QPS}:proxqp",
        note="qpsolvers.solve_problem(solver='proxqp'), default tolerances",
    ),
    OutsidePair(
        key="proxsuite.proxqp_dense",
        library="proxsuite",
        module="proxsuite",
        suite="qp_layers.solver",
        target=f"{_QPS}:proxsuite_direct",
        note="proxsuite.proxqp.dense.solve called directly (l = -1e20), default eps_abs 1e-5",
    ),
)
_ROUND_THREE += tuple(
    OutsidePair(
        key=f"optax.{name}[first_order]",
        library="optax",
        module="optax",
        suite="optimizers.first_order",
        target=f"optax:{name}",
        options=("--hyper", "learning_rate=0.05", "--precision", "float32"),
        note="any optax pair: descent, purity, structure and dtype (float32 declared)",
    )
    for name in ("sgd", "lion", "adamw")
)
_ROUND_THREE += (
    OutsidePair(
        key="torch_optimizer.QHAdam",
        library="torch-optimizer",
        module="torch_optimizer",
        suite="optimizers.adam",
        target="torch_optimizer:QHAdam",
        options=("--variant", "l2_weight_decay"),
        note="its default nus = (1, 1): quasi-hyperbolic Adam reduces to Adam (L2 weight decay)",
    ),
    OutsidePair(
        key="torch_optimizer.QHAdam[nus=0.7]",
        library="torch-optimizer",
        module="torch_optimizer",
        suite="optimizers.adam",
        target="torch_optimizer:QHAdam",
        options=("--hyper", "nus=(0.7,1.0)", "--variant", "l2_weight_decay"),
        note="the QHAdam paper's nu1 = 0.7: a different method from Adam",
    ),
    *(
        OutsidePair(
            key=f"torch_optimizer.{name}[first_order]",
            library="torch-optimizer",
            module="torch_optimizer",
            suite="optimizers.first_order",
            target=f"torch_optimizer:{name}",
            options=("--hyper", "lr=0.05"),
            note="any optimizer: descent on a quadratic, purity, structure and dtype",
        )
        for name in ("Yogi", "Lamb")
    ),
)
PAIRS = PAIRS + _ROUND_THREE

for _check in ("degenerate_games",):
    CLASSIFICATION[("quantecon.support_enumeration", _check)] = Classification(
        kind="semantic difference",
        evidence="documented for non-degenerate games: on degenerate ones it returns an empty "
        "list (no equilibrium) where the adapter takes the first; with --domain generic every "
        "check passes (row quantecon.support_enumeration[generic])",
    )
CLASSIFICATION[("python_tsp.local_search", "scale_covariance")] = Classification(
    kind="semantic difference",
    evidence="randomised without a seed argument: solve_tsp_local_search(D, x0=list(range(8))) "
    "on one Euclidean 8-city D returns lengths 3.212316 and 3.204471 on repeated calls, so c·D "
    "and D get different tours",
)
CLASSIFICATION[("python_tsp.local_search", "separating_instances")] = Classification(
    kind="semantic difference",
    evidence="a heuristic with no 1.5 guarantee, and the suite separates it: on the 10-city "
    "instance nn_two_opt_1.61, solve_tsp_local_search(D, x0=list(range(10))) returns the start "
    "0..9 unchanged (length 16.081, three calls) while python_tsp's own "
    "solve_tsp_dynamic_programming(D) gives OPT 10.002: 1.608 OPT",
)
CLASSIFICATION[("python_tsp.simulated_annealing", "scale_covariance")] = Classification(
    kind="semantic difference",
    evidence="randomised without a seed argument: on the 6-city D of the snippet, "
    "4·solve_tsp_simulated_annealing(D/4, x0=list(range(6))) is 2.7016 (OPT, python_tsp's "
    "dynamic programming) in 142 of 150 calls and 2.7556 in 8, so c·D and D can get different "
    "tours",
)
for _check in (
    "kkt_residual",
    "matches_planted_solution",
    "objective_scaling_invariance",
    "equality_only_closed_form",
):
    CLASSIFICATION[("qpsolvers.osqp", _check)] = Classification(
        kind="semantic difference",
        evidence="OSQP's default eps_abs = eps_rel = 1e-5: x off the planted solution by 5.3e-6, "
        "scaled KKT residual 1.6e-6, where the suite's default asks 1e-6; declare --tolerance "
        "1e-4 or tighten the backend",
    )
    if _check in ("objective_scaling_invariance", "equality_only_closed_form"):
        CLASSIFICATION[("qpsolvers.clarabel", _check)] = Classification(
            kind="their defect",
            evidence="qpsolvers.solve_qp(P, q, solver='clarabel') with no constraints raises "
            "ProblemError 'problem is unbounded below (cost_check=2.9e-08), q has component in the "
            "nullspace of P' on the 8x8 P of the snippet, whose smallest eigenvalue is 0.509 "
            "(cond 6.48); np.linalg.solve(P, -q) is the minimiser (reproduced without verifiedref)",
        )
    for _key in ("qpsolvers.proxqp", "proxsuite.proxqp_dense"):
        CLASSIFICATION[(_key, _check)] = Classification(
            kind="semantic difference",
            evidence="ProxQP's default eps_abs = 1e-5: x off the planted solution by 2.9e-6, "
            "scaled KKT residual 1.08e-6, where the suite's default asks 1e-6 (the same numbers "
            "through qpsolvers and directly)",
        )
for _check in ("matches_recursion", "weight_decay"):
    CLASSIFICATION[("torch_optimizer.QHAdam[nus=0.7]", _check)] = Classification(
        kind="semantic difference",
        evidence="quasi-hyperbolic momentum is a different method (the row shows the suite "
        "tells it apart): QHAdam([p], lr=1e-3, nus=(0.7, 1.0)) and torch.optim.Adam([p], "
        "lr=1e-3) from p = 0 on gradients 1, 1, -2 agree for two steps (constant gradient) and "
        "reach -0.0015229 against -0.0019244 at the third; with its default nus = (1, 1) every "
        "check passes (row torch_optimizer.QHAdam)",
    )
