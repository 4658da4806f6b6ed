"""Parameter-effect mutants (issue 36, item 2): generated wrong implementations that call the
reference with one documented keyword replaced by its default or a neighbouring value.

Each :class:`ParamEffect` names a public algorithm, a keyword its docstring says changes the
result, the replacement, and where the checks' instances make it matter.  :func:`param_mutants`
turns each into a :class:`~tests._proof_mutants.ProofMutant` whose target is generated in this
module (``tests._param_mutants:<algorithm>__<keyword>``), so the table joins the hand-written
mutant tables, ``tests/test_proof_mutants.py`` runs it, and ``proofs_numeric/_teeth.json``
records it.  :data:`NEUTRAL` lists keywords documented NOT to change the result on the checks'
instances, with the reason; :data:`UNCHECKED` the documented keywords whose effect no check
notices yet, with the reason (most belong to algorithms no theorem check runs: baselines,
generators, utilities).  ``tests/_param_scan.py`` lists every catalogued keyword; each is in
exactly one of the three tables.

The table as Markdown (with the counts): ``python -m tests._param_mutants``, shipped as
``benchmarks/results/param_effects.md``.
"""

from __future__ import annotations

import dataclasses
import inspect
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pkgutil import resolve_name
from typing import Any

from tests._proof_mutants import ProofMutant

