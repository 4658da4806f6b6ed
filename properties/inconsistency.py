"""Conformance suites for local inconsistency, the Fisher of softmax models and SAM/ASAM (spec 09).

* ``inconsistency.estimator`` — algorithm A1 ``(model, θ, X, ξ, *, rho, steps, noise_scale) ->
  (Ŝ, δ*)`` (a result with ``.value``/``.delta`` also works): ``||δ*|| = ρ``, ``Ŝ >= 0`` and equals
  ``K_X(θ, δ*)``, the answer is unique given ``ξ``, invariance to permuting / duplicating examples
  and to a common bias shift, ``Ŝ -> (ρ²/2) λ_max(F)`` and ``Ŝ(2ρ)/Ŝ(ρ) -> 4`` for small ``ρ``.
* ``inconsistency.fisher`` — ``(model, θ, X) -> F``: symmetric PSD, equals the finite-difference
  Hessian of the cross-entropy for linear logits and any labels, ``½δᵀFδ ≈ K_X(θ, δ)``, the
  common-bias direction is in its null space, a mean over examples, the unique closed form.
* ``inconsistency.sam_perturbation`` — ``(θ, g, *, rho, adaptive, shift) -> ε``: SAM's ``ε`` has
  norm ``ρ`` along ``g``, vanishes at ``ρ = 0``, ignores the scale of ``g``; ASAM's satisfies
  ``||T⁻¹ε|| = ρ`` with ``T = diag(|θ| + η)`` and equals ``ρ T² g / ||T g||``.

* ``inconsistency.iam_de`` — one IAM-DE step from a given state ``(model, θ, X, y, X_u, δ, *,
  sign, config, optimizer) -> (θ', δ')`` (a result with ``.theta``/``.next_delta`` also works):
  ``β = 0`` is the base SGD step, ``||δ'|| = ρ``, the θ-gradient equals finite differences of
  ``L(θ) + β K(θ, sδ)`` (δ frozen), only ``sδ`` matters (``(δ, +1)`` and ``(-δ, -1)`` give the
  same ``θ'`` and opposite ``δ'``), ``δ'`` is a power-iteration step ``∝ Fδ`` for small ``δ``, does
  not depend on the labels, and the answer is unique (matches the reference).

Declarable conventions (``--variant``): the estimator's normaliser ``||g||``
(default), ``||g|| + 1e-12`` (``eps_in_norm``, the code's ``inconsistencyLoss``) or
``sqrt(||g||² + 1e-12)`` (``eps_in_root``, the code's ``IAM_D``); IAM-DE's state update
``δ' = ρ ĝ`` (default) or ``δ' = 0.9 δ + 0.1 ρ ĝ`` (``ema``, the code's ``IAM_DE``), each also
with the normaliser inside the root (``eps_in_root``, ``ema_eps_in_root``).  The expected
value under a variant is recomputed here from ``∇_δ K`` (``batch_kl_gradient``).  Every
fixed bound is the larger of its float64 value and a rounding model ``c·u`` of the declared
``--precision`` (or the declared ``--tolerance``).

Models are :class:`reference.inconsistency.SoftmaxModel` (M1 linear, M2 tanh MLP); the flat
parameter order is ``[W (C, d) row-major, b]`` (M1) or ``[W1, b1, W2, b2]`` (M2), the order of
``torch.nn.Linear`` parameters.
"""

from __future__ import annotations

import math
from typing import Any, Protocol

import numpy as np
from hypothesis import strategies as st

from properties._runner import (
    Capabilities,
    CheckFailure,
    Suite,
    expect,
    expect_close,
    expect_le,
)
from properties._suite import PrecisionTooCoarse, check
from properties.adapters import to_numpy
from properties.strategies import float_arrays, nonzero_float_arrays, seeds
from reference import inconsistency as inc
from reference._arrays import FloatArray

__all__ = [
    "ESTIMATOR",
    "ESTIMATOR_VARIANTS",
    "FISHER",
    "IAM_DE",
    "IAM_DE_VARIANTS",
    "SAM_PERTURBATION",
    "SUITES",
    "FisherFn",
    "IAMDEStep",
    "InconsistencyEstimator",
    "SamPerturbation",
    "models",
]


class InconsistencyEstimator(Protocol):
    """A1: ``(model, θ (P,), X (n, d), ξ (P,), *, rho, steps, noise_scale) -> (Ŝ, δ* (P,))``."""

    def __call__(
        self,
        model: inc.SoftmaxModel,
        theta: FloatArray,
        inputs: FloatArray,
        noise: FloatArray,
        /,
        *,
        rho: float,
        steps: int,
        noise_scale: float,
    ) -> tuple[float, FloatArray]:
        """Return ``(Ŝ, δ*)``."""
        ...


class FisherFn(Protocol):
    """Model Fisher: ``(model, θ (P,), X (n, d)) -> F (P, P)``."""

    def __call__(
        self, model: inc.SoftmaxModel, theta: FloatArray, inputs: FloatArray, /
    ) -> FloatArray:
        """Return ``F(θ)``."""
        ...


class SamPerturbation(Protocol):
    """``(θ (P,), g (P,), *, rho, adaptive, shift) -> ε (P,)``."""

    def __call__(
        self,
        theta: FloatArray,
        gradient: FloatArray,
        /,
        *,
        rho: float,
        adaptive: bool,
        shift: float,
    ) -> FloatArray:
        """Return SAM's (or ASAM's) perturbation."""
        ...


class IAMDEStep(Protocol):
    """IAM-DE core: ``(model, θ, X, y, X_u, δ, *, sign, config, optimizer) -> (θ', δ')``."""

    def __call__(
        self,
        model: inc.SoftmaxModel,
        theta: FloatArray,
        inputs: FloatArray,
        targets: FloatArray,
        unlabeled: FloatArray,
        delta: FloatArray,
        /,
        *,
        sign: int,
        config: inc.IAMDEConfig,
        optimizer: inc.SGDConfig,
    ) -> tuple[FloatArray, FloatArray]:
        """Return the new parameters and the next state ``δ``."""
        ...


# --------------------------------------------------------------------------------------------
# strategies


