"""The papers' own code through the suites (issue 35): rows of the outside report that need a
local checkout of a public repository (``python -m benchmarks.crosscheck_outside --source
NAME=PATH``).  Each row is run twice: *before* (no options, as a first-time user would) and
*after* (the conventions the official code follows, declared).  Every failure that remains
after the declarations is classified in :data:`OFFICIAL_CLASSIFICATION` with independent
evidence; the standalone scripts of ``benchmarks/outside/upstream/`` show each "their defect"
without this package.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks.outside.pairs import Classification

__all__ = ["OFFICIAL_CLASSIFICATION", "OFFICIAL_PAIRS", "SOURCES", "OfficialPair"]

#: Source name -> the public repository it is a checkout of.
SOURCES: dict[str, str] = {
    "FFOLayer": "GT-KOALA/FFOLayer",
    "IAM": "heesung-k/IAM",
    "automl": "google/automl",
    "Muon": "KellerJordan/Muon",
    "S-Adam": "RuoranXu/S-Adam",
    "rational_activations": "ml-research/rational_activations",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class OfficialPair:
    """One official implementation against one suite.

    Attributes:
        key: unique id (``FFOLayer.ffo``).
        source: the checkout it needs (a key of :data:`SOURCES`).
        code: what of the repository is run (file and name).
        suite: the suite name.
        target: ``module:callable`` of an adapter in ``benchmarks.outside``.
        declared: the ``crosscheck`` options of the *after* run (the conventions declared).
        note: why each declaration is the official code's convention, with where it is.
    """

    key: str
    source: str
    code: str
    suite: str
    target: str
    declared: tuple[str, ...] = ()
    note: str = ""

    def argv(self, profile: str, *, declared: bool) -> list[str]:
        """The ``verifiedref`` arguments of the before (``declared=False``) or after run."""
        extra = list(self.declared) if declared else []
        return ["crosscheck", self.suite, self.target, "--profile", profile, *extra]


_FFO = "benchmarks.outside.official_ffolayer"
_RAT = "benchmarks.outside.official_rational"
_IAM = "benchmarks.outside.official_iam"
_OPT = "benchmarks.outside.official_optimizers"

OFFICIAL_PAIRS: tuple[OfficialPair, ...] = (
    OfficialPair(
        key="FFOLayer.ffo",
        source="FFOLayer",
        code="src/ffolayer/ffoqp_eq.py FFOQPLayer (exact_bwd_sol=True, its default)",
        suite="qp_layers.ffo",
        target=f"{_FFO}:ffo",
        declared=("--variant", "exact_limit_unsymmetrised_q", "--domain", "constrained"),
        note="exact_bwd_sol=True solves the limit KKT system (kkt_schur_fast): the α → ∞ limit; "
        "∇_Q comes from autograd of dzᵀQz (d_z y*ᵀ, unsymmetrised); the forward asserts an "
        "inequality row (G.size() unpack fails for m = 0)",
    ),
    OfficialPair(
        key="FFOLayer.hypergradient",
        source="FFOLayer",
        code="src/ffolayer/ffoqp_eq.py FFOQPLayer backward (default)",
        suite="qp_layers.hypergradient",
        target=f"{_FFO}:hypergradient",
        declared=("--variant", "unsymmetrised_q", "--domain", "constrained"),
        note="the default backward is the exact limit, so it is also an exact hypergradient",
    ),
    OfficialPair(
        key="IAM.IAM_D",
        source="IAM",
        code="optim/iam_d.py IAM_D.step (inner ascent, k_steps = K)",
        suite="inconsistency.estimator",
        target=f"{_IAM}:iam_d_estimator",
        declared=("--variant", "eps_in_root", "--precision", "float32"),
        note="normaliser sqrt(Σ||g||² + 1e-12) with the sum of squares accumulated in float32 "
        "(iam_d.py, IAM_D.step)",
    ),
    OfficialPair(
        key="IAM.IAM_DE",
        source="IAM",
        code="optim/iam_d.py IAM_DE.step",
        suite="inconsistency.iam_de",
        target=f"{_IAM}:iam_de_step",
        declared=("--variant", "ema_eps_in_root", "--precision", "float32"),
        note="δ <- 0.9 δ + 0.1 ρ g / sqrt(Σ||g||² + eps), sum of squares in float32 "
        "(iam_d.py, IAM_DE.step)",
    ),
    OfficialPair(
        key="IAM.SAMLoss/ASAMLoss",
        source="IAM",
        code="optim/sam.py SAMLoss (adaptive=False), ASAMLoss (adaptive=True)",
        suite="inconsistency.sam_perturbation",
        target=f"{_IAM}:sam_loss_perturbation",
        note="ASAMLoss has no η argument (its 0.01 is fixed): nothing to declare",
    ),
    OfficialPair(
        key="IAM.SAM",
        source="IAM",
        code="optim/sam.py SAM (first_step / second_step)",
        suite="optimizers.sam",
        target=f"{_IAM}:SAM",
        declared=("--precision", "float32"),
        note="first_step computes the gradient norm and e_w in float32 (.to(torch.float32))",
    ),
    OfficialPair(
        key="automl.Lion",
        source="automl",
        code="lion/lion_pytorch.py Lion",
        suite="optimizers.lion",
        target=f"{_OPT}:Lion",
    ),
    OfficialPair(
        key="KellerJordan.Muon",
        source="Muon",
        code="muon.py SingleDeviceMuon",
        suite="optimizers.muon",
        target=f"{_OPT}:SingleDeviceMuon",
        declared=("--precision", "bfloat16"),
        note="zeropower_via_newtonschulz5 casts to bfloat16 (G.bfloat16())",
    ),
    OfficialPair(
        key="S-Adam.SAdam[class]",
        source="S-Adam",
        code="s_adam SAdam (the class, as a plain torch optimizer target)",
        suite="optimizers.s_adam",
        target=f"{_OPT}:SAdam",
        note="the generic torch-optimizer adapter calls step() without a closure",
    ),
    OfficialPair(
        key="S-Adam.SAdam",
        source="S-Adam",
        code="s_adam SAdam",
        suite="optimizers.s_adam",
        target=f"{_OPT}:s_adam",
        note="driven through a closure built from the suite's loss (SAdam.step requires one)",
    ),
)

OFFICIAL_PAIRS = (
    *OFFICIAL_PAIRS,
    OfficialPair(
        key="rational_activations.B",
        source="rational_activations",
        code="rational/torch/rationals.py Rational(version='B'), numerator/denominator set",
        suite="activations.rational_b",
        target=f"{_RAT}:rational_b",
        note="spec 16's authors use this package (version A, degrees (5, 4)); the suite is the "
        "declared version-B variant (activations.rational is version A since issue 30); no "
        "domain restricts the degrees to m >= n",
    ),
)

#: (pair key, check) -> why it still fails after the declarations, with independent evidence.
OFFICIAL_CLASSIFICATION: dict[tuple[str, str], Classification] = {}

_FFO_G = Classification(
    kind="their defect",
    evidence="the backward's Lagrangian dzᵀQz* + pᵀdz + dλᵀ(Gz* - h) + dνᵀ(Az* - b) omits the "
    "terms λ*ᵀ(G dz) and ν*ᵀ(A dz), so ∇_G = dλ z*ᵀ misses λ* dzᵀ (and ∇_A misses ν* dzᵀ): "
    "against the null-space oracle and central differences of an independent active-set "
    "solve, the G and A blocks are off while q, h, b and sym(∇_Q) agree to the solver's "
    "accuracy; adding λ* dzᵀ back closes the gap (benchmarks/outside/upstream/"
    "ffolayer_g_a_gradients.py)",
)
for _check in ("rank_one_error", "error_bound", "cosine_at_default_alpha"):
    OFFICIAL_CLASSIFICATION[("FFOLayer.ffo", _check)] = _FFO_G
for _check in ("matches_implicit_differentiation", "matches_finite_differences"):
    OFFICIAL_CLASSIFICATION[("FFOLayer.hypergradient", _check)] = _FFO_G
OFFICIAL_CLASSIFICATION[("IAM.SAMLoss/ASAMLoss", "asam_normalised")] = Classification(
    kind="their defect",
    evidence="ASAMLoss multiplies by θ² + 0.01 and normalises by ||(|θ| + 0.01) g||; ASAM "
    "(Kwon et al. 2021) is ε = ρ T² g / ||T g|| with T = |θ| + η, and T² = θ² + 2η|θ| + η² "
    "is θ² + 0.01 for no η: at θ = (0, 1, -2), g = 1, ρ = 0.5 the closed form gives "
    "||T⁻¹ε|| / ρ = 1.087, not 1 (benchmarks/outside/upstream/iam_asam_loss.py)",
)

_NO_CLOSURE = Classification(
    kind="our over-strictness",
    evidence="SAdam.step raises RuntimeError('SAdam requires a closure for LGI estimation') by "
    "design (it probes the loss at perturbed points); the suite's generic torch-optimizer "
    "adapter calls step() without one although the suite has the loss; with a closure built "
    "from the suite's loss (row S-Adam.SAdam) both checks pass",
)
for _check in ("reduces_to_adam", "pure_rescaling"):
    OFFICIAL_CLASSIFICATION[("S-Adam.SAdam[class]", _check)] = _NO_CLOSURE

_RATIONAL = Classification(
    kind="their defect",
    evidence="the powers of x are built for max(len(a), len(b)) columns, so outside numerator "
    "degree m >= denominator degree n the layer computes another function or raises: against "
    "the closed form P(x) / (1 + |b_1 x + ... + b_n x^n|) at 13 points, (m, n) = (5, 4), (3, 2), "
    "(2, 2) agree to 2e-16 while (0, 0), (0, 1), (1, 2) are off by 1.37, 0.16, 0.12 and (2, 3) "
    "raises a tensor-size RuntimeError (benchmarks/outside/upstream/rational_shapes.py); the "
    "suite draws m < n too. The package's own degree pairs (m = n + 1) are exact",
)
for _check in (
    "matches_reference",
    "bounded_by_numerator",
    "polynomial_when_b_zero",
    "parity",
    "linear_in_numerator",
    "sign_of_b_irrelevant",
    "growth",
    "true_rational_agreement",
):
    OFFICIAL_CLASSIFICATION[("rational_activations.B", _check)] = _RATIONAL