__all__ = ["NEUTRAL", "PARAM_EFFECTS", "UNCHECKED", "ParamEffect", "param_mutants"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ParamEffect:
    """One documented keyword replaced.

    Attributes:
        family: the family whose checks must fail it.
        algorithm: ``module:function`` as ``verifiedref list`` shows it.
        keyword: the documented keyword.
        label: the replacement, in words (``"default 'uniform'"``, ``"2 tau"``).
        replace: maps the value the check passed to the value the mutant uses.
        where: why the result must change on the checks' instances.
        catches: the registered checks that must fail it.
    """

    family: str
    algorithm: str
    keyword: str
    label: str
    replace: Callable[[Any], Any]
    where: str
    catches: tuple[str, ...]

    @property
    def target_name(self) -> str:
        """The generated callable's name in this module."""
        function = self.algorithm.split(":")[1]
        return f"{function}__{self.keyword}__{zlib.crc32(self.label.encode()) % 10_000:04d}"


def _constant(value: Any) -> Callable[[Any], Any]:
    return lambda _old: value


def _use_default(_old: Any) -> Any:
    """Marker: replaced by the keyword's default from the signature (see :func:`_generate`)."""
    raise AssertionError("resolved by _generate")


def _scaled(factor: float) -> Callable[[Any], Any]:
    return lambda old: old * factor


def _one_less(old: Any) -> Any:
    """The neighbouring count below ``old`` (never below 1)."""
    return max(1, old - 1)


def _bound_effect(
    function: str, keyword: str, label: str, replace: Callable[[Any], Any]
) -> ParamEffect:
    """A stability bound's argument replaced: ``stability.bound_formulas`` compares each bound
    with its formula at two points where every argument is away from 1 and from the others."""
    return ParamEffect(
        family="stability",
        algorithm=f"reference.stability:{function}",
        keyword=keyword,
        label=label,
        replace=replace,
        where="bound_formulas evaluates the documented formula at the arguments it passed",
        catches=("stability.bound_formulas",),
    )


def _kw(
    family: str,
    algorithm: str,
    keyword: str,
    label: str,
    replace: Callable[[Any], Any],
    where: str,
    *catches: str,
) -> ParamEffect:
    """A :class:`ParamEffect` of ``reference.<algorithm>`` (the short form of the later rows)."""
    return ParamEffect(
        family=family,
        algorithm=f"reference.{algorithm}",
        keyword=keyword,
        label=label,
        replace=replace,
        where=where,
        catches=catches,
    )


def _seeded_generator() -> Any:
    import numpy as np

    return np.random.default_rng(0)


def _default_sgd_config() -> Any:
    from reference.inconsistency import SGDConfig

    return SGDConfig()


def _default_iam_config() -> Any:
    from reference.inconsistency import IAMConfig

    return IAMConfig()


PARAM_EFFECTS: tuple[ParamEffect, ...] = (
    ParamEffect(
        family="games",
        algorithm="reference.games:prm_plus",
        keyword="averaging",
        label="default 'linear'",
        replace=_constant("linear"),
        where="averaging_rules asks for every rule; last/uniform/quadratic/best differ from linear",
        catches=("games.averaging_rules",),
    ),
    ParamEffect(
        family="games",
        algorithm="reference.games:prm_plus",
        keyword="averaging",
        label="neighbour 'uniform'",
        replace=_constant("uniform"),
        where="the rate check's linear average becomes uniform: slower on weighted RPS",
        catches=("games.averaging_rules",),
    ),
    ParamEffect(
        family="games",
        algorithm="reference.games:rm_plus",
        keyword="averaging",
        label="default 'uniform'",
        replace=_constant("uniform"),
        where="averaging_rules asks for linear, quadratic, last and best",
        catches=("games.averaging_rules",),
    ),
    ParamEffect(
        family="games",
        algorithm="reference.games:prm_plus",
        keyword="max_iter",
        label="max_iter / 2",
        replace=lambda old: max(1, old // 2),
        where="tol = 1e-300 is never met: the run length is max_iter, the average changes",
        catches=("games.averaging_rules",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:mirror_descent",
        keyword="step_size",
        label="1.1 eta",
        replace=_scaled(1.1),
        where="the closed form (1 - eta lambda)^T depends on eta",
        catches=("mirror_descent.quadratic_closed_forms",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:mirror_prox",
        keyword="step_size",
        label="1.1 eta",
        replace=_scaled(1.1),
        where="the closed form of mirror prox depends on eta",
        catches=("mirror_descent.quadratic_closed_forms",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:accelerated_mirror_descent",
        keyword="step_size",
        label="default 1.0",
        replace=_constant(1.0),
        where="closed forms at eta = 0.35, 0.6, 0.9",
        catches=("mirror_descent.quadratic_closed_forms",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:accelerated_mirror_descent",
        keyword="lipschitz",
        label="2 L",
        replace=_scaled(2.0),
        where="eta_t = eta (t+1)/(2L) depends on L",
        catches=("mirror_descent.quadratic_closed_forms",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:mirror_descent",
        keyword="max_iter",
        label="T - 1",
        replace=_one_less,
        where="the closed form is at T",
        catches=("mirror_descent.quadratic_closed_forms",),
    ),
    ParamEffect(
        family="stability",
        algorithm="reference.stability:clip",
        keyword="tau",
        label="2 tau",
        replace=_scaled(2.0),
        where="vectors with norms between tau and 2 tau are clipped",
        catches=("stability.clip_projection",),
    ),
    ParamEffect(
        family="perturbation",
        algorithm="reference.perturbation:asymp_gda_side",
        keyword="step_size",
        label="default None",
        replace=_constant(None),
        where="step_recursion passes step_size = 0.41/||A|| and 3/||A||, not the default 1/(mu + ||A||)",
        catches=("perturbation.step_recursion",),
    ),
    ParamEffect(
        family="perturbation",
        algorithm="reference.perturbation:asymp_gda_side",
        keyword="side",
        label="default 'x'",
        replace=_constant("x"),
        where="step_recursion replays the y-side run, whose perturbed player differs",
        catches=("perturbation.step_recursion",),
    ),
    ParamEffect(
        family="perturbation",
        algorithm="reference.perturbation:asymp_gda_side",
        keyword="variant",
        label="default 'official'",
        replace=_constant("official"),
        where="step_recursion replays the y side in the y_first order too",
        catches=("perturbation.step_recursion",),
    ),
    ParamEffect(
        family="perturbation",
        algorithm="reference.perturbation:asymp_gda_side",
        keyword="mu",
        label="mu/2",
        replace=_scaled(0.5),
        where="the limit x^mu and every step depend on mu (closed form above mu = 15)",
        catches=(
            "perturbation.closed_form",
            "perturbation.step_recursion",
            "perturbation.theorem_4_1",
        ),
    ),
    ParamEffect(
        family="perturbation",
        algorithm="reference.perturbation:asymp_gda",
        keyword="variant",
        label="default 'official'",
        replace=_constant("official"),
        where="step_recursion replays asymp_gda in the y_first order too",
        catches=("perturbation.step_recursion",),
    ),
    ParamEffect(
        family="perturbation",
        algorithm="reference.perturbation:asymp_gda",
        keyword="step_size",
        label="default None",
        replace=_constant(None),
        where="step_recursion passes step_size away from the default",
        catches=("perturbation.step_recursion",),
    ),
    ParamEffect(
        family="perturbation",
        algorithm="reference.perturbation:perturbed_minimiser",
        keyword="mu",
        label="2 mu",
        replace=_scaled(2.0),
        where="closed_form asks mu = 14.9 (invariant) and 15.1, 30 (shifted); 2 mu moves 14.9",
        catches=("perturbation.closed_form",),
    ),
    ParamEffect(
        family="perturbation",
        algorithm="reference.perturbation:parameter_free",
        keyword="tol",
        label="100 tol",
        replace=_scaled(100.0),
        where="algorithm_1 recomputes NashConv from the returned pair and compares with tol",
        catches=("perturbation.algorithm_1",),
    ),
    ParamEffect(
        family="hierarchical",
        algorithm="reference.hierarchical:make_random_circuit",
        keyword="max_bias",
        label="default 0.8",
        replace=_constant(0.8),
        where="random_circuit asks max_bias 0.3, 0.4, 0.6; AND/OR/MAJ chains reach |mean| 0.5+",
        catches=("hierarchical.random_circuit",),
    ),
    ParamEffect(
        family="hierarchical",
        algorithm="reference.hierarchical:make_random_circuit",
        keyword="gates",
        label="default (all four)",
        replace=_constant(("xor2", "and2", "or2", "maj3")),
        where="random_circuit asks the subsets (and2, maj3) and (or2,)",
        catches=("hierarchical.random_circuit",),
    ),
    ParamEffect(
        family="hierarchical",
        algorithm="reference.hierarchical:make_random_circuit",
        keyword="width",
        label="width - 1",
        replace=_one_less,
        where="random_circuit counts the gates of every level",
        catches=("hierarchical.random_circuit",),
    ),
    ParamEffect(
        family="hierarchical",
        algorithm="reference.hierarchical:make_random_circuit",
        keyword="r",
        label="r - 1",
        replace=_one_less,
        where="random_circuit counts the levels",
        catches=("hierarchical.random_circuit",),
    ),
    ParamEffect(
        family="hierarchical",
        algorithm="reference.hierarchical:train_flat",
        keyword="epochs",
        label="1",
        replace=_constant(1),
        where="the positive control (first level of G1) needs the configured epochs",
        catches=("hierarchical.flat_baseline",),
    ),
    ParamEffect(
        family="hierarchical",
        algorithm="reference.hierarchical:train_flat",
        keyword="learning_rate",
        label="learning_rate/20",
        replace=_scaled(0.05),
        where="the positive control (first level of G1) needs the configured step",
        catches=("hierarchical.flat_baseline",),
    ),
    ParamEffect(
        family="tsp",
        algorithm="reference.tsp:threshold_decode",
        keyword="tau",
        label="default 0.5",
        replace=_constant(0.5),
        where="proposition_d's exact part: 0.3 Y_T* at tau = 0.25 rebuilds T*, tau = 0.5 gives "
        "H = empty (Christofides)",
        catches=("tsp.proposition_d",),
    ),
    ParamEffect(
        family="stability",
        algorithm="reference.stability:normalized_sgd_stability_bound",
        keyword="learning_rate",
        label="eta/2",
        replace=_scaled(0.5),
        where="the antipodal instance attains 2 eta T/n: half the step halves the bound",
        catches=("stability.normalized_sgd_coupling",),
    ),
    ParamEffect(
        family="stability",
        algorithm="reference.stability:normalized_sgd_stability_bound",
        keyword="n",
        label="2 n",
        replace=_scaled(2),
        where="the bound is proportional to 1/n and attained",
        catches=("stability.normalized_sgd_coupling",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:effective_g",
        keyword="alpha",
        label="default 1.0",
        replace=_constant(1.0),
        where="the check asks for alpha = 0, 0.5 and 1.5 with L1 > 0",
        catches=("mirror_descent.effective_g",),
    ),
    ParamEffect(
        family="preference",
        algorithm="reference.preference:implicit_reward",
        keyword="beta",
        label="default 0.1",
        replace=_constant(0.1),
        where="the check uses beta = 0.05 and 2.5",
        catches=("preference.a1_implicit_reward",),
    ),
    ParamEffect(
        family="preference",
        algorithm="reference.preference:implicit_reward",
        keyword="loss",
        label="default 'log'",
        replace=_constant("log"),
        where="the check asks for the Brier reward too",
        catches=("preference.a1_implicit_reward",),
    ),
    ParamEffect(
        family="inconsistency",
        algorithm="reference.inconsistency:local_inconsistency",
        keyword="steps",
        label="default 1",
        replace=_constant(1),
        where="one step from noise is far from the top eigenvector: S-hat below (rho²/2) lambda_max",
        catches=("inconsistency.local_inconsistency",),
    ),
    ParamEffect(
        family="inconsistency",
        algorithm="reference.inconsistency:local_inconsistency",
        keyword="noise_scale",
        label="10 sigma_n",
        replace=_scaled(10.0),
        where="the documented-draw part replays A1 from sigma_n = 1e-3",
        catches=("inconsistency.local_inconsistency",),
    ),
    ParamEffect(
        family="inconsistency",
        algorithm="reference.inconsistency:iam_s",
        keyword="config",
        label="default IAMConfig()",
        replace=lambda _old: _default_iam_config(),
        where="the check asks for rho = 0.3 and 0 and K = 2 (default rho 0.05, K 1)",
        catches=("inconsistency.iam_s_step",),
    ),
    ParamEffect(
        family="qp_layers",
        algorithm="reference.qp_layers:ffo_grads",
        keyword="alpha",
        label="2 alpha",
        replace=_scaled(2.0),
        where="rank_one_error checks alpha (g_hat - g) = the rank-one term at each alpha",
        catches=("qp_layers.rank_one_error",),
    ),
    ParamEffect(
        family="qp_layers",
        algorithm="reference.qp_layers:ghost_pgd",
        keyword="alpha",
        label="2 alpha",
        replace=_scaled(2.0),
        where="the ghost problem's solution moves by O(1/alpha)",
        catches=("qp_layers.pgd_rate",),
    ),
    ParamEffect(
        family="ski_rental",
        algorithm="reference.ski_rental:robust_algorithm",
        keyword="lam",
        label="0 (no robustification)",
        replace=_constant(0.0),
        where="lambda_robust checks the (1 + 1/lambda)-robustness on adversarial truths",
        catches=("ski_rental.lambda_robust",),
    ),
    ParamEffect(
        family="divergence",
        algorithm="reference.divergence:armijo_ascent",
        keyword="theta0",
        label="default None",
        replace=_constant(None),
        where="v5 measures the linear rate from the given start theta0",
        catches=("divergence.v5_armijo_rate",),
    ),
    ParamEffect(
        family="divergence",
        algorithm="reference.divergence:estimate_alpha_divergence",
        keyword="config",
        label="default ArmijoConfig()",
        replace=_constant(None),
        where="s3 asks R = 0.5 and 1 (active balls) full batch; the default is R = 3, mini-batch",
        catches=("divergence.s3_estimator",),
    ),
    ParamEffect(
        family="divergence",
        algorithm="reference.divergence:estimate_alpha_divergence",
        keyword="features",
        label="default None (fresh features)",
        replace=_constant(None),
        where="s3 recomputes J-hat on the features it passed",
        catches=("divergence.s3_estimator",),
    ),
    ParamEffect(
        family="divergence",
        algorithm="reference.divergence:estimate_alpha_divergence",
        keyword="heldout",
        label="flipped",
        replace=lambda old: not old,
        where="s3 runs both modes: the whole-sample value and the halves identity differ",
        catches=("divergence.s3_estimator",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers.polar:newton_schulz",
        keyword="steps",
        label="steps - 1",
        replace=_one_less,
        where="the spectral identity applies phi^(5): four steps give phi^(4)",
        catches=("optimizers.ns_spectral_identity", "spectral.l3_muon"),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers.polar:newton_schulz",
        keyword="eps",
        label="2 eps",
        replace=_scaled(2.0),
        where="the identity normalises by ||U||_F + eps, with ||U|| down to 1e-3",
        catches=("optimizers.ns_spectral_identity", "spectral.l3_muon"),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:adam",
        keyword="learning_rate",
        label="default 1e-3",
        replace=_constant(1e-3),
        where="P7 runs AdamW at lr 0.01 beside S-Adam",
        catches=("optimizers.s_adam_reduction",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:adam",
        keyword="b1",
        label="default 0.9",
        replace=_constant(0.9),
        where="P7 also runs betas (0.8, 0.99) on both sides",
        catches=("optimizers.s_adam_reduction",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:adam",
        keyword="b2",
        label="default 0.999",
        replace=_constant(0.999),
        where="P7 also runs betas (0.8, 0.99) on both sides",
        catches=("optimizers.s_adam_reduction",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:adam",
        keyword="eps",
        label="default 1e-8",
        replace=_constant(1e-8),
        where="P7 passes eps = 0 to both sides",
        catches=("optimizers.s_adam_reduction",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:adam",
        keyword="weight_decay",
        label="2 w",
        replace=_scaled(2.0),
        where="the decoupled decay enters every step",
        catches=("optimizers.s_adam_reduction",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:damping",
        keyword="cap",
        label="default 10",
        replace=_constant(10.0),
        where="the damping check asks caps 0.5 and 40",
        catches=("optimizers.damping",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:lgi",
        keyword="zeta",
        label="default 1e-6",
        replace=_constant(1e-6),
        where="lgi_range asks zeta 0 and 0.5",
        catches=("optimizers.lgi_range",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:lgi",
        keyword="directions",
        label="default None",
        replace=_constant(None),
        where="lgi_range passes explicit directions +-1",
        catches=("optimizers.lgi_range",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:lgi",
        keyword="ddof",
        label="default 1",
        replace=_constant(1),
        where="lgi_range asks ddof 0 with injected slopes (1, -1): rho 1/(1 + zeta), not 2/(1 + zeta)",
        catches=("optimizers.lgi_range",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:lgi_details",
        keyword="ddof",
        label="default 1",
        replace=_constant(1),
        where="lgi_range asks ddof 0 with injected slopes (1, -1), where P1's bound is attained",
        catches=("optimizers.lgi_range",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:lgi_details",
        keyword="zeta",
        label="default 1e-6",
        replace=_constant(1e-6),
        where="lgi_range asks zeta 0 and 0.01",
        catches=("optimizers.lgi_range",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:lion",
        keyword="learning_rate",
        label="2 eta",
        replace=_scaled(2.0),
        where="E1: SFW's gamma = eta lambda",
        catches=("optimizers.lion_sfw",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:lion",
        keyword="b1",
        label="default 0.9",
        replace=_constant(0.9),
        where="E1 also runs betas (0.8, 0.95) and (0.95, 0.999)",
        catches=("optimizers.lion_sfw",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:lion",
        keyword="b2",
        label="default 0.99",
        replace=_constant(0.99),
        where="E1 also runs betas (0.8, 0.95) and (0.95, 0.999)",
        catches=("optimizers.lion_sfw",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:lion",
        keyword="weight_decay",
        label="2 lambda",
        replace=_scaled(2.0),
        where="E1: the ball radius is 1/lambda",
        catches=("optimizers.lion_sfw",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:lion_vr",
        keyword="learning_rate",
        label="default 1e-4",
        replace=_constant(1e-4),
        where="the recursion check asks eta 1e-3, 0.05, 0.3",
        catches=("optimizers.lion_vr",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:lion_vr",
        keyword="weight_decay",
        label="default 1",
        replace=_constant(1.0),
        where="the recursion check asks lambda 0.5 and 3",
        catches=("optimizers.lion_vr",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:lion_vr",
        keyword="a",
        label="default None (schedule)",
        replace=_constant(None),
        where="the recursion check asks a = 0.3",
        catches=("optimizers.lion_vr",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:lion_vr",
        keyword="clip_tau",
        label="2 tau",
        replace=_scaled(2.0),
        where="the recursion clips at tau 0.5 and 5",
        catches=("optimizers.lion_vr",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:muon",
        keyword="learning_rate",
        label="2 eta",
        replace=_scaled(2.0),
        where="E2: gamma = eta lambda",
        catches=("optimizers.muon_sfw",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:muon",
        keyword="momentum",
        label="default 0.95",
        replace=_constant(0.95),
        where="E2 also runs mu = 0.8",
        catches=("optimizers.muon_sfw",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:muon",
        keyword="nesterov",
        label="flipped",
        replace=lambda old: not old,
        where="E2 runs both, with beta1 = mu^2 under Nesterov",
        catches=("optimizers.muon_sfw",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:muon",
        keyword="weight_decay",
        label="2 lambda",
        replace=_scaled(2.0),
        where="E2: the radius is s/lambda",
        catches=("optimizers.muon_sfw",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:muon",
        keyword="exact_polar",
        label="default False (NS5)",
        replace=_constant(False),
        where="E2 holds for the exact polar factor; NS5 is off by 1e-2",
        catches=("optimizers.muon_sfw",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:muon_vr",
        keyword="learning_rate",
        label="2 eta",
        replace=_scaled(2.0),
        where="vr_balls replays the recursion at eta 0.05",
        catches=("optimizers.vr_balls",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:muon_vr",
        keyword="weight_decay",
        label="2 lambda",
        replace=_scaled(2.0),
        where="vr_balls: the radius is 1/lambda",
        catches=("optimizers.vr_balls",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:muon_vr",
        keyword="a",
        label="default None (schedule)",
        replace=_constant(None),
        where="vr_balls asks a = 0.3",
        catches=("optimizers.vr_balls",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:muon_vr",
        keyword="clip_tau",
        label="2 tau",
        replace=_scaled(2.0),
        where="vr_balls clips at tau 0.5",
        catches=("optimizers.vr_balls",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:muon_vr",
        keyword="exact_polar",
        label="default False (NS5)",
        replace=_constant(False),
        where="vr_balls replays the exact polar recursion",
        catches=("optimizers.vr_balls",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:prox_sgd",
        keyword="learning_rate",
        label="2 eta",
        replace=_scaled(2.0),
        where="the prox closed form depends on eta",
        catches=("optimizers.prox_sgd",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:prox_sgd",
        keyword="momentum",
        label="default 0.9",
        replace=_constant(0.9),
        where="the check asks momentum 0 and 0.5",
        catches=("optimizers.prox_sgd",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:prox_sgd",
        keyword="l1",
        label="2 l1",
        replace=_scaled(2.0),
        where="soft thresholding at eta l1",
        catches=("optimizers.prox_sgd",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:s_adam",
        keyword="learning_rate",
        label="2 eta",
        replace=_scaled(2.0),
        where="P7 compares with AdamW at lr 0.01",
        catches=("optimizers.s_adam_reduction",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:s_adam",
        keyword="b1",
        label="default 0.9",
        replace=_constant(0.9),
        where="P7 also runs betas (0.8, 0.99)",
        catches=("optimizers.s_adam_reduction",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:s_adam",
        keyword="b2",
        label="default 0.999",
        replace=_constant(0.999),
        where="P7 also runs betas (0.8, 0.99)",
        catches=("optimizers.s_adam_reduction",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:s_adam",
        keyword="eps",
        label="default 1e-8",
        replace=_constant(1e-8),
        where="P7 passes eps = 0",
        catches=("optimizers.s_adam_reduction",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:s_adam",
        keyword="weight_decay",
        label="default 0.01",
        replace=_constant(0.01),
        where="P8 runs weight decay 0",
        catches=("optimizers.s_adam_rescaling",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:s_adam",
        keyword="k_directions",
        label="default 2",
        replace=_constant(2),
        where="P7's k = 1 branch (lambda = 2) needs k = 1",
        catches=("optimizers.s_adam_reduction",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:s_adam",
        keyword="sigma",
        label="2 sigma",
        replace=_scaled(2.0),
        where="P8 recomputes the brake from probes at sigma",
        catches=("optimizers.s_adam_rescaling",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:s_adam",
        keyword="lgi_lambda",
        label="default 2",
        replace=_constant(2.0),
        where="P7 needs lambda = 0; P8 asks 0.5 and 8",
        catches=("optimizers.s_adam_reduction", "optimizers.s_adam_rescaling"),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:s_adam",
        keyword="stabilize_eps",
        label="2 eps_s",
        replace=_scaled(2.0),
        where="P8 recomputes the brake with the same stabiliser",
        catches=("optimizers.s_adam_rescaling",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:sfw",
        keyword="radius",
        label="2 r",
        replace=_scaled(2.0),
        where="iterates must stay in the ball of radius r",
        catches=("optimizers.sfw_feasibility",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:sfw",
        keyword="step_size",
        label="default None (schedule)",
        replace=_constant(None),
        where="the check replays constant steps 0.01, 0.1, 0.5",
        catches=("optimizers.sfw_feasibility",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:sfw_vr",
        keyword="which",
        label="default 'linf'",
        replace=_constant("linf"),
        where="vr_balls runs the l2 ball",
        catches=("optimizers.vr_balls",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:sfw_vr",
        keyword="radius",
        label="2 r",
        replace=_scaled(2.0),
        where="vr_balls replays radius 2",
        catches=("optimizers.vr_balls",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:sfw_vr",
        keyword="a",
        label="default None (schedule)",
        replace=_constant(None),
        where="vr_balls asks a = 0.3",
        catches=("optimizers.vr_balls",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:sfw_vr",
        keyword="clip_tau",
        label="2 tau",
        replace=_scaled(2.0),
        where="vr_balls clips at tau 0.5",
        catches=("optimizers.vr_balls",),
    ),
    ParamEffect(
        family="preference",
        algorithm="reference.preference:dpo_loss",
        keyword="beta",
        label="2 beta",
        replace=_scaled(2.0),
        where="T3 compares with -log sigma(beta margin) at beta = 0.1",
        catches=("preference.t3_dpo",),
    ),
    ParamEffect(
        family="preference",
        algorithm="reference.preference:optimal_policy",
        keyword="loss",
        label="default 'log'",
        replace=_use_default,
        where="T8 asks the Brier regulariser too",
        catches=("preference.t8_optimal_policy",),
    ),
    ParamEffect(
        family="preference",
        algorithm="reference.preference:preference_loss",
        keyword="psi",
        label="default softplus",
        replace=_use_default,
        where="T9 asks the Savage loss sigma^2 too",
        catches=("preference.t9_fisher",),
    ),
    ParamEffect(
        family="preference",
        algorithm="reference.preference:rao_kupper_link",
        keyword="theta",
        label="default 1",
        replace=_use_default,
        where="T7 asks theta = e^0.5 and e^2",
        catches=("preference.t7_margin",),
    ),
    ParamEffect(
        family="preference",
        algorithm="reference.preference:train_tabular_policy",
        keyword="beta",
        label="default 0.1",
        replace=_use_default,
        where="A6 asks beta 0.05, 0.25 and 2",
        catches=("preference.a6_tabular_optimum",),
    ),
    ParamEffect(
        family="preference",
        algorithm="reference.preference:train_tabular_policy",
        keyword="learning_rate",
        label="default 0.01",
        replace=_use_default,
        where="A6's beta = 0.05 instance needs lr 0.1 to converge in its steps",
        catches=("preference.a6_tabular_optimum",),
    ),
    ParamEffect(
        family="preference",
        algorithm="reference.preference:train_tabular_policy",
        keyword="margin",
        label="default 0",
        replace=_use_default,
        where="A6 asks gamma = 0.4",
        catches=("preference.a6_tabular_optimum",),
    ),
    ParamEffect(
        family="stability",
        algorithm="reference.stability:pareto_moment",
        keyword="scale",
        label="default 1",
        replace=_use_default,
        where="the closed forms are checked at x_m = 1/2 too",
        catches=("stability.pareto_closed_forms",),
    ),
    ParamEffect(
        family="stability",
        algorithm="reference.stability:pareto_tail_excess",
        keyword="scale",
        label="default 1",
        replace=_use_default,
        where="the closed forms are checked at x_m = 1/2 too",
        catches=("stability.pareto_closed_forms",),
    ),
    ParamEffect(
        family="stability",
        algorithm="reference.stability:pareto_clipped_second_moment",
        keyword="scale",
        label="default 1",
        replace=_use_default,
        where="the closed forms are checked at x_m = 1/2 too",
        catches=("stability.pareto_closed_forms",),
    ),
    ParamEffect(
        family="stability",
        algorithm="reference.optimizers:clipped_sgd",
        keyword="learning_rate",
        label="2 eta",
        replace=_scaled(2.0),
        where="the coupled runs replay the recursion at eta",
        catches=("stability.clipped_sgd_coupling",),
    ),
    ParamEffect(
        family="stability",
        algorithm="reference.optimizers:clipped_sgd",
        keyword="tau",
        label="2 tau",
        replace=_scaled(2.0),
        where="gradients above tau are clipped in the coupled runs",
        catches=("stability.clipped_sgd_coupling",),
    ),
    ParamEffect(
        family="spectral",
        algorithm="reference.spectral:sosd_threshold",
        keyword="kappa",
        label="default 3",
        replace=_use_default,
        where="the check asks kappa 1.5 and 5",
        catches=("spectral.sosd_threshold",),
    ),
    ParamEffect(
        family="spectral",
        algorithm="reference.spectral:sosd_threshold",
        keyword="window",
        label="default 25",
        replace=_use_default,
        where="the check asks windows 1, 4 and 7",
        catches=("spectral.sosd_threshold",),
    ),
    ParamEffect(
        family="stability",
        algorithm="reference.optimizers:clipped_sgd",
        keyword="momentum",
        label="default 0",
        replace=_use_default,
        where="the recursion check replays momentum 0.9 and 0.5 (the coupling check's S4 bound is loose enough to pass momentum 0)",
        catches=("stability.clipped_sgd_recursion",),
    ),
    ParamEffect(
        family="stability",
        algorithm="reference.optimizers:clipped_sgd",
        keyword="clip",
        label="default 'before'",
        replace=_use_default,
        where="the recursion check replays clip='after' at momentum 0.5",
        catches=("stability.clipped_sgd_recursion",),
    ),
    _bound_effect("clipped_sgd_stability_bound", "n", "2 n", _scaled(2)),
    _bound_effect("clipped_sgd_stability_bound", "steps", "T - 1", _one_less),
    _bound_effect("clipped_sgd_stability_bound", "learning_rate", "2 eta", _scaled(2.0)),
    _bound_effect("clipped_sgd_stability_bound", "tau", "2 tau", _scaled(2.0)),
    _bound_effect("clipped_sgd_stability_bound", "smoothness", "2 L", _scaled(2.0)),
    _bound_effect("clip_average_stability_bound", "n", "2 n", _scaled(2)),
    _bound_effect("clip_average_stability_bound", "steps", "T - 1", _one_less),
    _bound_effect("clip_average_stability_bound", "learning_rate", "2 eta", _scaled(2.0)),
    _bound_effect("clip_average_stability_bound", "tau", "2 tau", _scaled(2.0)),
    _bound_effect("clip_average_stability_bound", "smoothness", "2 L", _scaled(2.0)),
    _bound_effect("clip_average_stability_bound", "batch", "b - 1", _one_less),
    _bound_effect("momentum_stability_bound", "n", "2 n", _scaled(2)),
    _bound_effect("momentum_stability_bound", "steps", "T - 1", _one_less),
    _bound_effect("momentum_stability_bound", "learning_rate", "2 eta", _scaled(2.0)),
    _bound_effect("momentum_stability_bound", "tau", "2 tau", _scaled(2.0)),
    _bound_effect("momentum_stability_bound", "smoothness", "2 L", _scaled(2.0)),
    _bound_effect("momentum_stability_bound", "beta", "beta/2", _scaled(0.5)),
    _bound_effect("normalized_sgd_stability_bound", "steps", "T - 1", _one_less),
    _bound_effect("normalized_sgd_stability_bound", "smoothness", "2 L", _scaled(2.0)),
    _bound_effect("normalized_sgd_stability_bound", "grad_lower", "2 gamma", _scaled(2.0)),
    ParamEffect(
        family="stability",
        algorithm="reference.stability:heavy_tailed_mean_bound",
        keyword="tau",
        label="default None (sigma n^(1/p))",
        replace=_use_default,
        where="bound_formulas evaluates L3 at tau = 0.7 and 2.5 as well as at the default",
        catches=("stability.bound_formulas",),
    ),
    ParamEffect(
        family="tsp",
        algorithm="reference.tsp:threshold_decode",
        keyword="with_two_opt",
        label="default False",
        replace=_use_default,
        where="two_opt_option passes True on noise heatmaps, whose decoded tours 2-opt shortens",
        catches=("tsp.two_opt_option",),
    ),
    ParamEffect(
        family="tsp",
        algorithm="reference.tsp:sweep_decode",
        keyword="with_two_opt",
        label="default False",
        replace=_use_default,
        where="two_opt_option passes True on noise heatmaps, whose decoded tours 2-opt shortens",
        catches=("tsp.two_opt_option",),
    ),
    ParamEffect(
        family="tsp",
        algorithm="reference.tsp:sampled_decode",
        keyword="with_two_opt",
        label="default False",
        replace=_use_default,
        where="two_opt_option passes True on noise heatmaps, whose decoded tours 2-opt shortens",
        catches=("tsp.two_opt_option",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:sfw",
        keyword="which",
        label="default 'linf'",
        replace=_use_default,
        where="sfw_replay runs the l2, l1 and spectral balls too",
        catches=("optimizers.sfw_replay",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:sfw",
        keyword="b1",
        label="default None (schedule)",
        replace=_use_default,
        where="sfw_replay passes constant b1 = 0.6",
        catches=("optimizers.sfw_replay",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:sfw",
        keyword="b2",
        label="default None (schedule)",
        replace=_use_default,
        where="sfw_replay passes constant b2 = 0.85 (not b1)",
        catches=("optimizers.sfw_replay",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:sfw",
        keyword="clip_tau",
        label="default inf (no clipping)",
        replace=_use_default,
        where="sfw_replay clips at 0.8 with gradient norms up to 5 tau",
        catches=("optimizers.sfw_replay",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:sfw",
        keyword="shape_scaled",
        label="default False",
        replace=_use_default,
        where="sfw_replay's 5 x 3 blocks scale the radius by (5/3)^(1/2)",
        catches=("optimizers.sfw_replay",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:sfw",
        keyword="polar",
        label="default 'exact'",
        replace=_use_default,
        where="sfw_replay runs the NS5 spectral LMO with 3 steps",
        catches=("optimizers.sfw_replay",),
    ),
    ParamEffect(
        family="optimizers",
        algorithm="reference.optimizers:sfw",
        keyword="ns_steps",
        label="default 5",
        replace=_use_default,
        where="sfw_replay runs NS5 with 3 steps, far from the polar factor",
        catches=("optimizers.sfw_replay",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:mirror_descent",
        keyword="mirror",
        label="default 'euclidean'",
        replace=_use_default,
        where="mirror_replay runs the lp and entropic maps",
        catches=("mirror_descent.mirror_replay",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:mirror_descent",
        keyword="p",
        label="default 2",
        replace=_use_default,
        where="mirror_replay runs the lp map at p = 1.3 and 1.7",
        catches=("mirror_descent.mirror_replay",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:mirror_prox",
        keyword="mirror",
        label="default 'euclidean'",
        replace=_use_default,
        where="mirror_replay runs the lp and entropic maps",
        catches=("mirror_descent.mirror_replay",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:mirror_prox",
        keyword="p",
        label="default 2",
        replace=_use_default,
        where="mirror_replay runs the lp map at p = 1.3 and 1.7",
        catches=("mirror_descent.mirror_replay",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:optimistic_mirror_descent",
        keyword="mirror",
        label="default 'euclidean'",
        replace=_use_default,
        where="mirror_replay runs the lp and entropic maps",
        catches=("mirror_descent.mirror_replay",),
    ),
    ParamEffect(
        family="mirror_descent",
        algorithm="reference.mirror_descent:optimistic_mirror_descent",
        keyword="p",
        label="default 2",
        replace=_use_default,
        where="mirror_replay runs the lp map at p = 1.3 and 1.7",
        catches=("mirror_descent.mirror_replay",),
    ),
    _kw(
        "activations",
        "activations:dwh_sign",
        "tol",
        "2 tol",
        _scaled(2.0),
        "dwh_steps counts the steps to 1 - l_K <= tol at the tol it passed",
        "activations.dwh_steps",
    ),
    _kw(
        "activations",
        "activations:fit_rational",
        "degrees",
        "default (5, 4)",
        _use_default,
        "fit_rational fits degrees (3, 2) and (4, 3) too",
        "activations.fit_rational",
    ),
    _kw(
        "activations",
        "activations:fit_rational",
        "version",
        "default 'A'",
        _use_default,
        "fit_rational fits version B too",
        "activations.fit_rational",
    ),
    _kw(
        "activations",
        "activations:fit_rational",
        "points",
        "default 2001",
        _use_default,
        "fit_rational asks 301 and 501 nodes",
        "activations.fit_rational",
    ),
    _kw(
        "activations",
        "activations:fit_rational",
        "interval",
        "default (-3, 3)",
        _use_default,
        "fit_rational asks (-1, 1) and (-2, 4)",
        "activations.fit_rational",
    ),
    _kw(
        "activations",
        "activations:fit_rational",
        "tol",
        "100 tol",
        _scaled(100.0),
        "fit_rational compares the fit's optimality with the tol it passed",
        "activations.fit_rational",
    ),
    _kw(
        "activations",
        "activations:exp_scaling_squaring",
        "q",
        "default 3",
        _use_default,
        "the check asks Pade orders 1 and 5",
        "activations.exp_scaling_squaring",
    ),
    _kw(
        "activations",
        "activations:exp_scaling_squaring",
        "s",
        "default 4",
        _use_default,
        "the check asks 0, 2 and 5 squarings",
        "activations.exp_scaling_squaring",
    ),
    _kw(
        "activations",
        "activations:minimax_poly_abs_lp",
        "grid_size",
        "2 grid_size",
        _scaled(2),
        "the Bernstein check compares the LP's value on the grid it asked for",
        "activations.bernstein",
    ),
    _kw(
        "activations",
        "activations:rational_grad",
        "version",
        "default 'A'",
        _use_default,
        "the gradient check asks version B too",
        "activations.gradients",
    ),
    _kw(
        "activations",
        "activations:pth_root",
        "alpha0",
        "alpha0/2",
        _scaled(0.5),
        "the error recursion starts from the alpha_0 passed",
        "activations.pth_root_alphas",
        "activations.pth_root_error",
        "activations.pth_root_quadratic",
    ),
    _kw(
        "activations",
        "activations:pth_root",
        "layers",
        "layers - 1",
        _one_less,
        "the error after k layers is checked for k = 0..5",
        "activations.pth_root_alphas",
        "activations.pth_root_error",
        "activations.pth_root_quadratic",
    ),
    _kw(
        "activations",
        "activations:tanh_halley",
        "layers",
        "layers - 1",
        _one_less,
        "the check compares k Halley steps with their closed form",
        "activations.tanh_halley",
    ),
    _kw(
        "activations",
        "activations:log_agm",
        "layers",
        "layers - 1",
        _one_less,
        "the AGM error is checked after each number of steps",
        "activations.log_agm",
    ),
    _kw(
        "attention_queries",
        "attention_queries:recover_noisy",
        "w_bound",
        "2 Wb",
        _scaled(2.0),
        "the error bound is in Wb: a larger Wb gives a looser probe scale",
        "attention_queries.theorem_6_1",
    ),
    _kw(
        "constrained_map",
        "constrained_map:max_out",
        "lo",
        "lo/2",
        _scaled(0.5),
        "prop_a_6 compares with the maximum over the range it passed",
        "constrained_map.prop_a_6",
    ),
    _kw(
        "constrained_map",
        "constrained_map:max_out",
        "hi",
        "hi/2",
        _scaled(0.5),
        "prop_a_6 compares with the maximum over the range it passed",
        "constrained_map.prop_a_6",
    ),
    _kw(
        "games",
        "games:rm_plus",
        "max_iter",
        "max_iter / 2",
        lambda old: max(1, old // 2),
        "averaging_rules passes tol = 1e-300 and run lengths 37..175",
        "games.averaging_rules",
    ),
    _kw(
        "games",
        "games:hybrid",
        "tol",
        "2 tol",
        _scaled(2.0),
        "hybrid_global checks the gap against the tol it passed",
        "games.hybrid_global",
    ),
    _kw(
        "games",
        "games:ssn",
        "tol",
        "default 1e-10",
        _use_default,
        "ssn_quadratic passes tol = 1e-300 to watch the quadratic phase",
        "games.ssn_quadratic",
    ),
    _kw(
        "games",
        "games:prm_plus_trajectory",
        "iterations",
        "T - 1",
        _one_less,
        "regret_facts reads T iterates",
        "games.regret_facts",
    ),
    _kw(
        "games",
        "games:rm_plus_trajectory",
        "iterations",
        "T - 1",
        _one_less,
        "regret_facts reads T iterates",
        "games.regret_facts",
    ),
    _kw(
        "inconsistency",
        "inconsistency:inconsistency_ascent",
        "rho",
        "2 rho",
        _scaled(2.0),
        "S-hat scales with rho^2",
        "inconsistency.power_iteration",
        "inconsistency.top_eigenvalue",
    ),
    _kw(
        "inconsistency",
        "inconsistency:inconsistency_ascent",
        "steps",
        "default 1",
        _use_default,
        "top_eigenvalue needs the 30 ascent steps it passed to reach the top eigenvector",
        "inconsistency.top_eigenvalue",
    ),
    _kw(
        "inconsistency",
        "inconsistency:local_inconsistency",
        "rho",
        "2 rho",
        _scaled(2.0),
        "S-hat scales with rho^2",
        "inconsistency.local_inconsistency",
    ),
    _kw(
        "inconsistency",
        "inconsistency:iam_d_objective",
        "beta",
        "2 beta",
        _scaled(2.0),
        "M1 replays the objective at beta 0.3 and 2.5",
        "inconsistency.iam_d_step",
    ),
    _kw(
        "inconsistency",
        "inconsistency:iam_d",
        "buffer",
        "None (zeros)",
        _constant(None),
        "iam_d_step passes a nonzero momentum buffer",
        "inconsistency.iam_d_step",
    ),
    _kw(
        "inconsistency",
        "inconsistency:iam_d",
        "optimizer",
        "default SGDConfig()",
        lambda _old: _default_sgd_config(),
        "iam_d_step passes momentum 0.9, learning rate 0.07 and weight decay",
        "inconsistency.iam_d_step",
    ),
    _kw(
        "inconsistency",
        "inconsistency:sgd_step",
        "buffer",
        "None (zeros)",
        _constant(None),
        "iam_d_step passes a nonzero momentum buffer",
        "inconsistency.iam_d_step",
    ),
    _kw(
        "inconsistency",
        "inconsistency:sgd_step",
        "config",
        "default SGDConfig()",
        lambda _old: _default_sgd_config(),
        "iam_d_step passes momentum 0.9, learning rate 0.07 and weight decay",
        "inconsistency.iam_d_step",
    ),
    _kw(
        "inconsistency",
        "inconsistency:iam_s",
        "buffer",
        "None (zeros)",
        _constant(None),
        "iam_s_step passes a nonzero momentum buffer",
        "inconsistency.iam_s_step",
    ),
    _kw(
        "inconsistency",
        "inconsistency:iam_s",
        "optimizer",
        "default SGDConfig()",
        lambda _old: _default_sgd_config(),
        "iam_s_step passes its own SGD settings",
        "inconsistency.iam_s_step",
    ),
    _kw(
        "inconsistency",
        "inconsistency:iam_de",
        "delta",
        "None (first step)",
        _constant(None),
        "iam_de_chain carries the state delta from step to step",
        "inconsistency.iam_de_chain",
    ),
    _kw(
        "inconsistency",
        "inconsistency:sam_perturbation",
        "rho",
        "2 rho",
        _scaled(2.0),
        "the first-order check compares with rho g / ||g||",
        "inconsistency.sam_first_order",
    ),
    _kw(
        "inconsistency",
        "inconsistency:sam_perturbation",
        "adaptive",
        "flipped",
        lambda old: not old,
        "the check asks SAM, whose perturbation differs from ASAM's",
        "inconsistency.sam_first_order",
    ),
    _kw(
        "invariance",
        "invariance:make_instance",
        "sigma_eta",
        "2 sigma_eta",
        _scaled(2.0),
        "gamma_zero and below_threshold use the spurious noise sd they passed",
        "invariance.gamma_zero",
        "invariance.below_threshold",
    ),
    _kw(
        "inverse_optimization",
        "inverse_optimization:OnlineLearner",
        "point",
        "default 'centroid'",
        _use_default,
        "theorem_3_1 runs the topological point",
        "inverse_optimization.theorem_3_1",
    ),
    _kw(
        "inverse_optimization",
        "inverse_optimization:OnlineLearner",
        "dim",
        "d - 1",
        _one_less,
        "d_log_d's learner must play in Z^d",
        "inverse_optimization.d_log_d",
    ),
    _kw(
        "mirror_descent",
        "mirror_descent:accelerated_mirror_descent",
        "max_iter",
        "T - 1",
        _one_less,
        "the closed form is at T",
        "mirror_descent.quadratic_closed_forms",
    ),
    _kw(
        "mirror_descent",
        "mirror_descent:composite_mirror_descent",
        "step_size",
        "eta/2",
        _scaled(0.5),
        "composite_rate's bound D/(eta T) is nearly attained at the eta passed",
        "mirror_descent.composite_rate",
    ),
    _kw(
        "mirror_descent",
        "mirror_descent:effective_constants",
        "accelerated",
        "flipped",
        lambda old: not old,
        "sympy_identities asks L = l(2G) and l(4G)",
        "mirror_descent.sympy_identities",
    ),
    _kw(
        "qp_layers",
        "qp_layers:ghost_pgd",
        "max_iter",
        "max_iter / 2",
        lambda old: max(1, old // 2),
        "the rate and contraction checks read K steps",
        "qp_layers.pgd_rate",
        "qp_layers.pgd_contraction",
    ),
    _kw(
        "activations",
        "activations:gelu_composite",
        "q",
        "q + 1",
        lambda old: old + 1,
        "the composite's error is compared with its bound at each (q, k) asked",
        "activations.gelu_composite",
    ),
    _kw(
        "activations",
        "activations:gelu_composite",
        "squarings",
        "k + 1",
        lambda old: old + 1,
        "the composite's error is compared with its bound at each (q, k) asked",
        "activations.gelu_composite",
    ),
    _kw(
        "mirror_descent",
        "mirror_descent:composite_mirror_descent",
        "regularizer",
        "2 x weight",
        lambda old: dataclasses.replace(old, weight=2.0 * old.weight),
        "composite_rate measures F = f + h with the h it passed",
        "mirror_descent.composite_rate",
    ),
    _kw(
        "mirror_descent",
        "mirror_descent:mirror_prox",
        "max_iter",
        "T - 1",
        _one_less,
        "the closed form is at T",
        "mirror_descent.quadratic_closed_forms",
    ),
    _kw(
        "mirror_descent",
        "mirror_descent:stochastic_mirror_descent",
        "max_iter",
        "T - 1",
        _one_less,
        "stochastic_rate's runs are read at T",
        "mirror_descent.stochastic_rate",
    ),
    _kw(
        "mirror_descent",
        "mirror_descent:stochastic_mirror_descent",
        "sigma0",
        "default 0",
        _use_default,
        "stochastic_rate asks sigma0 = 0.2 and 0.5",
        "mirror_descent.stochastic_rate",
    ),
    _kw(
        "mirror_descent",
        "mirror_descent:stochastic_mirror_descent",
        "sigma1",
        "default 0",
        _use_default,
        "stochastic_rate asks sigma1 = 0.5",
        "mirror_descent.stochastic_rate",
    ),
    _kw(
        "optimizers",
        "optimizers:damping",
        "lgi_lambda",
        "2 lambda",
        _scaled(2.0),
        "the damping check compares with 1/(1 + lambda LGI) at lambda 0.3 and 2",
        "optimizers.damping",
    ),
    _kw(
        "optimizers",
        "optimizers:lmo",
        "radius",
        "2 r",
        _scaled(2.0),
        "lmo_optimality checks <d, v> = -r ||d||_* on radii 0.5, 1 and 4",
        "optimizers.lmo_optimality",
    ),
    _kw(
        "optimizers",
        "optimizers:lmo",
        "which",
        "another ball (l2, or linf for l2)",
        lambda old: "linf" if old == "l2" else "l2",
        "lmo_optimality checks each ball's dual-norm value",
        "optimizers.lmo_optimality",
    ),
    _kw(
        "perturbation",
        "perturbation:asymp_gda",
        "mu",
        "2 mu",
        _scaled(2.0),
        "step_recursion replays every step, which depends on mu",
        "perturbation.step_recursion",
    ),
    _kw(
        "perturbation",
        "perturbation:asymp_gda",
        "max_iter",
        "max_iter / 2",
        lambda old: max(1, old // 2),
        "step_recursion replays the run's length",
        "perturbation.step_recursion",
    ),
    _kw(
        "perturbation",
        "perturbation:asymp_gda_side",
        "max_iter",
        "max_iter / 2",
        lambda old: max(1, old // 2),
        "step_recursion replays the run's length",
        "perturbation.step_recursion",
    ),
    _kw(
        "preference",
        "preference:optimal_policy",
        "beta",
        "2 beta",
        _scaled(2.0),
        "T8 compares with pi_ref exp(r / beta) normalised",
        "preference.t8_optimal_policy",
    ),
    _kw(
        "stability",
        "stability:pareto_vectors",
        "tail",
        "a/2",
        _scaled(0.5),
        "heavy_tailed_mean's moment sigma^p is the one of tail a",
        "stability.heavy_tailed_mean",
    ),
    _kw(
        "stability",
        "stability:coupled_runs",
        "steps",
        "2 T",
        _scaled(2),
        "the S5 bound is evaluated at the T passed",
        "stability.normalized_sgd_coupling",
    ),
    _kw(
        "stability",
        "stability:coupled_runs",
        "runs",
        "R - 1",
        _one_less,
        "the coupling check averages the R runs it asked for",
        "stability.normalized_sgd_coupling",
    ),
    _kw(
        "games",
        "games:drs",
        "max_iter",
        "T - 1",
        _one_less,
        "drs_replay replays 9 steps",
        "games.drs_replay",
    ),
    _kw(
        "games",
        "games:drs",
        "u0",
        "default None (L(uniform))",
        _use_default,
        "drs_replay starts from a given lifted point",
        "games.drs_replay",
    ),
    _kw(
        "games",
        "games:drs",
        "step_size",
        "default None (1/||A||)",
        _use_default,
        "drs_replay passes step_size = 0.37/||A||",
        "games.drs_replay",
    ),
    _kw(
        "games",
        "games:drs",
        "tol_res",
        "default None (1e-14 scale)",
        _use_default,
        "drs_replay stops one run at a residual floor of ||R(u_5)||",
        "games.drs_replay",
    ),
    _kw(
        "games",
        "games:drs",
        "tol",
        "default 1e-10",
        _use_default,
        "drs_replay stops one run on the gap at step 6",
        "games.drs_replay",
    ),
    _kw(
        "mirror_descent",
        "mirror_descent:composite_mirror_descent",
        "max_iter",
        "T - 1",
        _one_less,
        "composite_replay replays 7 steps",
        "mirror_descent.composite_replay",
    ),
    _kw(
        "mirror_descent",
        "mirror_descent:composite_mirror_descent",
        "mirror",
        "'euclidean' for 'lp'",
        lambda old: "euclidean" if old == "lp" else old,
        "composite_replay runs the lp map (h = 0)",
        "mirror_descent.composite_replay",
    ),
    _kw(
        "mirror_descent",
        "mirror_descent:composite_mirror_descent",
        "p",
        "default 2",
        _use_default,
        "composite_replay runs the lp map at p = 1.5",
        "mirror_descent.composite_replay",
    ),
    _kw(
        "optimizers",
        "optimizers:sfw_vr",
        "step_size",
        "default None (schedule)",
        _use_default,
        "sfw_vr_replay passes gamma = 0.3",
        "optimizers.sfw_vr_replay",
    ),
    _kw(
        "optimizers",
        "optimizers:sfw_vr",
        "clip",
        "default 'per_gradient'",
        _use_default,
        "sfw_vr_replay runs the estimator placement too",
        "optimizers.sfw_vr_replay",
    ),
    _kw(
        "optimizers",
        "optimizers:sfw_vr",
        "shape_scaled",
        "default False",
        _use_default,
        "sfw_vr_replay's 5 x 3 blocks scale the radius by (5/3)^(1/2)",
        "optimizers.sfw_vr_replay",
    ),
    _kw(
        "optimizers",
        "optimizers:sfw_vr",
        "polar",
        "default 'exact'",
        _use_default,
        "sfw_vr_replay runs the NS5 spectral LMO with 3 steps",
        "optimizers.sfw_vr_replay",
    ),
    _kw(
        "optimizers",
        "optimizers:sfw_vr",
        "ns_steps",
        "default 5",
        _use_default,
        "sfw_vr_replay runs NS5 with 3 steps",
        "optimizers.sfw_vr_replay",
    ),
    _kw(
        "preference",
        "preference:dpo_loss",
        "psi",
        "default softplus",
        _use_default,
        "dpo_family runs the Savage loss sigma^2 too",
        "preference.dpo_family",
    ),
    _kw(
        "preference",
        "preference:dpo_loss",
        "margin",
        "default 0",
        _use_default,
        "dpo_family passes gamma = 0.3 and 1.1",
        "preference.dpo_family",
    ),
    _kw(
        "preference",
        "preference:dpo_loss",
        "length_w",
        "every length 1",
        lambda old: [1] * len(old),
        "dpo_family passes lengths 5..60 with alpha_len > 0",
        "preference.dpo_family",
    ),
    _kw(
        "preference",
        "preference:dpo_loss",
        "length_l",
        "every length 1",
        lambda old: [1] * len(old),
        "dpo_family passes lengths 5..60 with alpha_len > 0",
        "preference.dpo_family",
    ),
    _kw(
        "preference",
        "preference:dpo_loss",
        "length_coef",
        "default 0",
        _use_default,
        "dpo_family passes alpha_len = 0.02 and 0.05",
        "preference.dpo_family",
    ),
    _kw(
        "preference",
        "preference:preference_loss",
        "margin",
        "default 0",
        _use_default,
        "dpo_family passes gamma = 0.3 and 1.1",
        "preference.dpo_family",
    ),
    _kw(
        "spectral",
        "spectral:normalized_spectrum",
        "normalization",
        "default 'trace'",
        _use_default,
        "distribution_formulas asks the energy normalisation too",
        "spectral.distribution_formulas",
    ),
    _kw(
        "tsp",
        "tsp:sampled_decode",
        "k",
        "k - 1",
        _one_less,
        "sampled_replay compares with the best of the k draws from the same seed",
        "tsp.sampled_replay",
    ),
    _kw(
        "tsp",
        "tsp:sampled_decode",
        "rng",
        "a fixed generator (seed 0)",
        lambda _old: _seeded_generator(),
        "sampled_replay replays the draws of the generator it passed",
        "tsp.sampled_replay",
    ),
    _kw(
        "optimizers",
        "optimizers:lion_vr",
        "clip",
        "default 'per_gradient'",
        _use_default,
        "vr_variants_replay runs the estimator placement too",
        "optimizers.vr_variants_replay",
    ),
    _kw(
        "optimizers",
        "optimizers:muon_vr",
        "clip",
        "default 'per_gradient'",
        _use_default,
        "vr_variants_replay runs the estimator placement too",
        "optimizers.vr_variants_replay",
    ),
    _kw(
        "optimizers",
        "optimizers:muon_vr",
        "ns_steps",
        "default 5",
        _use_default,
        "vr_variants_replay runs NS5 with 3 steps",
        "optimizers.vr_variants_replay",
    ),
)


def _rows(reason: str, algorithm: str, *keywords: str) -> tuple[tuple[str, str, str], ...]:
    """One table row per keyword of ``algorithm``, all with ``reason``."""
    return tuple((algorithm, keyword, reason) for keyword in keywords)


#: A random source: another generator is another equally valid run.
_RANDOM_SOURCE = (
    "the random source: a run from another generator is an equally correct run, and every "
    "claim the checks make holds for each draw (none compares a draw with a fixed stream)"
)

#: Documented keywords that do not change the result on the checks' instances: (algorithm,
#: keyword, reason).
NEUTRAL: tuple[tuple[str, str, str], ...] = (
    (
        "reference.games:prm_plus",
        "tol",
        "the checks pass tol = 1e-300 so the run length is max_iter; tol only stops a run",
    ),
    (
        "reference.mirror_descent:mirror_descent",
        "lipschitz",
        "only warns (or raises with strict) when eta > 1/L; the iterates do not depend on it",
    ),
    (
        "reference.mirror_descent:mirror_descent",
        "strict",
        "raise instead of warn on eta > 1/L: no check passes eta > 1/L",
    ),
    (
        "reference.mirror_descent:accelerated_mirror_descent",
        "tol",
        "tol = 0 (the default) never stops; a positive tol only stops a converged run",
    ),
    (
        "reference.divergence:estimate_alpha_divergence",
        "num_features",
        "documented as ignored when features are given; s3 passes its features",
    ),
    (
        "reference.divergence:estimate_alpha_divergence",
        "allow_nonconcave",
        "documented: must stay False, True raises NotImplementedError (a documented error)",
    ),
    (
        "reference.divergence:alpha_divergence_gaussian",
        "allow_nonconcave",
        "only widens the accepted alpha range; for alpha in (0, 1), all the checks ask, the "
        "value is the same closed form",
    ),
    (
        "reference.optimizers:muon",
        "ns_steps",
        "used only by NS5; muon_sfw passes exact_polar=True (the polar factor, no iteration)",
    ),
    (
        "reference.optimizers:muon",
        "coefficients",
        "used only by NS5; muon_sfw passes exact_polar=True",
    ),
    (
        "reference.optimizers:muon",
        "ns_eps",
        "used only by NS5; muon_sfw passes exact_polar=True",
    ),
    (
        "reference.preference:train_tabular_policy",
        "steps",
        "A6's instances converge: a step more or fewer (or the default 2000) ends at the same "
        "minimiser, which is what the check claims",
    ),
    *_rows(
        _RANDOM_SOURCE,
        "reference.attention_queries:recover_exact",
        "rng",
    ),
    *_rows(_RANDOM_SOURCE, "reference.attention_queries:recover_low_rank", "rng"),
    *_rows(_RANDOM_SOURCE, "reference.constrained_map:agnostic_map", "rng"),
    *_rows(_RANDOM_SOURCE, "reference.constrained_map:pa_map", "rng"),
    *_rows(_RANDOM_SOURCE, "reference.divergence:estimate_alpha_divergence", "rng"),
    *_rows(_RANDOM_SOURCE, "reference.divergence:make_rff", "rng"),
    *_rows(_RANDOM_SOURCE, "reference.divergence:armijo_ascent", "rng"),
    *_rows(_RANDOM_SOURCE, "reference.hierarchical:make_xor_tree", "rng"),
    *_rows(_RANDOM_SOURCE, "reference.hierarchical:make_random_circuit", "rng"),
    *_rows(_RANDOM_SOURCE, "reference.hierarchical:train_flat", "rng"),
    *_rows(_RANDOM_SOURCE, "reference.hierarchical:train_layerwise", "rng"),
    *_rows(_RANDOM_SOURCE, "reference.inconsistency:iam_d", "rng"),
    *_rows(_RANDOM_SOURCE, "reference.inconsistency:iam_de", "rng"),
    *_rows(_RANDOM_SOURCE, "reference.inconsistency:iam_s", "rng"),
    *_rows(_RANDOM_SOURCE, "reference.inconsistency:local_inconsistency", "rng"),
    *_rows(_RANDOM_SOURCE, "reference.invariance:make_instance", "rng"),
    *_rows(_RANDOM_SOURCE, "reference.inverse_optimization:theorem_6_1_instance", "rng"),
    *_rows(_RANDOM_SOURCE, "reference.inverse_optimization:random_family", "rng"),
    *_rows(_RANDOM_SOURCE, "reference.mirror_descent:stochastic_mirror_descent", "rng"),
    *_rows(_RANDOM_SOURCE, "reference.optimizers:lgi", "rng"),
    *_rows(_RANDOM_SOURCE, "reference.stability:pareto_vectors", "rng"),
    *_rows(_RANDOM_SOURCE, "reference.stability:coupled_runs", "rng"),
    *_rows(
        "tol = 0 (the default, all the checks pass it) never stops the run",
        "reference.mirror_descent:mirror_descent",
        "tol",
    ),
    *_rows(
        "tol = 0 (the default, all the checks pass it) never stops the run",
        "reference.mirror_descent:composite_mirror_descent",
        "tol",
    ),
    *_rows(
        "tol = 0 (the default, all the checks pass it) never stops the run",
        "reference.mirror_descent:mirror_prox",
        "tol",
    ),
    *_rows(
        "tol = 0 (the default, all the checks pass it) never stops the run",
        "reference.mirror_descent:optimistic_mirror_descent",
        "tol",
    ),
    *_rows(
        "only warns (or raises with strict) when the step exceeds its limit in L; the iterates "
        "do not depend on it",
        "reference.mirror_descent:composite_mirror_descent",
        "lipschitz",
        "strict",
    ),
    *_rows(
        "only warns (or raises with strict) when the step exceeds its limit in L; the iterates "
        "do not depend on it",
        "reference.mirror_descent:mirror_prox",
        "lipschitz",
        "strict",
    ),
    *_rows(
        "only warns (or raises with strict) when the step exceeds its limit in L; the iterates "
        "do not depend on it",
        "reference.mirror_descent:optimistic_mirror_descent",
        "lipschitz",
        "strict",
    ),
    *_rows(
        "raise instead of warn when the step exceeds 1/(2L): the iterates do not depend on it",
        "reference.mirror_descent:stochastic_mirror_descent",
        "strict",
    ),
    *_rows(
        "the checks pass tol = 1e-300 (never met): the run length is max_iter",
        "reference.games:rm_plus",
        "tol",
    ),
    *_rows(
        "ffo_grads solves the QP itself when solution is None: passing the solution only saves "
        "that solve, the gradients are the same",
        "reference.qp_layers:ffo_grads",
        "solution",
    ),
    *_rows(
        "kkt_grads solves the QP itself when solution is None: passing the solution only saves "
        "that solve, the gradients are the same",
        "reference.qp_layers:kkt_grads",
        "solution",
    ),
    *_rows(
        "penalty_grads solves the QP itself when solution is None: passing the solution only "
        "saves that solve, the gradients are the same",
        "reference.qp_layers:penalty_grads",
        "solution",
    ),
    *_rows(
        "keeps every iterate in history; the returned point does not depend on it",
        "reference.qp_layers:ghost_pgd",
        "record",
    ),
    *_rows(
        "only widens the accepted margins to gamma < 0; the checks pass gamma >= 0, where the "
        "loss is the same",
        "reference.preference:preference_loss",
        "allow_negative_margin",
    ),
    *_rows(
        "read from oracle.d when absent; the checks' oracles carry d, so passing it or not "
        "gives the same width",
        "reference.attention_queries:recover_exact",
        "d",
    ),
    *_rows(
        "read from oracle.d when absent; the checks' oracles carry d",
        "reference.attention_queries:recover_low_rank",
        "d",
    ),
    *_rows(
        "read from oracle.d when absent; the checks' oracles carry d",
        "reference.attention_queries:recover_noisy",
        "d",
    ),
    *_rows(
        "shift is ASAM's; sam_first_order runs SAM (adaptive=False), where it is unused",
        "reference.inconsistency:sam_perturbation",
        "shift",
    ),
    *_rows(
        "used by point='gibbs' only; the checks run the centroid and topological points",
        "reference.inverse_optimization:OnlineLearner",
        "sweeps",
        "burn_in",
    ),
    *_rows(
        "used by point='gibbs' only; the checks run the centroid point",
        "reference.inverse_optimization:RobustLearner",
        "sweeps",
        "burn_in",
    ),
    *_rows(
        "the lp map's exponent; the checks run the Euclidean and entropic maps, where it is "
        "unused (mirror_replay runs lp for the three methods it replays)",
        "reference.mirror_descent:accelerated_mirror_descent",
        "p",
    ),
    *_rows(
        "the lp map's exponent; stochastic_rate runs the Euclidean map, where it is unused",
        "reference.mirror_descent:stochastic_mirror_descent",
        "p",
    ),
)


#: Reasons shared by the keywords of algorithms no theorem check runs, by their kind in
#: ``UNCOVERED`` of ``properties/catalogue/<family>.py``: no check calls them, so none can notice a keyword ignored.
_BASELINE = (
    "a baseline the papers prove nothing about: no theorem check runs it (its suites check "
    "the output's validity, which holds for any value)"
)
_GENERATOR = (
    "a generator: the checks use its output as data and no theorem check runs it; every value "
    "gives a valid instance"
)
_INNER = (
    "an inner step: exercised (not substituted) inside its algorithm's checks, which pass its "
    "keywords themselves"
)
_ORACLE = (
    "an exact or brute-force oracle the checks themselves use; no theorem check substitutes it"
)
_FAST_PATH = (
    "a torch twin of a reference: the fast-vs-reference tests run it with the reference's "
    "keywords; no theorem check runs it"
)
_UTILITY = (
    "a utility with no theorem of its own (a norm, schedule, metric or evaluation): its "
    "definition is tested by the reference tests, no theorem check runs it"
)


#: Documented keywords whose effect no check exercises yet (honest gaps): (algorithm, keyword,
#: why no check notices it ignored).
UNCHECKED: tuple[tuple[str, str, str], ...] = (
    (
        "reference.games:prm_plus",
        "alternating",
        "the checks run simultaneous updates only; alternating PRM+ has the same limit and rate "
        "class, and no check replays the per-step order",
    ),
    (
        "reference.games:rm_plus",
        "alternating",
        "averaging_rules passes simultaneous updates only; no check replays the per-step order",
    ),
    (
        "reference.games:hybrid",
        "mode",
        "hybrid_global runs PSSN and HPSSN and checks the limit, which both modes reach",
    ),
    (
        "reference.games:hybrid",
        "config",
        "the checks pass the default HybridConfig; its fields change the path, not the limit "
        "that hybrid_global checks",
    ),
    (
        "reference.games:ssn",
        "config",
        "the checks pass the default SSNConfig; its fields change the path, not the fixed point "
        "and quadratic rate the checks measure",
    ),
    (
        "reference.perturbation:asymp_gda_side",
        "stop",
        "the checks pass tol = 1e-300 or read the whole trajectory: the stopping rule never "
        "fires, so which gap it measures cannot show",
    ),
    (
        "reference.constrained_map:pa_map",
        "config",
        "the checks pass the default PaMapConfig; its fields (cell budget, solver tolerances) "
        "do not move the exact MAP the checks compare with",
    ),
    (
        "reference.constrained_map:agnostic_map",
        "starts",
        "agnostic_unsafe checks that every returned point is feasible, which holds for any "
        "number of starts",
    ),
    (
        "reference.perturbation:parameter_free",
        "mu_init",
        "algorithm_1 checks the returned pair's NashConv against tol, reached from any mu_init",
    ),
    (
        "reference.perturbation:parameter_free",
        "check_every",
        "algorithm_1 checks the returned pair's NashConv against tol, reached for any check period",
    ),
    (
        "reference.perturbation:parameter_free",
        "patience",
        "algorithm_1 checks the returned pair's NashConv against tol, reached with or without "
        "the stall window",
    ),
    (
        "reference.qp_layers:penalty_grads",
        "penalty",
        "penalty_rate and penalty_condition fit slopes in log(penalty): a uniformly rescaled "
        "penalty keeps both slopes; no check compares one penalty's error with its value",
    ),
    (
        "reference.divergence:armijo_ascent",
        "config",
        "v3 and v5 pass the default ArmijoConfig; its line-search constants change the path, "
        "not the maximiser and linear rate the checks measure",
    ),
    (
        "reference.optimizers.polar:newton_schulz",
        "coefficients",
        "the spectral identity is written for the default quintic; no check passes other "
        "coefficients",
    ),
    (
        "reference.optimizers:lgi",
        "direction_mode",
        "the theorem checks use one block, where per_block and global directions coincide; the "
        "optimizers.lgi suite's matches_estimator separates them (variants per_block, global)",
    ),
    (
        "reference.optimizers:lgi_details",
        "direction_mode",
        "lgi_range uses one block, where per_block and global directions coincide; the "
        "optimizers.lgi suite's matches_estimator separates them (variants per_block, global)",
    ),
    (
        "reference.optimizers:lion",
        "clip_tau",
        "lion_sfw compares with SFW without clipping (E1 holds at clip_tau = inf only)",
    ),
    (
        "reference.optimizers:muon",
        "clip_tau",
        "muon_sfw compares with SFW without clipping (E2 holds at clip_tau = inf only)",
    ),
    (
        "reference.optimizers:muon",
        "flatten",
        "muon_sfw passes 2-D blocks, where flatten changes nothing",
    ),
    (
        "reference.optimizers:s_adam",
        "lgi_cap",
        "the checks' LGI values stay below the default cap, so the cap is never applied",
    ),
    (
        "reference.optimizers:s_adam",
        "variant",
        "the reduction (lambda = 0) and rescaling checks hold for both variants",
    ),
    (
        "reference.optimizers:s_adam",
        "direction_mode",
        "the checks use one block, where per_block and global directions coincide",
    ),
    (
        "reference.optimizers:s_adam",
        "ddof",
        "the reduction (lambda = 0) and rescaling checks hold for both ddof",
    ),
    (
        "reference.preference:embed_psi",
        "closed",
        "T4 checks the embedding identity, which the open and closed losses both satisfy",
    ),
    (
        "reference.preference:embed_psi",
        "z_range",
        "a bracket for the numeric inverse: any bracket holding the root gives the same value",
    ),
    (
        "reference.preference:representable",
        "tol",
        "T5's generated matrices are representable exactly; the tolerance only decides "
        "borderline inputs, which T5 does not draw",
    ),
    (
        "reference.preference:train_tabular_policy",
        "psi",
        "A6 runs the default (logistic) psi only",
    ),
    (
        "reference.optimizers:clipped_sgd",
        "placement",
        "the default 'average' rejects per-sample gradients (a documented ValueError): the "
        "keyword mutant raises instead of failing by a measured violation; the hand-written "
        "mutant 'clipped_sgd: clip of the mean' fails stability.clipped_sgd_recursion instead",
    ),
    (
        "reference.stability:coupled_runs",
        "batch",
        "the coupling checks run b = 1 for S1 and S4 and read the batch they passed for S3; the "
        "bound holds for any batch",
    ),
    (
        "reference.stability:coupled_runs",
        "sampling",
        "the coupling bounds hold for every sampling scheme; no check replays the indices",
    ),
    (
        "reference.stability:coupled_runs",
        "loss",
        "S1's bound is loss-free (it needs L-smooth losses only), so a run on the other loss "
        "passes it",
    ),
    (
        "reference.stability:pareto_vectors",
        "scale",
        "heavy_tailed_mean passes the default scale; the L3 bound holds at any scale",
    ),
    (
        "reference.spectral:spectrum_variation",
        "pad",
        "the checks compare equal shapes, where padding does nothing; on unequal shapes "
        "pad=False raises the documented ValueError, not a measured violation",
    ),
    (
        "reference.invariance:exhaustive_search_k1",
        "lam",
        "e3_vs_e2 compares two searches at the same lam; both ignoring it agree",
    ),
    (
        "reference.invariance:make_instance",
        "kind",
        "the checks build instances with the generator; a different kind is still a valid "
        "instance, on which the rates hold",
    ),
    (
        "reference.invariance:make_instance",
        "rotate",
        "the checks' claims are rotation-invariant: a rotated or unrotated instance passes",
    ),
    *_rows(_GENERATOR, "reference.activations:rational_init", "target", "degrees", "version"),
    *_rows(_GENERATOR, "reference.constrained_map:random_3sat_problem", "n_bool", "n_clauses"),
    *_rows(
        _GENERATOR,
        "reference.constrained_map:random_tree_problem",
        "n_vars",
        "shape",
        "continuous",
        "pairwise",
    ),
    *_rows(
        _GENERATOR,
        "reference.constrained_map:trajectory_problem",
        "steps",
        "obstacles",
        "kind",
        "smoothness",
    ),
    *_rows(_GENERATOR, "reference.inconsistency:init_params", "rng", "scale"),
    *_rows(_GENERATOR, "reference.inverse_optimization:uniform_matroid", "ground"),
    *_rows(_GENERATOR, "reference.perturbation:dirichlet_starts", "trials", "rng"),
    *_rows(_GENERATOR, "reference.stability:student_t", "nu", "rng"),
    *_rows(_GENERATOR, "reference.stability:symmetric_pareto", "tail", "scale", "rng"),
    *_rows(_GENERATOR, "reference.tsp:soft_dist", "temperature"),
    *_rows(_INNER, "reference.attention_queries:nuclear_norm_admm", "max_iter", "tol"),
    *_rows(_INNER, "reference.extensive:dilated_prox", "kappa"),
    *_rows(_INNER, "reference.mirror_descent:composite_prox_step", "regularizer", "mirror", "p"),
    *_rows(_INNER, "reference.mirror_descent:prox_step", "mirror", "p"),
    *_rows(_BASELINE, "reference.attention_queries:nuclear_norm_fista", "max_iter", "tol"),
    *_rows(
        _BASELINE,
        "reference.attention_queries:passive_fit",
        "rng",
        "d",
        "max_len",
        "max_iter",
        "tol",
    ),
    *_rows(_BASELINE, "reference.constrained_map:agnostic_repair_map", "rng", "starts"),
    *_rows(_BASELINE, "reference.constrained_map:penalty_map", "rng", "starts", "rhos"),
    *_rows(_BASELINE, "reference.constrained_map:sample_filter_map", "rng", "samples"),
    *_rows(_BASELINE, "reference.divergence:knn_alpha_divergence", "k"),
    *_rows(
        _BASELINE,
        "reference.divergence.fast_torch:neural_critic_estimate",
        "generator",
        "hidden",
        "iterations",
        "batch_size",
        "learning_rate",
    ),
    *_rows(_BASELINE, "reference.extensive:cfr", "iterations"),
    *_rows(_BASELINE, "reference.extensive:cfr_plus", "iterations"),
    *_rows(_BASELINE, "reference.extensive:dgda", "step_size", "max_iter", "tol"),
    *_rows(_BASELINE, "reference.extensive:dmwu", "step_size", "max_iter", "tol", "optimistic"),
    *_rows(_BASELINE, "reference.extensive:dogda", "step_size", "max_iter", "tol"),
    *_rows(_BASELINE, "reference.extensive:symp_dgda", "mu", "step_size", "max_iter", "tol", "variant"),
    *_rows(
        _BASELINE,
        "reference.hierarchical.fast_torch:train_end_to_end",
        "rng",
        "config",
        "device",
        "dtype",
    ),
    *_rows(_BASELINE, "reference.inconsistency:asam", "config", "optimizer", "buffer"),
    *_rows(_BASELINE, "reference.inconsistency:sam", "config", "optimizer", "buffer"),
    *_rows(
        _BASELINE,
        "reference.inverse_optimization:OnlineGradientDescent",
        "dim",
        "diameter",
        "horizon",
    ),
    *_rows(
        _BASELINE, "reference.inverse_optimization:CuttingPlane", "dim", "rng", "points_per_dim"
    ),
    *_rows(_BASELINE, "reference.inverse_optimization:FirstElement", "dim"),
    *_rows(
        _BASELINE, "reference.optimizers:adamw", "learning_rate", "b1", "b2", "eps", "weight_decay"
    ),
    *_rows(_BASELINE, "reference.optimizers:normalized_sgd", "learning_rate", "momentum"),
    *_rows(
        _BASELINE, "reference.perturbation:ogda", "step_size", "max_iter", "tol", "x0", "y0", "variant"
    ),
    *_rows(_BASELINE, "reference.perturbation:omwu", "step_size", "max_iter", "tol", "x0", "y0"),
    *_rows(
        _BASELINE,
        "reference.perturbation:symp_gda",
        "mu",
        "step_size",
        "max_iter",
        "tol",
        "x0",
        "y0",
        "stop",
    ),
    *_rows(_BASELINE, "reference.perturbation:gda", "step_size", "max_iter", "tol", "x0", "y0"),
    *_rows(_BASELINE, "reference.ski_rental:prediction_plugin_rule", "statistic"),
    *_rows(_BASELINE, "reference.tsp:two_opt", "max_iter", "min_improvement"),
    *_rows(_BASELINE, "reference.tsp:mcts_decode", "rng", "config"),
    *_rows(_ORACLE, "reference.constrained_map:grid_map", "points", "refine"),
    *_rows(_ORACLE, "reference.optimizers.polar:polar", "rtol"),
    *_rows(_ORACLE, "reference.qp_layers:solve_qp_active_set", "G", "h", "A", "b"),
    *_rows(
        _FAST_PATH,
        "reference.divergence.fast_torch:estimate_alpha_divergence",
        "features",
        "rng",
        "config",
        "device",
        "dtype",
    ),
    *_rows(
        _FAST_PATH,
        "reference.hierarchical.fast_torch:train_layerwise",
        "rng",
        "config",
        "device",
        "dtype",
    ),
    *_rows(_UTILITY, "reference.invariance:subspace_distance", "squared"),
    *_rows(
        _UTILITY, "reference.inverse_optimization:simulate", "corrupted_rounds", "corruption", "rng"
    ),
    *_rows(_UTILITY, "reference.mirror_descent:bregman_divergence", "mirror", "p"),
    *_rows(_UTILITY, "reference.mirror_descent:dual_norm", "norm", "p"),
    *_rows(_UTILITY, "reference.mirror_descent:dual_maximizer", "norm", "p"),
    *_rows(_UTILITY, "reference.mirror_descent:local_smoothness_estimates", "norm", "p"),
    *_rows(_UTILITY, "reference.mirror_descent:primal_norm", "norm", "p"),
    *_rows(_UTILITY, "reference.optimizers:goldstein_stationarity", "delta", "rng", "samples"),
    *_rows(_UTILITY, "reference.perturbation:frank_wolfe_gap", "mu_x", "mu_y"),
    *_rows(_UTILITY, "reference.perturbation:perturbed_gap", "mu"),
    *_rows(_UTILITY, "reference.qp_layers:active_set", "slack_tol", "dual_cutoff"),
    *_rows(_UTILITY, "reference.spectral:moving_median", "window"),
    *_rows(
        _UTILITY, "reference.spectral:cosine_schedule", "total", "peak", "warmup", "floor_ratio"
    ),
    *_rows(_UTILITY, "reference.spectral:cosine_threshold", "c0"),
    *_rows(_UTILITY, "reference.spectral:loss_elbow", "stride"),
    *_rows(_UTILITY, "reference.spectral:step_schedule", "total", "peak", "gamma", "milestones"),
    *_rows(
        _UTILITY,
        "reference.spectral:wsd_schedule",
        "total",
        "peak",
        "warmup",
        "decay_fraction",
        "floor_ratio",
        "shape",
    ),
    *_rows(_UTILITY, "reference.stability:gradient_stability", "loss"),
    *_rows(_UTILITY, "reference.stability:train", "loss", "per_sample"),
    (
        "reference.activations:dwh_sign",
        "max_iter",
        "a cap on K: the checks' runs reach tol in fewer steps, so twice the cap or one less "
        "returns the same (measured)",
    ),
    (
        "reference.activations:gelu_pole",
        "branches",
        "the pole gelu_pole checks lies in the first branches: twice as many or one fewer "
        "branches find the same pole (measured)",
    ),
    (
        "reference.activations:fit_rational",
        "max_iter",
        "a cap on function evaluations the fits stop well before (a tenth of it passes, measured)",
    ),
    (
        "reference.activations:rational",
        "version",
        "relu_init evaluates version A only; version B's initial fit passes its bound too "
        "(measured)",
    ),
    (
        "reference.attention_queries:recover_exact",
        "scale",
        "theorem_4_1 checks exact recovery, which any probe scale below saturation achieves "
        "(twice and half the scale pass, measured)",
    ),
    (
        "reference.attention_queries:recover_exact",
        "tol",
        "the zero threshold for v: the checks' v have no entries within orders of tol, so "
        "twice or half of it classifies the same (measured)",
    ),
    (
        "reference.attention_queries:recover_exact",
        "max_resample",
        "a cap on probe rescalings the checks' oracles never reach (measured: twice or one "
        "less passes)",
    ),
    (
        "reference.attention_queries:recover_low_rank",
        "m",
        "theorem_5_1 checks recovery, which every m above 2 r d achieves: the default, twice "
        "and one fewer measurement pass (measured)",
    ),
    (
        "reference.attention_queries:recover_low_rank",
        "c_m",
        "sets the default m only; theorem_5_1 passes m itself",
    ),
    (
        "reference.attention_queries:recover_low_rank",
        "s_a",
        "recovery holds at any scale below saturation: twice and half pass (measured)",
    ),
    (
        "reference.attention_queries:recover_low_rank",
        "max_iter",
        "the solver converges well within the iterations theorem_5_1 passes (the default and "
        "twice pass, measured)",
    ),
    (
        "reference.attention_queries:recover_low_rank",
        "solver_tol",
        "the recovery error stays far below theorem_5_1's budget for twice or half the "
        "solver tolerance (measured)",
    ),
    (
        "reference.attention_queries:recover_low_rank",
        "tol",
        "the zero threshold for v: no entry is near it on the checks' instances (measured)",
    ),
    (
        "reference.attention_queries:recover_noisy",
        "mu",
        "a lower bound on min |v_i|: half of it is still a valid bound (passes, measured); "
        "twice of it is rejected by the oracle check (a documented ValueError)",
    ),
    (
        "reference.attention_queries:recover_one_layer",
        "d",
        "one_layer passes the oracle's width; any other width fails the input validation (a "
        "documented ValueError), not a measured violation",
    ),
    (
        "reference.attention_queries:recover_one_layer",
        "ffn_learner",
        "one_layer passes no FFN learner (the built-in one is used)",
    ),
    (
        "reference.attention_queries:recover_one_layer",
        "scale",
        "recovery holds at any probe scale below saturation: twice and half pass (measured)",
    ),
    (
        "reference.attention_queries:multihead_witnesses",
        "shift",
        "proposition_7_1 checks that the two witnesses give equal outputs, which holds for "
        "every non-zero shift; no check compares the witnesses with a given c",
    ),
    (
        "reference.attention_queries:multihead_witnesses",
        "other_W",
        "proposition_7_1 checks that the two witnesses give equal outputs, which holds for "
        "every W' != W",
    ),
    (
        "reference.constrained_map:pa_cells",
        "max_cells",
        "partition's instances have far fewer cells than the cap; sat_reduction passes "
        "max_cells = 1 and passes with the default too (measured)",
    ),
    (
        "reference.divergence:make_rff",
        "sigma",
        "only the full-profile check rff_rate runs make_rff; no quick check notices it",
    ),
    (
        "reference.divergence:make_rff",
        "omega_max",
        "only the full-profile check rff_rate runs make_rff, with the default band limit",
    ),
    (
        "reference.extensive:asymp_dgda",
        "mu",
        "kuhn_asymp_dgda checks the perturbed equilibrium's NashConv against a budget that "
        "twice and half mu also meet (measured)",
    ),
    (
        "reference.extensive:asymp_dgda",
        "step_size",
        "kuhn_asymp_dgda passes the default step (None) only",
    ),
    (
        "reference.extensive:asymp_dgda",
        "max_iter",
        "the run stops on tol long before the cap (twice or one less passes, measured)",
    ),
    (
        "reference.extensive:asymp_dgda",
        "tol",
        "kuhn_asymp_dgda's budget is above what twice or half the tolerance reach (measured)",
    ),
    (
        "reference.extensive:asymp_dgda",
        "variant",
        "kuhn_asymp_dgda runs the default explicit step only",
    ),
    (
        "reference.games:drs_residual",
        "step_size",
        "the checks pass the default step_size = 1/||A||; the residual's zeros, which they "
        "check, do not depend on it",
    ),
    (
        "reference.games:hybrid",
        "max_iter",
        "a cap hybrid_global's runs never reach (twice or one less passes, measured)",
    ),
    (
        "reference.games:ssn",
        "max_iter",
        "a Newton cap the checks' runs never reach (twice or one less passes, measured)",
    ),
    (
        "reference.games:ssn",
        "u0",
        "the checks pass the default start; the fixed point and the quadratic rate they "
        "measure do not depend on it",
    ),
    (
        "reference.hierarchical:make_random_circuit",
        "probe",
        "the probe sample estimates the biases the rejection step tests; the circuits' "
        "properties random_circuit counts hold for any probe size (measured)",
    ),
    (
        "reference.hierarchical:make_random_circuit",
        "max_tries",
        "a cap on rejected draws the checks' instances never reach (measured)",
    ),
    (
        "reference.hierarchical:train_flat",
        "width",
        "flat_baseline's positive control learns the first level at the default width, twice "
        "it and one less (measured)",
    ),
    (
        "reference.hierarchical:train_flat",
        "batch_size",
        "flat_baseline's positive control learns the first level at twice or one less batch "
        "size (measured)",
    ),
    (
        "reference.hierarchical:train_layerwise",
        "config",
        "the layerwise check passes the default LayerwiseConfig only",
    ),
    (
        "reference.inconsistency:inconsistency_ascent",
        "noise_scale",
        "the ascent converges to the same top eigenvector from noise twice or half as large "
        "(measured)",
    ),
    (
        "reference.inconsistency:iam_d",
        "config",
        "iam_d_step replays the update from the perturbation the step returns: twice "
        "config.rho passes it (measured)",
    ),
    (
        "reference.inconsistency:iam_de",
        "config",
        "iam_de_chain checks the chain's consistency, which the default IAMDEConfig also "
        "satisfies (measured)",
    ),
    (
        "reference.inconsistency:iam_de",
        "optimizer",
        "iam_de_chain checks the chain's consistency, which the default SGDConfig also "
        "satisfies (measured)",
    ),
    (
        "reference.inconsistency:iam_de",
        "buffer",
        "iam_de_chain passes no buffer (zeros)",
    ),
    (
        "reference.inconsistency:iam_de_step",
        "sign",
        "iam_de_power_iteration measures a direction up to sign: a flipped sign passes it "
        "(measured)",
    ),
    (
        "reference.inconsistency:iam_de_step",
        "config",
        "iam_de_power_iteration checks the converged direction, which the default "
        "IAMDEConfig also reaches (measured)",
    ),
    (
        "reference.inconsistency:iam_de_step",
        "optimizer",
        "iam_de_power_iteration checks the converged direction, which the default SGDConfig "
        "also reaches (measured)",
    ),
    (
        "reference.inconsistency:iam_de_step",
        "buffer",
        "iam_de_power_iteration passes no buffer (zeros)",
    ),
    (
        "reference.invariance:make_instance",
        "sigma_eps",
        "the checks' claims hold at any label-noise level: twice and half pass (measured)",
    ),
    (
        "reference.invariance:make_instance",
        "drift",
        "the checks draw the default 'design' drift only",
    ),
    (
        "reference.invariance:support_search",
        "lam",
        "construction_3_3 checks the support found, which twice and half lambda also find "
        "(measured)",
    ),
    (
        "reference.inverse_optimization:RobustLearner",
        "dim",
        "the checks pass the family's dimension; another one fails the input validation (a "
        "documented ValueError)",
    ),
    (
        "reference.inverse_optimization:RobustLearner",
        "point",
        "the checks run the default centroid point only",
    ),
    (
        "reference.inverse_optimization:OnlineNewtonStep",
        "dim",
        "the checks pass the family's dimension; another one fails the input validation (a "
        "documented ValueError)",
    ),
    (
        "reference.inverse_optimization:OnlineNewtonStep",
        "diameter",
        "the checks pass the default (0: sqrt(2 d)); no check passes another K",
    ),
    (
        "reference.inverse_optimization:random_family",
        "kind",
        "prop_2_4 passes the default (a kind drawn at random); every kind is a valid family",
    ),
    (
        "reference.mirror_descent:accelerated_mirror_descent",
        "mirror",
        "accelerated_rate runs each map on its own domain: the Euclidean map on the simplex "
        "instance fails the gradient's input check (a documented ValueError)",
    ),
    (
        "reference.mirror_descent:stochastic_mirror_descent",
        "mirror",
        "stochastic_rate runs the Euclidean map only",
    ),
    (
        "reference.perturbation:asymp_gda",
        "x0",
        "the checks start from uniform (the default)",
    ),
    (
        "reference.perturbation:asymp_gda",
        "y0",
        "the checks start from uniform (the default)",
    ),
    (
        "reference.perturbation:asymp_gda",
        "stop",
        "the checks run fixed lengths (tol None or 1e-300), where the stopping rule never fires",
    ),
    (
        "reference.perturbation:parameter_free",
        "max_iter",
        "a cap algorithm_1's runs do not reach: they stop on tol",
    ),
    (
        "reference.perturbation:parameter_free",
        "max_inner",
        "a cap on one round algorithm_1's rounds do not reach",
    ),
    (
        "reference.preference:embed_psi",
        "psi_prime",
        "only improves the numeric inverse's accuracy; T4's tolerance is met without it (measured)",
    ),
    (
        "reference.qp_layers:ghost_pgd",
        "tol",
        "the rate and contraction checks read the iterates before the stopping rule fires: "
        "100 tol passes (measured)",
    ),
    (
        "reference.stability:coupled_runs",
        "per_sample",
        "the coupling checks feed full-batch gradients; per-sample gradients fail the shape "
        "validation (a documented ValueError)",
    ),
    (
        "reference.mirror_descent:optimistic_mirror_descent",
        "step_size",
        "optimistic_rate's bound holds for every step below 1/(3L): twice and half pass "
        "(measured); mirror_replay uses one step for all three methods",
    ),
    (
        "reference.mirror_descent:optimistic_mirror_descent",
        "max_iter",
        "optimistic_rate's bound holds at every T: twice and one fewer step pass (measured)",
    ),
    (
        "reference.mirror_descent:stochastic_mirror_descent",
        "step_size",
        "stochastic_rate passes explicit steps or None with L for the default rule; the rate "
        "holds for each, and None without L raises (a documented ValueError)",
    ),
    (
        "reference.mirror_descent:stochastic_mirror_descent",
        "lipschitz",
        "enters the default step rule only; stochastic_rate's bound holds for every step "
        "below its limit",
    ),
    (
        "reference.optimizers:lgi",
        "k",
        "lgi_affine's estimate is unbiased for every k (twice and one less pass, measured); "
        "lgi_range passes k directions itself",
    ),
    (
        "reference.optimizers:lgi",
        "sigma",
        "the LGI of the checks' quadratics does not depend on the probe radius (twice and "
        "half pass, measured)",
    ),
    (
        "reference.perturbation:asymp_gda",
        "tol",
        "step_recursion replays the steps the run took, whatever stopped it (a million times "
        "tol passes, measured)",
    ),
    (
        "reference.perturbation:asymp_gda_side",
        "tol",
        "step_recursion replays the steps the run took, whatever stopped it (a million times "
        "tol passes, measured)",
    ),
    (
        "reference.perturbation:asymp_gda_side",
        "x0",
        "the checks start from uniform (the default)",
    ),
    (
        "reference.perturbation:asymp_gda_side",
        "y0",
        "the checks start from uniform (the default)",
    ),
    (
        "reference.qp_layers:ffo_grads",
        "config",
        "rank_one_error passes with the default FFOConfig too (measured): its thresholds do "
        "not bind on the checks' QPs",
    ),
    (
        "reference.qp_layers:kkt_grads",
        "slack_tol",
        "the checks' QPs have no weakly active row within a thousand times the threshold "
        "(measured)",
    ),
    (
        "reference.qp_layers:kkt_grads",
        "degenerate_tol",
        "the checks' QPs have no weakly active row within a thousand times the threshold "
        "(measured)",
    ),
    (
        "reference.qp_layers:solve_qp",
        "G",
        "constraint data: active_set passes both G and h; dropping one fails the input "
        "validation (a documented ValueError)",
    ),
    (
        "reference.qp_layers:solve_qp",
        "h",
        "constraint data: active_set passes both G and h; dropping one fails the input "
        "validation (a documented ValueError)",
    ),
    (
        "reference.qp_layers:solve_qp",
        "A",
        "constraint data: dropping A without b fails the input validation (a documented "
        "ValueError)",
    ),
    (
        "reference.qp_layers:solve_qp",
        "b",
        "constraint data: dropping b without A fails the input validation (a documented "
        "ValueError)",
    ),
    (
        "reference.qp_layers:solve_qp",
        "config",
        "active_set passes with the default QPSolverConfig (measured): its tolerances are "
        "far below the check's budget",
    ),
    (
        "reference.qp_layers:penalty_grads",
        "config",
        "penalty_rate fits a slope that the default PenaltyConfig also gives (measured)",
    ),
)


def _generate(effect: ParamEffect) -> Callable[..., Any]:
    original: Callable[..., Any] = resolve_name(effect.algorithm)
    signature = inspect.signature(original)

    def mutant(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        if effect.replace is _use_default:
            bound.arguments[effect.keyword] = signature.parameters[effect.keyword].default
        else:
            bound.arguments[effect.keyword] = effect.replace(bound.arguments[effect.keyword])
        return original(*bound.args, **bound.kwargs)

    mutant.__name__ = mutant.__qualname__ = effect.target_name
    mutant.__doc__ = f"{effect.algorithm} with {effect.keyword} replaced by {effect.label}."
    return mutant


_MODULE = sys.modules[__name__]
for _effect in PARAM_EFFECTS:
    setattr(_MODULE, _effect.target_name, _generate(_effect))


def param_mutants() -> tuple[ProofMutant, ...]:
    """The generated table as proof mutants (family ``<family>``, name ``param: ...``)."""
    return tuple(
        ProofMutant(
            family=e.family,
            name=f"param: {e.algorithm.split(':')[1]}({e.keyword} -> {e.label})",
            why=f"the keyword {e.keyword!r} replaced by {e.label} ({e.where})",
            algorithm=e.algorithm,
            target=f"{__name__}:{e.target_name}",
            catches=e.catches,
        )
        for e in PARAM_EFFECTS
    )


def _markdown() -> str:
    """The tables as Markdown, with the counts of ``tests/_param_scan.py`` on top."""
    from tests._param_scan import counts  # the scan imports this module

    c = counts()
    lines = [
        "# Documented keywords and the checks that notice them ignored",
        "",
        "Generated by `python -m tests._param_mutants` (issue 36, item 2; STYLE B7).  Each "
        "mutant calls the reference with one keyword replaced by its default or a neighbouring "
        "value; `tests/test_proof_mutants.py` asserts every listed check fails it by a measured "
        "violation, and `tests/test_param_mutants.py` that no keyword is left out.",
        "",
        f"- algorithms with keywords: {c['algorithms']}; keywords (a default, or keyword-only): "
        f"{c['keywords']}",
        f"- keywords with a generated mutant: {c['keywords with a mutant']} "
        f"({c['mutants']} mutants, every one caught)",
        f"- neutral (no effect on the checks' instances, with the reason): {c['neutral']}",
        f"- unchecked (an effect no check notices, with the reason): {c['unchecked']}",
        f"- silent (in no table): {c['silent']}",
        "",
        "| algorithm | keyword | replaced by | checks that fail it / reason |",
        "|---|---|---|---|",
    ]
    for e in PARAM_EFFECTS:
        lines.append(f"| `{e.algorithm}` | `{e.keyword}` | {e.label} | {', '.join(e.catches)} |")
    for algorithm, keyword, reason in NEUTRAL:
        lines.append(f"| `{algorithm}` | `{keyword}` | (neutral) | {reason} |")
    for algorithm, keyword, reason in UNCHECKED:
        lines.append(f"| `{algorithm}` | `{keyword}` | (no check yet) | {reason} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(_markdown())