@st.composite
def models(
    draw: st.DrawFn, *, kinds: tuple[inc.ModelKind, ...] = ("linear", "mlp"), max_n: int = 8
) -> tuple[inc.SoftmaxModel, FloatArray, FloatArray, np.random.Generator]:
    """Small random M1/M2 models ``(model, θ, X, rng)`` (sizes 1–4, batches 1–``max_n``)."""
    kind = draw(st.sampled_from(kinds), label="model kind")
    d = draw(st.integers(1, 4), label="inputs d")
    c = draw(st.integers(2, 4), label="classes C")
    h = draw(st.integers(1, 4), label="hidden h")
    n = draw(st.integers(1, max_n), label="batch n")
    model = inc.SoftmaxModel(kind=kind, n_inputs=d, n_classes=c, n_hidden=h)
    theta = draw(float_arrays((model.n_params,), low=-1.5, high=1.5), label="parameters θ")
    inputs = draw(float_arrays((n, d), low=-3.0, high=3.0), label="inputs X")
    # a generator for the checks' many noise vectors ξ, labels and directions δ (one per
    # call, sized by the drawn model): seeded, so those draws replay but do not shrink
    rng = np.random.default_rng(draw(seeds(), label="seed for ξ, labels, δ"))
    return model, theta, inputs, rng


def _rel(a: float, b: float) -> float:
    return abs(a - b) / max(abs(b), 1e-300)


#: Conventions of ``inconsistency.estimator`` (``--variant``); the first is the default.
ESTIMATOR_VARIANTS: dict[str, str] = {
    "exact_norm": "δ_k = ρ g / ||g|| (Kim, Kim, Lee, ICML 2026 A1; ||δ*|| = ρ to rounding)",
    "eps_in_norm": "δ_k = ρ g / (||g|| + 1e-12) (the code's inconsistencyLoss)",
    "eps_in_root": "δ_k = ρ g / sqrt(||g||² + 1e-12) (the code's IAM_D.step)",
}
#: Conventions of ``inconsistency.iam_de`` (``--variant``); the first is the default.
IAM_DE_VARIANTS: dict[str, str] = {
    "plain": "δ' = ρ ĝ, ĝ = g_δ / ||g_δ|| (Kim, Kim, Lee, ICML 2026 A2; IAMDEConfig(delta_ema=0))",
    "eps_in_root": "δ' = ρ g_δ / sqrt(||g_δ||² + 1e-12)",
    "ema": "δ' = 0.9 δ + 0.1 ρ ĝ (IAMDEConfig(delta_ema=0.9))",
    "ema_eps_in_root": "δ' = 0.9 δ + 0.1 ρ g_δ / sqrt(||g_δ||² + 1e-12) (the code's IAM_DE)",
}
_GUARD = 1e-12  # the code's epsilon


def _rounding(caps: Capabilities, c: float, scale: float = 1.0) -> float:
    """``caps.rounding_bound(c, scale)``, judged relative to ``scale``.

    Raises:
        PrecisionTooCoarse: ``c·u >= 1`` and no tolerance declared (``256·u`` and ``1024·u`` in
            bfloat16): a bound at the scale of the quantity passes anything, so the check is
            skipped and the report names why.
    """
    if c * caps.unit_roundoff >= 1.0:
        if caps.tolerance_declared:
            return caps.tolerance * scale  # the declared promise alone: the model judges nothing
        raise PrecisionTooCoarse(f"{c:g}·u", caps.precision, c * caps.unit_roundoff, 1.0)
    return caps.rounding_bound(c, scale)


def _allow(caps: Capabilities, floor: float, *, c: float = 64.0, scale: float = 1.0) -> float:
    """``floor·scale`` (the float64 bound), or the rounding model ``c·u·scale`` of the
    declared precision / the declared tolerance when larger."""
    return max(floor * scale, _rounding(caps, c, scale))


def _normaliser(caps: Capabilities, g: FloatArray) -> float:
    """The declared normaliser of an ascent direction ``g``."""
    norm = float(np.linalg.norm(g))
    variant = caps.variant or ""
    if variant.endswith("eps_in_root"):
        return math.sqrt(norm**2 + _GUARD)
    if variant == "eps_in_norm":
        return norm + _GUARD
    return norm


def _declared_ascent(
    caps: Capabilities,
    model: inc.SoftmaxModel,
    theta: FloatArray,
    inputs: FloatArray,
    noise: FloatArray,
    *,
    rho: float,
    steps: int,
    noise_scale: float,
) -> FloatArray:
    """A1 with the declared normaliser, recomputed from ``∇_δ K_X`` (``batch_kl_gradient``)."""
    delta = noise_scale * noise / math.sqrt(model.n_params)
    for _ in range(steps):
        g = inc.batch_kl_gradient(model, theta, delta, inputs)
        delta = rho * g / _normaliser(caps, g)
    return delta


# --------------------------------------------------------------------------------------------
# estimator


def _estimate(
    impl: InconsistencyEstimator,
    model: inc.SoftmaxModel,
    theta: FloatArray,
    inputs: FloatArray,
    noise: FloatArray,
    *,
    rho: float,
    steps: int = 1,
    noise_scale: float = 1e-3,
) -> tuple[float, FloatArray]:
    value, delta = impl(
        model,
        theta.copy(),
        inputs.copy(),
        noise.copy(),
        rho=rho,
        steps=steps,
        noise_scale=noise_scale,
    )
    v = float(to_numpy(value, what="Ŝ"))
    d = to_numpy(delta, what="δ*")
    expect(
        d.shape == (model.n_params,),
        what="shape of δ*",
        measured=d.shape,
        allowed=(model.n_params,),
    )
    expect(math.isfinite(v), what="Ŝ is finite", measured=v, allowed="finite")
    return v, d


def _radius(data: st.DataObject) -> float:
    return data.draw(st.floats(1e-4, 1.0, allow_subnormal=False), label="radius ρ")


_A = "Kim, Kim, Lee, ICML 2026"


