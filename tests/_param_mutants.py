"""Parameter-effect mutants (issue 36, item 2): generated wrong implementations that call the
reference with one documented keyword replaced by its default or a neighbouring value.

Each :class:`ParamEffect` names a public algorithm, a keyword its docstring says changes the
result, the replacement, and where the checks' instances make it matter.  :func:`param_mutants`
turns each into a :class:`~tests._proof_mutants.ProofMutant` whose target is generated in this
module (``tests._param_mutants:<algorithm>__<keyword>``), so the table joins the hand-written
mutant tables, ``tests/test_proof_mutants.py`` runs it, and ``proofs_numeric/_teeth.json``
records it.  :data:`NEUTRAL` lists keywords documented NOT to change the result on the checks'
instances, with the reason; :data:`UNCHECKED` the documented keywords no check exercises yet.

The table as Markdown: ``python -m tests._param_mutants``.
"""

from __future__ import annotations

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
        keyword="eta",
        label="default None",
        replace=_constant(None),
        where="step_recursion passes eta = 0.41/||A|| and 3/||A||, not the default 1/(mu + ||A||)",
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
        keyword="eta",
        label="default None",
        replace=_constant(None),
        where="step_recursion passes eta away from the default",
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
        keyword="step_size",
        label="step_size/20",
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
        "reference.optimizers:muon_vr",
        "ns_steps",
        "used only by NS5; vr_balls passes exact_polar=True",
    ),
    (
        "reference.preference:train_tabular_policy",
        "steps",
        "A6's instances converge: a step more or fewer (or the default 2000) ends at the same "
        "minimiser, which is what the check claims",
    ),
)

#: Documented keywords whose effect no check exercises yet (honest gaps): (algorithm, keyword).
UNCHECKED: tuple[tuple[str, str], ...] = (
    ("reference.games:prm_plus", "alternating"),
    ("reference.games:rm_plus", "alternating"),
    ("reference.games:hybrid", "mode"),
    ("reference.games:hybrid", "config"),
    ("reference.games:ssn", "config"),
    ("reference.mirror_descent:mirror_descent", "p"),
    ("reference.perturbation:asymp_gda_side", "stop"),
    ("reference.constrained_map:pa_map", "config"),
    ("reference.constrained_map:agnostic_map", "starts"),
    ("reference.perturbation:parameter_free", "mu_init"),
    ("reference.perturbation:parameter_free", "check_every"),
    ("reference.perturbation:parameter_free", "patience"),
    # more draws only lower the best-of-k cost and fewer raise it by little: the Hoeffding
    # margin of tsp.sampled_decode cannot separate k from k + 1
    ("reference.tsp:sampled_decode", "k"),
    # penalty_rate and penalty_condition fit slopes in log(penalty): a uniformly rescaled
    # penalty keeps both slopes; no check compares one penalty's error with its value
    ("reference.qp_layers:penalty_grads", "penalty"),
    # optimizers and divergence (generated exploration, issue 36 item 2): the checks pass
    # only the default, or the keyword's effect is not on their instances
    ("reference.divergence:armijo_ascent", "config"),
    ("reference.optimizers.polar:newton_schulz", "coefficients"),
    ("reference.optimizers:lgi", "direction_mode"),
    ("reference.optimizers:lgi_details", "direction_mode"),
    ("reference.optimizers:lion", "clip_tau"),
    ("reference.optimizers:lion_vr", "clip"),
    ("reference.optimizers:muon", "clip_tau"),
    ("reference.optimizers:muon", "flatten"),
    ("reference.optimizers:muon_vr", "clip"),
    ("reference.optimizers:s_adam", "lgi_cap"),
    ("reference.optimizers:s_adam", "variant"),
    ("reference.optimizers:s_adam", "direction_mode"),
    ("reference.optimizers:s_adam", "ddof"),
    ("reference.optimizers:sfw", "which"),
    ("reference.optimizers:sfw", "b1"),
    ("reference.optimizers:sfw", "b2"),
    ("reference.optimizers:sfw", "clip_tau"),
    ("reference.optimizers:sfw", "shape_scaled"),
    ("reference.optimizers:sfw", "polar"),
    ("reference.optimizers:sfw", "ns_steps"),
    ("reference.optimizers:sfw_vr", "step_size"),
    ("reference.optimizers:sfw_vr", "clip"),
    ("reference.optimizers:sfw_vr", "shape_scaled"),
    ("reference.optimizers:sfw_vr", "polar"),
    ("reference.optimizers:sfw_vr", "ns_steps"),
    # preference, stability, spectral, invariance (generated exploration): the checks pass only
    # the default, or their instances do not separate the values
    ("reference.preference:dpo_loss", "psi"),
    ("reference.preference:dpo_loss", "margin"),
    ("reference.preference:dpo_loss", "length_w"),
    ("reference.preference:dpo_loss", "length_l"),
    ("reference.preference:dpo_loss", "length_coef"),
    ("reference.preference:embed_psi", "closed"),
    ("reference.preference:embed_psi", "z_range"),
    ("reference.preference:preference_loss", "margin"),
    ("reference.preference:representable", "tol"),
    ("reference.preference:train_tabular_policy", "psi"),
    # the default 'average' rejects per-sample gradients (a documented ValueError): the keyword
    # mutant raises instead of failing by a measured violation; the hand-written mutant
    # "clipped_sgd: clip of the mean" fails stability.clipped_sgd_recursion instead
    ("reference.optimizers:clipped_sgd", "placement"),
    ("reference.stability:coupled_runs", "batch"),
    ("reference.stability:coupled_runs", "sampling"),
    ("reference.stability:coupled_runs", "loss"),
    ("reference.stability:pareto_vectors", "scale"),
    ("reference.spectral:normalized_spectrum", "normalization"),
    ("reference.spectral:spectrum_variation", "pad"),
    ("reference.invariance:exhaustive_search_k1", "lam"),
    ("reference.invariance:make_instance", "kind"),
    ("reference.invariance:make_instance", "rotate"),
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
    lines = [
        "| algorithm | keyword | replaced by | checks that fail it |",
        "|---|---|---|---|",
    ]
    for e in PARAM_EFFECTS:
        lines.append(f"| `{e.algorithm}` | `{e.keyword}` | {e.label} | {', '.join(e.catches)} |")
    for algorithm, keyword, reason in NEUTRAL:
        lines.append(f"| `{algorithm}` | `{keyword}` | (neutral) | {reason} |")
    for algorithm, keyword in UNCHECKED:
        lines.append(f"| `{algorithm}` | `{keyword}` | (no check yet) | - |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(_markdown())
