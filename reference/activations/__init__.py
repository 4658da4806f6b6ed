"""Rational activations and the rational-approximation constructions behind their expressivity.

The family's public API. The code lives in:

* :mod:`reference.activations.rational` — Rational activations and the rational-approximation constructions behind their expressivity.

The torch fast path :mod:`reference.activations.fast_torch` is not imported here.
"""

from __future__ import annotations

from reference.activations.rational import (
    BERNSTEIN_BETA,
    RELU_INIT_P,
    RELU_INIT_Q,
    VERSIONS,
    DWHAbs,
    DWHComposite,
    NewmanAbs,
    PolyMinimax,
    RationalFit,
    RationalFunction,
    RationalGrad,
    Version,
    compose_rationals,
    dwh_abs,
    dwh_params,
    dwh_sign,
    dwh_step_map,
    exp_scaling_squaring,
    fit_rational,
    halley_abs,
    halley_map,
    halley_sign,
    halley_steps,
    minimax_poly_abs_lp,
    newman_abs,
    product_gadget,
    rational,
    rational_function,
    rational_grad,
    relu_init,
    true_rational,
    yarotsky_square,
)

__all__ = [
    "BERNSTEIN_BETA",
    "RELU_INIT_P",
    "RELU_INIT_Q",
    "VERSIONS",
    "DWHAbs",
    "DWHComposite",
    "NewmanAbs",
    "PolyMinimax",
    "RationalFit",
    "RationalFunction",
    "RationalGrad",
    "Version",
    "compose_rationals",
    "dwh_abs",
    "dwh_params",
    "dwh_sign",
    "dwh_step_map",
    "exp_scaling_squaring",
    "fit_rational",
    "halley_abs",
    "halley_map",
    "halley_sign",
    "halley_steps",
    "minimax_poly_abs_lp",
    "newman_abs",
    "product_gadget",
    "rational",
    "rational_function",
    "rational_grad",
    "relu_init",
    "true_rational",
    "yarotsky_square",
]