@check(anchor=_A + " properties 1, 3: Ŝ >= 0, ||δ*|| = ρ")
def check_feasible_nonnegative(
    impl: InconsistencyEstimator, data: st.DataObject, caps: Capabilities
) -> None:
    """``||δ*||₂ = ρ`` (1e-9 relative) and ``Ŝ >= 0`` (Kim, Kim, Lee, ICML 2026 properties 1, 3)."""
    model, theta, inputs, rng = data.draw(models(), label="model")
    rho = _radius(data)
    steps = data.draw(st.integers(1, 5), label="steps K")
    xi = rng.standard_normal(model.n_params)
    value, delta = _estimate(impl, model, theta, inputs, xi, rho=rho, steps=steps)
    expect_le(value, math.inf, what="Ŝ")
    expect_le(-value, _allow(caps, 1e-12, scale=rho**2), what="-Ŝ (non-negativity)")
    radius = rho
    if caps.variant not in (None, "exact_norm"):  # the declared normaliser shortens ||δ*||
        radius = float(
            np.linalg.norm(
                _declared_ascent(
                    caps, model, theta, inputs, xi, rho=rho, steps=steps, noise_scale=1e-3
                )
            )
        )
    expect_le(
        _rel(float(np.linalg.norm(delta)), radius),
        _allow(caps, 1e-9),
        what="| ||δ*|| - ρ | / ρ"
        + ("" if radius == rho else f" (declared normaliser: ρ ||g||/N(g) = {radius:.6g})"),
    )


@check(anchor=_A + " section 2: K_X batchmean KL(p_θ || p_θ+δ)")
def check_value_is_batch_kl(
    impl: InconsistencyEstimator, data: st.DataObject, caps: Capabilities
) -> None:
    """``Ŝ = K_X(θ, δ*) = (1/n) Σ_i KL(p_θ || p_{θ+δ*})`` (batchmean KL, unperturbed first)."""
    model, theta, inputs, rng = data.draw(models(), label="model")
    rho = _radius(data)
    value, delta = _estimate(
        impl, model, theta, inputs, rng.standard_normal(model.n_params), rho=rho
    )
    want = inc.batch_kl(model, theta, delta, inputs)
    expect_le(abs(value - want), _ftol(caps) * want + 1e-15, what="|Ŝ - K_X(θ, δ*)|")


@check(anchor=_A + " A1 (deterministic given ξ)")
def check_matches_reference(
    impl: InconsistencyEstimator, data: st.DataObject, caps: Capabilities
) -> None:
    """Given ``ξ``, A1 is deterministic: ``δ*`` and ``Ŝ`` equal the reference's."""
    model, theta, inputs, rng = data.draw(models(), label="model")
    rho = _radius(data)
    steps = data.draw(st.integers(1, 4), label="steps K")
    scale = data.draw(st.sampled_from([1e-3, 0.05, 1.0]), label="noise scale σ_n")
    xi = rng.standard_normal(model.n_params)
    value, delta = _estimate(
        impl, model, theta, inputs, xi, rho=rho, steps=steps, noise_scale=scale
    )
    if caps.variant in (None, "exact_norm"):
        ref = inc.inconsistency_ascent(
            model, theta, inputs, xi, rho=rho, steps=steps, noise_scale=scale
        )
        want_delta, want_value = ref.delta, ref.value
    else:
        want_delta = _declared_ascent(
            caps, model, theta, inputs, xi, rho=rho, steps=steps, noise_scale=scale
        )
        want_value = inc.batch_kl(model, theta, want_delta, inputs)
    tol = max(caps.tolerance, _rounding(caps, 256.0))
    expect_le(float(np.max(np.abs(delta - want_delta))) / rho, tol, what="|δ* - δ*_ref| / ρ")
    expect_le(abs(value - want_value), tol * want_value + 1e-15, what="|Ŝ - Ŝ_ref|")


@check(anchor=_A + " property 4")
def check_permutation_invariance(
    impl: InconsistencyEstimator, data: st.DataObject, caps: Capabilities
) -> None:
    """Permuting the examples of ``X`` leaves ``Ŝ`` unchanged (same ``ξ``)."""
    model, theta, inputs, rng = data.draw(models(), label="model")
    rho = _radius(data)
    perm = np.array(
        data.draw(st.permutations(range(inputs.shape[0])), label="permutation"), dtype=np.intp
    )
    xi = rng.standard_normal(model.n_params)
    a, _ = _estimate(impl, model, theta, inputs, xi, rho=rho, steps=2)
    b, _ = _estimate(impl, model, theta, inputs[perm], xi, rho=rho, steps=2)
    expect_le(abs(a - b), _allow(caps, 1e-9, scale=a) + 1e-15, what="|Ŝ(Xπ) - Ŝ(X)|")


@check(anchor=_A + " property 5")
def check_duplication_invariance(
    impl: InconsistencyEstimator, data: st.DataObject, caps: Capabilities
) -> None:
    """Duplicating every example leaves ``Ŝ`` unchanged (a mean over examples)."""
    model, theta, inputs, rng = data.draw(models(), label="model")
    rho = _radius(data)
    xi = rng.standard_normal(model.n_params)
    a, _ = _estimate(impl, model, theta, inputs, xi, rho=rho, steps=2)
    b, _ = _estimate(impl, model, theta, np.concatenate([inputs, inputs]), xi, rho=rho, steps=2)
    expect_le(abs(a - b), _allow(caps, 1e-9, scale=a) + 1e-15, what="|Ŝ([X; X]) - Ŝ(X)|")


@check(anchor=_A + " property 6 (function-space invariance)")
def check_bias_shift_invariance(
    impl: InconsistencyEstimator, data: st.DataObject, caps: Capabilities
) -> None:
    """M1: adding one constant to every class bias changes no prediction, hence not ``Ŝ``."""
    model, theta, inputs, rng = data.draw(models(kinds=("linear",)), label="linear model")
    rho = _radius(data)
    shift = data.draw(st.floats(-5.0, 5.0, allow_subnormal=False), label="bias shift")
    moved = theta.copy()
    moved[model.n_classes * model.n_inputs :] += shift
    xi = rng.standard_normal(model.n_params)
    a, _ = _estimate(impl, model, theta, inputs, xi, rho=rho, steps=2)
    b, _ = _estimate(impl, model, moved, inputs, xi, rho=rho, steps=2)
    expect_le(abs(a - b), _allow(caps, 1e-7, scale=a) + 1e-14, what="|Ŝ(θ + c·bias) - Ŝ(θ)|")


