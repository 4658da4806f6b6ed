"""Parameter-effect rows of the activations family (the tables are assembled, and the mutants
generated, by ``tests/_param_mutants.py``): ``PARAM_EFFECTS``, its generated "keyword ignored"
mutants and the checks that must fail each; ``NEUTRAL``, keywords documented not to change the
result on the checks' instances; ``UNCHECKED``, keywords no check notices yet.  Each row of the
last two is ``(algorithm, keyword, reason)``."""

from __future__ import annotations

from tests._param_rows import GENERATOR, ParamEffect, Row, kw, one_less, rows, scaled, use_default

__all__ = ["PARAM_EFFECTS", "UNCHECKED"]


PARAM_EFFECTS: tuple[ParamEffect, ...] = (
    kw(
        "activations",
        "activations:dwh_sign",
        "tol",
        "2 tol",
        scaled(2.0),
        "dwh_steps counts the steps to 1 - l_K <= tol at the tol it passed",
        "activations.dwh_steps",
    ),
    kw(
        "activations",
        "activations:fit_rational",
        "degrees",
        "default (5, 4)",
        use_default,
        "fit_rational fits degrees (3, 2) and (4, 3) too",
        "activations.fit_rational",
    ),
    kw(
        "activations",
        "activations:fit_rational",
        "version",
        "default 'A'",
        use_default,
        "fit_rational fits version B too",
        "activations.fit_rational",
    ),
    kw(
        "activations",
        "activations:fit_rational",
        "points",
        "default 2001",
        use_default,
        "fit_rational asks 301 and 501 nodes",
        "activations.fit_rational",
    ),
    kw(
        "activations",
        "activations:fit_rational",
        "interval",
        "default (-3, 3)",
        use_default,
        "fit_rational asks (-1, 1) and (-2, 4)",
        "activations.fit_rational",
    ),
    kw(
        "activations",
        "activations:fit_rational",
        "tol",
        "100 tol",
        scaled(100.0),
        "fit_rational compares the fit's optimality with the tol it passed",
        "activations.fit_rational",
    ),
    kw(
        "activations",
        "activations:exp_scaling_squaring",
        "q",
        "default 3",
        use_default,
        "the check asks Pade orders 1 and 5",
        "activations.exp_scaling_squaring",
    ),
    kw(
        "activations",
        "activations:exp_scaling_squaring",
        "s",
        "default 4",
        use_default,
        "the check asks 0, 2 and 5 squarings",
        "activations.exp_scaling_squaring",
    ),
    kw(
        "activations",
        "activations:minimax_poly_abs_lp",
        "grid_size",
        "2 grid_size",
        scaled(2),
        "the Bernstein check compares the LP's value on the grid it asked for",
        "activations.bernstein",
    ),
    kw(
        "activations",
        "activations:rational_grad",
        "version",
        "default 'A'",
        use_default,
        "the gradient check asks version B too",
        "activations.gradients",
    ),
    kw(
        "activations",
        "activations:pth_root",
        "alpha0",
        "alpha0/2",
        scaled(0.5),
        "the error recursion starts from the alpha_0 passed",
        "activations.pth_root_alphas",
        "activations.pth_root_error",
        "activations.pth_root_quadratic",
    ),
    kw(
        "activations",
        "activations:pth_root",
        "layers",
        "layers - 1",
        one_less,
        "the error after k layers is checked for k = 0..5",
        "activations.pth_root_alphas",
        "activations.pth_root_error",
        "activations.pth_root_quadratic",
    ),
    kw(
        "activations",
        "activations:tanh_halley",
        "layers",
        "layers - 1",
        one_less,
        "the check compares k Halley steps with their closed form",
        "activations.tanh_halley",
    ),
    kw(
        "activations",
        "activations:log_agm",
        "layers",
        "layers - 1",
        one_less,
        "the AGM error is checked after each number of steps",
        "activations.log_agm",
    ),
    kw(
        "activations",
        "activations:gelu_composite",
        "q",
        "q + 1",
        lambda old: old + 1,
        "the composite's error is compared with its bound at each (q, k) asked",
        "activations.gelu_composite",
    ),
    kw(
        "activations",
        "activations:gelu_composite",
        "squarings",
        "k + 1",
        lambda old: old + 1,
        "the composite's error is compared with its bound at each (q, k) asked",
        "activations.gelu_composite",
    ),
)

UNCHECKED: tuple[Row, ...] = (
    *rows(GENERATOR, "reference.activations:rational_init", "target", "degrees", "version"),
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
)
