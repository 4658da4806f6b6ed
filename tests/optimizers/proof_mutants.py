"""Mutant table of the optimizers theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from reference import optimizers as opt
from reference._arrays import FloatArray
from reference.optimizers.polar import NS_STEPS
from tests._proof_mutants import ProofMutant

__all__ = ["MUTANTS"]


def lion_without_decay(**kwargs: Any) -> Any:
    """Lion that drops its decoupled weight decay."""
    kwargs["weight_decay"] = 0.0
    return opt.lion(**kwargs)


def muon_without_nesterov(**kwargs: Any) -> Any:
    """Muon that ignores ``nesterov=True`` (plain heavy-ball momentum)."""
    kwargs["nesterov"] = False
    return opt.muon(**kwargs)


def ascent_lmo(d: Any, *, radius: float, which: Any) -> FloatArray:
    """The LMO returning the maximiser of ``<d, v>`` (sign flipped)."""
    return -np.asarray(opt.lmo(d, radius=radius, which=which))


def unconstrained_sfw(**kwargs: Any) -> Any:
    """SFW with a radius 10 times the requested one (the constraint set mis-scaled)."""
    kwargs["radius"] = 10.0 * kwargs.get("radius", 1.0)
    return opt.sfw(**kwargs)


def short_newton_schulz(matrix: Any, **kwargs: Any) -> FloatArray:
    """Newton-Schulz with one iteration fewer than requested."""
    kwargs["steps"] = kwargs.get("steps", NS_STEPS) - 1
    return opt.newton_schulz(matrix, **kwargs)


def unstabilised_lgi_details(f: Any, theta: Any, base: float, **kwargs: Any) -> Any:
    """LGI with the stabiliser ``ζ`` dropped from the denominator."""
    kwargs["zeta"] = 0.0
    return opt.lgi_details(f, theta, base, **kwargs)


def complement_lgi(f: Any, theta: Any, base: float, **kwargs: Any) -> float:
    """``1 - ρ``: the alignment reported for the incoherence."""
    return 1.0 - float(opt.lgi(f, theta, base, **kwargs))


def double_brake_s_adam(**kwargs: Any) -> Any:
    """S-Adam applying the brake with ``2λ``."""
    kwargs["lgi_lambda"] = 2.0 * kwargs.get("lgi_lambda", 0.0)
    return opt.s_adam(**kwargs)


def adam_without_decay(**kwargs: Any) -> Any:
    """AdamW that ignores ``weight_decay``."""
    kwargs["weight_decay"] = 0.0
    return opt.adam(**kwargs)


def lion_vr_no_correction(**kwargs: Any) -> Any:
    """Lion-VR whose STORM weight is always 1 (the correction term dropped: plain clipped
    gradients)."""
    return opt.lion_vr(**{**kwargs, "a": 1.0})


def lion_vr_estimator_clip(**kwargs: Any) -> Any:
    """Lion-VR clipping the estimator instead of each gradient."""
    return opt.lion_vr(**{**kwargs, "clip": "estimator"})


def sfw_vr_half_power_step(**kwargs: Any) -> Any:
    """SFW-VR whose default step is ``(t+1)^(-1/2)`` instead of ``(t+1)^(-2/3)``."""
    base = opt.sfw_vr(**kwargs)
    if kwargs.get("step_size") is not None:
        return base
    counter = {"t": 0}

    def update(grads: Any, state: Any, params: Any = None, *, prev_grads: Any = None) -> Any:
        t = counter["t"]
        counter["t"] += 1
        fixed = opt.sfw_vr(**{**kwargs, "step_size": (t + 1) ** -0.5})
        return fixed.update(grads, state, params, prev_grads=prev_grads)

    return opt.Optimizer(base.init, update)


def muon_vr_unscaled(
    *,
    learning_rate: float = 0.02,
    weight_decay: float = 1.0,
    exact_polar: bool = False,
    **kwargs: Any,
) -> Any:
    """Muon-VR without the shape scale ``max(1, m/n)^(1/2)`` of the radius."""
    return opt.sfw_vr(
        which="spectral",
        radius=1.0 / weight_decay,
        step_size=learning_rate * weight_decay,
        polar="exact" if exact_polar else "newton_schulz",
        **kwargs,
    )


def prox_sgd_threshold_lr_only(**kwargs: Any) -> Any:
    """Prox-SGD soft-thresholding by ``l1`` instead of ``lr l1``."""
    lr = kwargs.get("learning_rate", 0.01)
    return opt.prox_sgd(**{**kwargs, "l1": kwargs.get("l1", 1e-4) / lr})


def damping_uncapped(rho: float, *, lgi_lambda: float, cap: float = 10.0) -> float:
    """The brake without the cap: ``exp(-lambda rho)``."""
    del cap
    return float(np.exp(-lgi_lambda * rho))


def sfw_unclipped_momentum(**kwargs: Any) -> Any:
    """SFW whose momentum ``m_t`` mixes the raw gradient (only ``d_t`` sees the clipped one)."""
    clipped = opt.sfw(**kwargs)
    tau = kwargs.get("clip_tau", float("inf"))

    def update(grads: Any, state: Any, params: Any = None) -> Any:
        update_, new_state = clipped.update(grads, state, params)
        g = np.asarray(grads, dtype=np.float64)
        size = float(np.linalg.norm(g))
        if size <= tau:
            return update_, new_state
        b2 = kwargs.get("b2")
        beta = 1.0 - (state.count + 1) ** -0.5 if b2 is None else b2
        shift = (1.0 - beta) * (g - g * (tau / size))
        momentum = (np.asarray(new_state.momentum[0]) + shift,)
        return update_, type(new_state)(count=new_state.count, momentum=momentum)

    return type(clipped)(init=clipped.init, update=update)


def sfw_vr_one_minus_a(**kwargs: Any) -> Any:
    """The STORM correction weighted by ``a`` instead of ``1 - a`` (a constant ``a`` read as
    the momentum rather than the mixing weight)."""
    if kwargs.get("a") is not None:
        kwargs["a"] = 1.0 - kwargs["a"]
    return opt.sfw_vr(**kwargs)


def lion_vr_estimator_unclipped(**kwargs: Any) -> Any:
    """Lion-VR whose ``clip="estimator"`` placement forgets the clip (the estimator runs
    unclipped)."""
    if kwargs.get("clip") == "estimator":
        kwargs["clip_tau"] = float("inf")
    return opt.lion_vr(**kwargs)


def _m(name: str, why: str, algorithm: str, target: str, *catches: str) -> ProofMutant:
    return ProofMutant(
        family="optimizers",
        name=name,
        why=why,
        algorithm=algorithm if ":" in algorithm else f"reference.optimizers:{algorithm}",
        target=f"{__name__}:{target}",
        catches=tuple(f"optimizers.{c}" for c in catches),
    )


MUTANTS: tuple[ProofMutant, ...] = (
    _m(
        "prox_sgd: threshold l1",
        "the soft threshold l1 instead of lr l1",
        "prox_sgd",
        "prox_sgd_threshold_lr_only",
        "prox_sgd",
    ),
    _m(
        "damping: no cap",
        "the cap on rho forgotten",
        "damping",
        "damping_uncapped",
        "damping",
    ),
    _m(
        "sfw_vr: step (t+1)^(-1/2)",
        "the default step schedule's exponent -1/2 for -2/3",
        "sfw_vr",
        "sfw_vr_half_power_step",
        "vr_balls",
    ),
    _m(
        "muon_vr: no shape scale",
        "the spectral radius without max(1, m/n)^(1/2)",
        "muon_vr",
        "muon_vr_unscaled",
        "vr_balls",
    ),
    _m(
        "lion_vr: no STORM correction",
        "the estimator's correction term dropped (a = 1)",
        "lion_vr",
        "lion_vr_no_correction",
        "lion_vr",
    ),
    _m(
        "lion_vr: clip the estimator",
        "the clip applied to the estimator, not to each gradient",
        "lion_vr",
        "lion_vr_estimator_clip",
        "lion_vr",
    ),
    _m(
        "lion: no weight decay", "decoupled decay dropped", "lion", "lion_without_decay", "lion_sfw"
    ),
    _m(
        "muon: nesterov ignored",
        "heavy ball for Nesterov",
        "muon",
        "muon_without_nesterov",
        "muon_sfw",
    ),
    _m(
        "lmo: sign",
        "maximiser for minimiser",
        "lmo",
        "ascent_lmo",
        "lmo_optimality",
        "sfw_gap_rate",
    ),
    _m(
        "sfw: radius x10",
        "constraint set mis-scaled",
        "sfw",
        "unconstrained_sfw",
        "sfw_feasibility",
    ),
    _m(
        "newton_schulz: one step short",
        "an iteration fewer",
        "reference.optimizers.polar:newton_schulz",
        "short_newton_schulz",
        "ns_spectral_identity",
    ),
    _m(
        "lgi_details: ζ dropped",
        "stabiliser left out",
        "lgi_details",
        "unstabilised_lgi_details",
        "lgi_range",
    ),
    _m(
        "lgi: 1 - ρ",
        "alignment for incoherence",
        "lgi",
        "complement_lgi",
        "lgi_affine",
        "lgi_range",
    ),
    _m(
        "s_adam: brake 2λ",
        "λ applied twice",
        "s_adam",
        "double_brake_s_adam",
        "s_adam_rescaling",
    ),
    _m(
        "adam: no weight decay",
        "AdamW's decay ignored",
        "adam",
        "adam_without_decay",
        "s_adam_reduction",
    ),
    _m(
        "sfw: momentum of raw gradients",
        "R1 clipping applied to d_t only; the momentum m_t keeps the unclipped gradient",
        "sfw",
        "sfw_unclipped_momentum",
        "sfw_replay",
    ),
    _m(
        "sfw_vr: a for 1 - a",
        "the STORM correction (1 - a)(m - clip(g')) weighted by a",
        "sfw_vr",
        "sfw_vr_one_minus_a",
        "sfw_vr_replay",
    ),
    _m(
        "lion_vr: estimator unclipped",
        "the estimator placement of the clip skips the clip",
        "lion_vr",
        "lion_vr_estimator_unclipped",
        "vr_variants_replay",
    ),
)