@check(anchor=_A + " T2: Ŝ -> (ρ²/2) λ_max(F)")
def check_fisher_limit(
    impl: InconsistencyEstimator, data: st.DataObject, caps: Capabilities
) -> None:
    """With ``K = 30``, ``ρ = 1e-3``: ``Ŝ / ((ρ²/2) λ_max(F)) in [0.9, 1.01]`` (T2)."""
    model, theta, inputs, rng = data.draw(models(), label="model")
    rho = 1e-3
    lam = float(np.linalg.eigvalsh(inc.fisher_softmax(model, theta, inputs))[-1])
    value, _ = _estimate(
        impl, model, theta, inputs, rng.standard_normal(model.n_params), rho=rho, steps=30
    )
    ratio = value / (0.5 * rho**2 * lam)
    expect(
        0.9 <= ratio <= 1.01,
        what="Ŝ / ((ρ²/2) λ_max(F)) at ρ = 1e-3, K = 30",
        measured=repr(ratio),
        allowed="[0.9, 1.01]",
    )


@check(anchor=_A + " property 7: Ŝ(2ρ)/Ŝ(ρ) -> 4")
def check_small_rho_scaling(
    impl: InconsistencyEstimator, data: st.DataObject, caps: Capabilities
) -> None:
    """``Ŝ(2ρ) / Ŝ(ρ) -> 4`` as ``ρ -> 0`` (within 5% at ``ρ = 1e-3``, ``K = 30``, shared ``ξ``)."""
    model, theta, inputs, rng = data.draw(models(), label="model")
    xi = rng.standard_normal(model.n_params)
    a, _ = _estimate(impl, model, theta, inputs, xi, rho=1e-3, steps=30)
    b, _ = _estimate(impl, model, theta, inputs, xi, rho=2e-3, steps=30)
    expect_close(b / a, 4.0, atol=0.2, what="Ŝ(2ρ) / Ŝ(ρ)")


# --------------------------------------------------------------------------------------------
# fisher


def _fisher(
    impl: FisherFn, model: inc.SoftmaxModel, theta: FloatArray, x: FloatArray
) -> FloatArray:
    out = to_numpy(impl(model, theta.copy(), x.copy()), what="F")
    p = model.n_params
    expect(out.shape == (p, p), what="shape of F", measured=out.shape, allowed=(p, p))
    expect(bool(np.all(np.isfinite(out))), what="F is finite", measured="NaN/inf", allowed="finite")
    return out


def _fscale(f: FloatArray) -> float:
    return max(1.0, float(np.max(np.abs(f))))


def _ftol(caps: Capabilities) -> float:
    """``tolerance``, or ``256·u`` of the declared precision when larger."""
    return max(caps.tolerance, _rounding(caps, 256.0))


@check("symmetric_psd", anchor=_A + " section 2")
def check_fisher_symmetric_psd(impl: FisherFn, data: st.DataObject, caps: Capabilities) -> None:
    """``F = Fᵀ`` and ``λ_min(F) >= -tol``."""
    model, theta, inputs, _ = data.draw(models(), label="model")
    f = _fisher(impl, model, theta, inputs)
    tol = _ftol(caps) * _fscale(f)
    expect_le(float(np.max(np.abs(f - f.T))), tol, what="max |F - Fᵀ|")
    expect_le(-float(np.linalg.eigvalsh(0.5 * (f + f.T))[0]), tol, what="-λ_min(F)")


@check("hessian_identity", anchor=_A + " T3: H = F for linear logits, any labels")
def check_fisher_hessian_identity(impl: FisherFn, data: st.DataObject, caps: Capabilities) -> None:
    """M1 (linear logits): ``F`` equals the central finite-difference Hessian of the
    cross-entropy for ANY labels (T3; ``h = 1e-4``, tolerance 1e-6 + tol)."""
    model, theta, inputs, rng = data.draw(models(kinds=("linear",)), label="linear model")
    labels = rng.integers(0, model.n_classes, size=inputs.shape[0])
    f = _fisher(impl, model, theta, inputs)
    h = 1e-4
    cols = [
        (
            inc.cross_entropy_gradient(model, theta + h * e, inputs, labels)
            - inc.cross_entropy_gradient(model, theta - h * e, inputs, labels)
        )
        / (2.0 * h)
        for e in np.eye(model.n_params)
    ]
    fd = np.array(cols)
    expect_le(
        float(np.max(np.abs(f - 0.5 * (fd + fd.T)))),
        1e-6 + _ftol(caps) * _fscale(f),
        what="max |F - Hessian_fd|",
    )


@check("quadratic_form", anchor=_A + " T1: K = ½δᵀFδ + O(||δ||³)")
def check_fisher_quadratic_form(impl: FisherFn, data: st.DataObject, caps: Capabilities) -> None:
    """``K_X(θ, εu) = ½ε² uᵀFu + O(ε³)`` at ``ε = 1e-3`` (T1): within 5% of ``K`` + 1e-14."""
    model, theta, inputs, rng = data.draw(models(), label="model")
    u = rng.standard_normal(model.n_params)
    delta = 1e-3 * u / float(np.linalg.norm(u))
    f = _fisher(impl, model, theta, inputs)
    kl = inc.batch_kl(model, theta, delta, inputs)
    expect_le(abs(0.5 * float(delta @ f @ delta) - kl), 0.05 * kl + 1e-14, what="|½δᵀFδ - K_X|")


@check("null_direction", anchor=_A + " property 6: bias shift changes nothing")
def check_fisher_null_direction(impl: FisherFn, data: st.DataObject, caps: Capabilities) -> None:
    """M1: the common-bias direction ``(0, …, 0, 1, …, 1)`` is in the null space of ``F``."""
    model, theta, inputs, _ = data.draw(models(kinds=("linear",)), label="linear model")
    f = _fisher(impl, model, theta, inputs)
    v = np.zeros(model.n_params)
    v[model.n_classes * model.n_inputs :] = 1.0
    expect_le(float(np.max(np.abs(f @ v))), _ftol(caps) * _fscale(f), what="max |F v_bias|")


@check("duplication", anchor=_A + " F is a mean")
def check_fisher_duplication(impl: FisherFn, data: st.DataObject, caps: Capabilities) -> None:
    """``F`` is a mean over examples: duplicating the batch changes nothing."""
    model, theta, inputs, _ = data.draw(models(), label="model")
    a = _fisher(impl, model, theta, inputs)
    b = _fisher(impl, model, theta, np.concatenate([inputs, inputs]))
    expect_le(float(np.max(np.abs(a - b))), _ftol(caps) * _fscale(a), what="|F([X; X]) - F(X)|")


@check("matches_reference", anchor=_A + " section 2 closed form")
def check_fisher_matches_reference(impl: FisherFn, data: st.DataObject, caps: Capabilities) -> None:
    """``F = (1/n) Σ_i J_iᵀ (diag p_i - p_i p_iᵀ) J_i`` (unique closed form)."""
    model, theta, inputs, _ = data.draw(models(), label="model")
    f = _fisher(impl, model, theta, inputs)
    want = inc.fisher_softmax(model, theta, inputs)
    expect_le(float(np.max(np.abs(f - want))), _ftol(caps) * _fscale(want), what="|F - F_ref|")


# --------------------------------------------------------------------------------------------
# sam perturbation


def _sam_inputs(data: st.DataObject) -> tuple[FloatArray, FloatArray]:
    n = data.draw(st.integers(1, 8), label="dimension P")
    theta = data.draw(float_arrays((n,), low=-3.0, high=3.0), label="parameters θ")
    return theta, data.draw(nonzero_float_arrays(n), label="gradient g (||g|| >= 1)")


def _eps(
    impl: SamPerturbation,
    theta: FloatArray,
    g: FloatArray,
    rho: float,
    adaptive: bool,
    shift: float = 0.01,
) -> FloatArray:
    out = to_numpy(
        impl(theta.copy(), g.copy(), rho=rho, adaptive=adaptive, shift=shift), what="perturbation ε"
    )
    expect(out.shape == g.shape, what="shape of ε", measured=out.shape, allowed=g.shape)
    return out


@check(anchor=_A + " baselines: SAM ε = ρ g/||g|| (Foret et al. 2021)")
def check_sam_direction(impl: SamPerturbation, data: st.DataObject, caps: Capabilities) -> None:
    """SAM: ``||ε|| = ρ`` and ``ε`` points along ``+g`` (ascent), ``cos(ε, g) = 1``."""
    theta, g = _sam_inputs(data)
    rho = data.draw(st.floats(1e-3, 2.0, allow_subnormal=False), label="radius ρ")
    eps = _eps(impl, theta, g, rho, False)
    guard = inc.NORM_EPS / float(np.linalg.norm(g))  # the 1e-12 added to ||g||
    expect_le(
        _rel(float(np.linalg.norm(eps)), rho), _allow(caps, 1e-9) + guard, what="| ||ε|| - ρ | / ρ"
    )
    cos = float(eps @ g) / (float(np.linalg.norm(eps)) * float(np.linalg.norm(g)))
    expect_close(cos, 1.0, atol=_allow(caps, 1e-9), what="cos(ε, g)")


@check("zero_radius", anchor=_A + " property 8")
def check_sam_zero_radius(impl: SamPerturbation, data: st.DataObject, caps: Capabilities) -> None:
    """``ρ = 0`` gives ``ε = 0`` (SAM and ASAM reduce to the base step)."""
    theta, g = _sam_inputs(data)
    adaptive = data.draw(st.booleans(), label="adaptive")
    eps = _eps(impl, theta, g, 0.0, adaptive)
    expect_le(float(np.max(np.abs(eps))), 0.0, what="max |ε| at ρ = 0")


@check("scale_invariance", anchor="ε depends on the direction of g only")
def check_sam_scale_invariance(
    impl: SamPerturbation, data: st.DataObject, caps: Capabilities
) -> None:
    """``ε(c g) = ε(g)`` for ``c > 0`` (only the direction of ``g`` matters; SAM and ASAM)."""
    theta, g = _sam_inputs(data)
    c = data.draw(st.floats(1e-3, 1e3, allow_subnormal=False), label="scale c")
    adaptive = data.draw(st.booleans(), label="adaptive")
    a = _eps(impl, theta, g, 0.5, adaptive)
    b = _eps(impl, theta, c * g, 0.5, adaptive)
    # up to the 1e-12 guard added to the norm: relative effect 1e-12 / ||T c g||
    guard = inc.NORM_EPS / (
        min(1.0, c) * float(np.linalg.norm(g)) * min(1.0, float(np.min(np.abs(theta) + 0.01)))
    )
    expect_le(
        float(np.max(np.abs(a - b))),
        (_allow(caps, 1e-9) + 2.0 * guard) * (1.0 + float(np.max(np.abs(a)))),
        what="|ε(cg) - ε(g)|",
    )


@check(anchor=_A + " baselines: ASAM ε = ρ T² g/||T g|| (Kwon et al. 2021)")
def check_asam_normalised(impl: SamPerturbation, data: st.DataObject, caps: Capabilities) -> None:
    """ASAM: ``||T⁻¹ε|| = ρ`` with ``T = diag(|θ| + η)`` and ``ε = ρ T² g / ||T g||``."""
    theta, g = _sam_inputs(data)
    rho = data.draw(st.floats(1e-3, 2.0, allow_subnormal=False), label="radius ρ")
    shift = data.draw(st.floats(0.0, 0.5, allow_subnormal=False), label="shift η")
    scale = np.abs(theta) + shift
    if float(np.min(scale)) < 1e-6:
        scale = scale + 1e-3
        shift += 1e-3
    eps = _eps(impl, theta, g, rho, True, shift)
    guard = inc.NORM_EPS / float(np.linalg.norm(scale * g))  # the 1e-12 added to ||T g||
    expect_le(
        _rel(float(np.linalg.norm(eps / scale)), rho),
        _allow(caps, 1e-9) + guard,
        what="| ||T⁻¹ε|| - ρ | / ρ",
    )
    want = inc.sam_perturbation(theta, g, rho=rho, adaptive=True, shift=shift)
    expect_le(
        float(np.max(np.abs(eps - want))),
        _allow(caps, 1e-9, scale=rho * max(1.0, float(np.max(scale)) ** 2)),
        what="|ε - ρT²g/||Tg|| |",
    )


# --------------------------------------------------------------------------------------------
# iam_de


def _de_case(
    data: st.DataObject, *, kinds: tuple[inc.ModelKind, ...] = ("linear", "mlp")
) -> tuple[inc.SoftmaxModel, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, int]:
    model, theta, inputs, rng = data.draw(models(kinds=kinds), label="model")
    labels = rng.dirichlet(np.ones(model.n_classes), size=inputs.shape[0])
    unlabeled = rng.standard_normal((data.draw(st.integers(1, 6), label="m"), model.n_inputs))
    size = data.draw(st.floats(1e-3, 0.5, allow_subnormal=False), label="||δ||")
    delta = rng.standard_normal(model.n_params)
    delta *= size / float(np.linalg.norm(delta))
    sign = data.draw(st.sampled_from([-1, 1]), label="sign s")
    return model, theta, inputs, labels, unlabeled, delta, sign


def _de_step(
    impl: IAMDEStep,
    model: inc.SoftmaxModel,
    theta: FloatArray,
    inputs: FloatArray,
    targets: FloatArray,
    unlabeled: FloatArray,
    delta: FloatArray,
    sign: int,
    config: inc.IAMDEConfig,
    optimizer: inc.SGDConfig,
) -> tuple[FloatArray, FloatArray]:
    new, nxt = impl(
        model,
        theta.copy(),
        inputs.copy(),
        targets.copy(),
        unlabeled.copy(),
        delta.copy(),
        sign=sign,
        config=config,
        optimizer=optimizer,
    )
    a, b = to_numpy(new, what="θ'"), to_numpy(nxt, what="δ'")
    p = model.n_params
    expect(a.shape == (p,), what="shape of θ'", measured=a.shape, allowed=(p,))
    expect(b.shape == (p,), what="shape of δ'", measured=b.shape, allowed=(p,))
    return a, b


def _de_config(
    data: st.DataObject, caps: Capabilities, *, beta: float | None = None
) -> inc.IAMDEConfig:
    rho = data.draw(st.floats(1e-3, 1.0, allow_subnormal=False), label="radius ρ")
    if beta is None:
        beta = data.draw(st.floats(0.1, 5.0, allow_subnormal=False), label="weight β")
    return inc.IAMDEConfig(rho=rho, beta=beta, delta_ema=_ema(caps))


def _ema(caps: Capabilities) -> float:
    """``μ_δ`` of the declared IAM-DE variant (0.9 for ``ema``, else 0)."""
    return 0.9 if (caps.variant or "").startswith("ema") else 0.0


def _de_fresh(
    caps: Capabilities, nxt: FloatArray, delta: FloatArray, config: inc.IAMDEConfig
) -> FloatArray:
    """The fresh ascent part ``(δ' - μ_δ δ) / (1 - μ_δ)`` of the returned state."""
    mu = config.delta_ema
    out: FloatArray = (nxt - mu * delta) / (1.0 - mu)
    return out


def _de_direction(
    model: inc.SoftmaxModel,
    theta: FloatArray,
    unlabeled: FloatArray,
    delta: FloatArray,
    sign: int,
    config: inc.IAMDEConfig,
) -> FloatArray:
    """``g_δ = β s ∇_d K_{X_u}(θ, d)`` at ``d = s δ`` (recomputed from ``batch_kl_gradient``)."""
    out: FloatArray = (
        config.beta * sign * inc.batch_kl_gradient(model, theta, sign * delta, unlabeled)
    )
    return out


_PLAIN = inc.SGDConfig(learning_rate=0.1, momentum=0.0, weight_decay=0.0)


@check("beta_zero_is_sgd", anchor=_A + " property 8 (beta = 0 reduces to the base step)")
def check_de_beta_zero_is_sgd(impl: IAMDEStep, data: st.DataObject, caps: Capabilities) -> None:
    """``β = 0``: ``θ' = θ - η ∇L(θ)`` (the base step; Kim, Kim, Lee, ICML 2026 property 8 for IAM-D)."""
    model, theta, x, y, xu, delta, sign = _de_case(data)
    rate = data.draw(st.floats(1e-3, 1.0, allow_subnormal=False), label="learning rate η")
    sgd = inc.SGDConfig(learning_rate=rate, momentum=0.0, weight_decay=0.0)
    new, _ = _de_step(
        impl, model, theta, x, y, xu, delta, sign, _de_config(data, caps, beta=0.0), sgd
    )
    want = theta - rate * inc.cross_entropy_gradient(model, theta, x, y)
    expect_le(
        float(np.max(np.abs(new - want))),
        max(caps.tolerance, _rounding(caps, 256.0)) * (1.0 + float(np.max(np.abs(want)))),
        what="|θ'(β = 0) - SGD step|",
    )


@check("feasible", anchor=_A + " A2 IAM-DE [code]: delta <- rho grad_delta / ||grad_delta||")
def check_de_feasible(impl: IAMDEStep, data: st.DataObject, caps: Capabilities) -> None:
    """``||δ'||₂ = ρ`` (1e-9 relative) when ``β > 0`` (normalised ascent direction); under
    ``ema`` the fresh part ``(δ' - 0.9 δ) / 0.1``, under ``eps_in_root`` ``ρ ||g_δ|| /
    sqrt(||g_δ||² + 1e-12)``."""
    model, theta, x, y, xu, delta, sign = _de_case(data, kinds=("mlp",))
    cfg = _de_config(data, caps)
    _, nxt = _de_step(impl, model, theta, x, y, xu, delta, sign, cfg, _PLAIN)
    g = _de_direction(model, theta, xu, delta, sign, cfg)
    radius = cfg.rho * float(np.linalg.norm(g)) / _normaliser(caps, g)
    fresh = _de_fresh(caps, nxt, delta, cfg)
    expect_le(
        _rel(float(np.linalg.norm(fresh)), radius),
        _allow(caps, 1e-9) / (1.0 - cfg.delta_ema),
        what="| ||δ'|| - ρ | / ρ" if cfg.delta_ema == 0 else "| ||(δ' - 0.9 δ)/0.1|| - ρ | / ρ",
    )


@check(
    "gradient_finite_differences",
    anchor=_A + " property 9: gradient of L + beta K with theta in both branches",
)
def check_de_gradient_finite_differences(
    impl: IAMDEStep, data: st.DataObject, caps: Capabilities
) -> None:
    """``(θ - θ')/η`` equals central finite differences (``h = 1e-5``) of
    ``L(θ) + β K_{X_u}(θ, sδ)`` with ``δ`` frozen and ``θ`` in both KL branches (property 9)."""
    model, theta, x, y, xu, delta, sign = _de_case(data)
    cfg = _de_config(data, caps)
    new, _ = _de_step(impl, model, theta, x, y, xu, delta, sign, cfg, _PLAIN)
    got = (theta - new) / _PLAIN.learning_rate
    used = sign * delta

    def total(th: FloatArray) -> float:
        return inc.cross_entropy(model, th, x, y) + cfg.beta * inc.batch_kl(model, th, used, xu)

    h = 1e-5
    fd = np.array(
        [(total(theta + h * e) - total(theta - h * e)) / (2.0 * h) for e in np.eye(theta.size)]
    )
    scale = max(1.0, float(np.max(np.abs(fd))))
    expect_le(
        float(np.max(np.abs(got - fd))),
        _allow(caps, 1e-6, c=256.0, scale=scale),
        what="|g_θ - finite differences|",
    )


@check("sign_symmetry", anchor=_A + " A2 IAM-DE [code]: random sign, theta +- delta")
def check_de_sign_symmetry(impl: IAMDEStep, data: st.DataObject, caps: Capabilities) -> None:
    """Only ``sδ`` enters the step: ``(δ, +1)`` and ``(-δ, -1)`` give the same ``θ'`` and
    opposite ``δ'`` (``∇_δ`` carries the sign)."""
    model, theta, x, y, xu, delta, _ = _de_case(data, kinds=("mlp",))
    cfg = _de_config(data, caps)
    a, da = _de_step(impl, model, theta, x, y, xu, delta, 1, cfg, _PLAIN)
    b, db = _de_step(impl, model, theta, x, y, xu, -delta, -1, cfg, _PLAIN)
    expect_le(
        float(np.max(np.abs(a - b))),
        _allow(caps, 1e-12, scale=1.0 + float(np.max(np.abs(a)))),
        what="|θ'(δ, +1) - θ'(-δ, -1)|",
    )
    expect_le(
        float(np.max(np.abs(da + db))),
        _allow(caps, 1e-12, scale=cfg.rho),
        what="|δ'(δ, +1) + δ'(-δ, -1)|",
    )


@check(
    "power_iteration", anchor=_A + " A1/T5: one normalised ascent step = one power iteration on F"
)
def check_de_power_iteration(impl: IAMDEStep, data: st.DataObject, caps: Capabilities) -> None:
    """For ``||δ|| = 1e-4`` and either sign, ``cos(δ', F δ) >= 1 - 1e-4`` (T5: one IAM-DE step
    moves the state like one power-iteration step on the Fisher of ``X_u``)."""
    model, theta, x, y, xu, delta, sign = _de_case(data)
    small = 1e-4 * delta / float(np.linalg.norm(delta))
    f_delta = inc.fisher_softmax(model, theta, xu) @ small
    if float(np.linalg.norm(f_delta)) <= 1e-12 * float(np.linalg.norm(small)):
        return  # δ in the null space of F: no direction to follow
    cfg = _de_config(data, caps)
    _, nxt = _de_step(impl, model, theta, x, y, xu, small, sign, cfg, _PLAIN)
    fresh = _de_fresh(caps, nxt, small, cfg)  # under ema the fresh part (δ' - 0.9 δ) / 0.1
    cos = float(fresh @ f_delta) / (float(np.linalg.norm(fresh)) * float(np.linalg.norm(f_delta)))
    expect(
        cos >= 1.0 - max(1e-4, _rounding(caps, 1024.0)),
        what="cos(δ', F δ) at ||δ|| = 1e-4",
        measured=repr(cos),
        allowed=">= 1 - 1e-4",
    )


@check("label_free", anchor=_A + " property 2")
def check_de_label_free(impl: IAMDEStep, data: st.DataObject, caps: Capabilities) -> None:
    """``δ'`` does not depend on the labels (property 2): other targets, same ``δ'``."""
    model, theta, x, y, xu, delta, sign = _de_case(data)
    cfg = _de_config(data, caps)
    other = np.roll(y, 1, axis=1)
    _, a = _de_step(impl, model, theta, x, y, xu, delta, sign, cfg, _PLAIN)
    _, b = _de_step(impl, model, theta, x, other, xu, delta, sign, cfg, _PLAIN)
    expect_le(
        float(np.max(np.abs(a - b))),
        _allow(caps, 1e-12, scale=cfg.rho),
        what="|δ'(y) - δ'(y_other)|",
    )


@check("matches_reference", anchor=_A + " A2 IAM-DE (deterministic given delta and sign)")
def check_de_matches_reference(impl: IAMDEStep, data: st.DataObject, caps: Capabilities) -> None:
    """Given ``(δ, s)`` the step is deterministic: ``θ'`` and ``δ'`` equal the reference's
    (momentum and weight decay included)."""
    model, theta, x, y, xu, delta, sign = _de_case(data)
    cfg = _de_config(data, caps)
    sgd = inc.SGDConfig(learning_rate=0.05, momentum=0.9, weight_decay=1e-3)
    new, nxt = _de_step(impl, model, theta, x, y, xu, delta, sign, cfg, sgd)
    ref = inc.iam_de_step(model, theta, x, y, xu, delta, sign=sign, config=cfg, optimizer=sgd)
    want = np.asarray(ref.next_delta)
    if (caps.variant or "").endswith("eps_in_root"):  # the declared normaliser, recomputed
        g = _de_direction(model, theta, xu, delta, sign, cfg)
        mu = cfg.delta_ema
        want = mu * delta + (1.0 - mu) * cfg.rho * g / _normaliser(caps, g)
    tol = max(caps.tolerance, _rounding(caps, 256.0))
    expect_le(
        float(np.max(np.abs(new - ref.theta))),
        tol * (1.0 + float(np.max(np.abs(ref.theta)))),
        what="|θ' - θ'_ref|",
    )
    expect_le(float(np.max(np.abs(nxt - want))), tol * cfg.rho, what="|δ' - δ'_ref|")


# --------------------------------------------------------------------------------------------
# suites


def _adapt_estimator(obj: Any) -> InconsistencyEstimator:
    if not callable(obj):
        raise TypeError(f"inconsistency.estimator: expected a callable, got {type(obj).__name__}")

    def estimator(
        model: inc.SoftmaxModel,
        theta: FloatArray,
        inputs: FloatArray,
        noise: FloatArray,
        /,
        *,
        rho: float,
        steps: int,
        noise_scale: float,
    ) -> tuple[float, FloatArray]:
        out = obj(model, theta, inputs, noise, rho=rho, steps=steps, noise_scale=noise_scale)
        if hasattr(out, "value") and hasattr(out, "delta"):
            return float(out.value), to_numpy(out.delta, what="δ*")
        if isinstance(out, tuple | list) and len(out) == 2:
            return float(to_numpy(out[0], what="Ŝ")), to_numpy(out[1], what="δ*")
        raise CheckFailure(
            "estimator output",
            measured=type(out).__name__,
            allowed="(value, delta) or an object with .value and .delta",
        )

    return estimator


def _adapt_de(obj: Any) -> IAMDEStep:
    if not callable(obj):
        raise TypeError(f"inconsistency.iam_de: expected a callable, got {type(obj).__name__}")

    def step(
        model: inc.SoftmaxModel,
        theta: FloatArray,
        inputs: FloatArray,
        targets: FloatArray,
        unlabeled: FloatArray,
        delta: FloatArray,
        /,
        *,
        sign: int,
        config: inc.IAMDEConfig,
        optimizer: inc.SGDConfig,
    ) -> tuple[FloatArray, FloatArray]:
        out = obj(
            model,
            theta,
            inputs,
            targets,
            unlabeled,
            delta,
            sign=sign,
            config=config,
            optimizer=optimizer,
        )
        if hasattr(out, "theta") and hasattr(out, "next_delta"):
            return to_numpy(out.theta, what="θ'"), to_numpy(out.next_delta, what="δ'")
        if isinstance(out, tuple | list) and len(out) == 2:
            return to_numpy(out[0], what="θ'"), to_numpy(out[1], what="δ'")
        raise CheckFailure(
            "IAM-DE output",
            measured=type(out).__name__,
            allowed="(theta, next_delta) or an object with .theta and .next_delta",
        )

    return step


def _callable(name: str) -> Any:
    def adapt(obj: Any) -> Any:
        if not callable(obj):
            raise TypeError(f"{name}: expected a callable, got {type(obj).__name__}")
        return obj

    return adapt


ESTIMATOR: Suite[InconsistencyEstimator] = Suite(
    name="inconsistency.estimator",
    protocol=InconsistencyEstimator,
    checks=(
        check_feasible_nonnegative,
        check_value_is_batch_kl,
        check_matches_reference,
        check_permutation_invariance,
        check_duplication_invariance,
        check_bias_shift_invariance,
        check_fisher_limit,
        check_small_rho_scaling,
    ),
    adapt=_adapt_estimator,
    variants=ESTIMATOR_VARIANTS,
    description="Local-inconsistency estimator A1 (model, θ, X, ξ, *, rho, steps, noise_scale) -> "
    "(Ŝ, δ*): feasibility, KL value, determinism, invariances, Fisher limit.",
)

FISHER: Suite[FisherFn] = Suite(
    name="inconsistency.fisher",
    protocol=FisherFn,
    checks=(
        check_fisher_symmetric_psd,
        check_fisher_hessian_identity,
        check_fisher_quadratic_form,
        check_fisher_null_direction,
        check_fisher_duplication,
        check_fisher_matches_reference,
    ),
    adapt=_callable("inconsistency.fisher"),
    description="Model Fisher of softmax classifiers (model, θ, X) -> F: PSD, = Hessian for "
    "linear logits, quadratic form of the KL, bias null direction, mean, closed form.",
)

SAM_PERTURBATION: Suite[SamPerturbation] = Suite(
    name="inconsistency.sam_perturbation",
    protocol=SamPerturbation,
    checks=(
        check_sam_direction,
        check_sam_zero_radius,
        check_sam_scale_invariance,
        check_asam_normalised,
    ),
    adapt=_callable("inconsistency.sam_perturbation"),
    description="SAM/ASAM perturbation (θ, g, *, rho, adaptive, shift) -> ε.",
)

IAM_DE: Suite[IAMDEStep] = Suite(
    name="inconsistency.iam_de",
    protocol=IAMDEStep,
    checks=(
        check_de_beta_zero_is_sgd,
        check_de_feasible,
        check_de_gradient_finite_differences,
        check_de_sign_symmetry,
        check_de_power_iteration,
        check_de_label_free,
        check_de_matches_reference,
    ),
    adapt=_adapt_de,
    variants=IAM_DE_VARIANTS,
    description="One IAM-DE step (model, θ, X, y, X_u, δ, *, sign, config, optimizer) -> "
    "(θ', δ'): base-step reduction, ||δ'|| = ρ, finite-difference gradient, sign symmetry, "
    "power-iteration direction, label-freeness, uniqueness.",
)

SUITES = (ESTIMATOR, FISHER, SAM_PERTURBATION, IAM_DE)
