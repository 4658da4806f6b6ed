"""Mutant table of the activations theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import erf as scipy_erf

from reference._arrays import FloatArray
from reference.activations import (
    DWHAbs,
    GeluPole,
    NewmanAbs,
    PolyMinimax,
    RationalFunction,
    RationalGrad,
    dwh_sign,
    exp_scaling_squaring,
    fit_rational,
    minimax_poly_abs_lp,
    pth_root,
    pth_root_alphas,
    rational,
    rational_grad,
    relu_init,
    yarotsky_square,
)
from tests._proof_mutants import ProofMutant

__all__ = ["MUTANTS"]


@dataclasses.dataclass(frozen=True)
class _Newman:
    """Newman's ``r_n`` with a chosen node ratio and node count (same evaluation as the library)."""

    n: int
    a: float
    nodes: int

    def __call__(self, x: object) -> FloatArray:
        xs = np.abs(np.asarray(x, dtype=np.float64))
        t = np.ones_like(xs)
        for k in range(self.nodes):
            node = self.a**k
            t = t * ((node - xs) / (node + xs))
        out: FloatArray = xs * (1.0 - t) / (1.0 + t)
        return out


def newman_fewer_nodes(n: int) -> _Newman:
    """Nodes ``a^k`` for ``k = 1..n-1`` only (``range(1, n)`` for ``range(n)``)."""
    return _Newman(n=n, a=math.exp(-1.0 / math.sqrt(n)), nodes=n - 1)


def newman_ratio_squared(n: int) -> NewmanAbs:
    """Node ratio ``exp(-2/sqrt n)`` (the square of Newman's)."""
    return NewmanAbs(n=n, a=math.exp(-2.0 / math.sqrt(n)))


def newman_ratio_1_over_n(n: int) -> NewmanAbs:
    """Node ratio ``exp(-1/n)`` (``n`` for ``sqrt n``): nodes bunched near 1."""
    return NewmanAbs(n=n, a=math.exp(-1.0 / n))


def minimax_degree_off_by_two(n: int, *, grid_size: int = 8001) -> PolyMinimax:
    """Solves for degree ``n - 2`` (the number of even coefficients miscounted)."""
    res = minimax_poly_abs_lp(max(n - 2, 0), grid_size=grid_size)
    return dataclasses.replace(res, degree=n)


def halley_wrong_denominator() -> RationalFunction:
    """``x (3 + x^2) / (1 + 2 x^2)``: a typo in the denominator."""
    return RationalFunction(num=np.array([0.0, 3.0, 0.0, 1.0]), den=np.array([1.0, 0.0, 2.0]))


def halley_steps_newton_schulz(lower: float, *, tol: float = 1e-15, max_iter: int = 10_000) -> int:
    """Counts Newton-Schulz steps ``x (3 - x^2)/2`` (quadratic, not cubic) instead of Halley's."""
    value, count = lower, 0
    while value < 1.0 - tol and count < max_iter:
        value = value * (3.0 - value * value) / 2.0
        count += 1
    return count


def dwh_params_wrong_constant(lower: float) -> tuple[float, float, float]:
    """``g = (8 (1 - l^2) / l^4)^{1/3}``: 8 for 4 in the DWH weight."""
    ell = float(lower)
    g = (8.0 * (1.0 - ell * ell) / ell**4) ** (1.0 / 3.0)
    root = math.sqrt(1.0 + g)
    a = root + 0.5 * math.sqrt(8.0 - 4.0 * g + 8.0 * (2.0 - ell * ell) / (ell * ell * root))
    b = (a - 1.0) ** 2 / 4.0
    return a, b, a + b - 1.0


def dwh_sign_halley_weights(l0: float, *, tol: float = 1e-15, max_iter: int = 50) -> Any:
    """Composes plain Halley steps ``(3, 1, 3)``: the dynamic weights never updated."""
    res = dwh_sign(l0, tol=tol, max_iter=max_iter)
    ell, params = float(l0), list[tuple[float, float, float]]()
    while 1.0 - ell > tol and len(params) < max_iter:
        params.append((3.0, 1.0, 3.0))
        ell = min(1.0, ell * (3.0 + ell * ell) / (1.0 + 3.0 * ell * ell))
    arr = np.array(params, dtype=np.float64).reshape(-1, 3)
    return dataclasses.replace(res, params=arr, iterations=len(params))


def dwh_abs_loose_stop(eps: float) -> DWHAbs:
    """Stops the composite at ``1 - l_K <= sqrt(eps)`` (the tolerance confused with its root)."""
    return DWHAbs(eps=eps, sign=dwh_sign(eps, tol=math.sqrt(eps)))


def yarotsky_one_layer_short(x: ArrayLike, m: int) -> FloatArray:
    """``m - 1`` sawtooth layers (off by one in the loop)."""
    return yarotsky_square(x, max(m - 1, 0))


def relu_init_swapped_q() -> tuple[FloatArray, FloatArray]:
    """Returns ``q = (2.383, 0)``: ``b_1`` and ``b_2`` swapped."""
    p, q = relu_init()
    return p, q[::-1].copy()


def rational_grad_no_sign(x: object, p: object, q: object, *, version: str = "A") -> RationalGrad:
    """Drops the sign factor from ``dσ/db_j``: ``sign(b_j)`` (version A) or ``sign(Q~)``
    (version B), i.e. the derivative of ``|u|`` taken as that of ``u``."""
    g = rational_grad(x, p, q, version=version)  # type: ignore[arg-type]
    xs = np.asarray(x, dtype=np.float64)
    b = np.asarray(q, dtype=np.float64)
    if version == "A":
        fixed = np.where(b < 0, -1.0, 1.0)
        return dataclasses.replace(g, dq=g.dq * fixed)
    inner = xs * np.polynomial.polynomial.polyval(xs, b) if b.size else np.zeros_like(xs)
    sgn = np.sign(inner)
    flip = np.where(sgn < 0, -1.0, 1.0)
    return dataclasses.replace(g, dq=g.dq * flip[..., None])


def rational_descending(x: object, p: object, q: object, *, version: str = "A") -> FloatArray:
    """Reads the numerator coefficients in descending order (``np.polyval``'s convention)."""
    return rational(x, np.asarray(p, dtype=np.float64)[::-1], q, version=version)  # type: ignore[arg-type]


def pth_root_unscaled_newton(x: ArrayLike, p: int, *, alpha0: float, layers: int) -> FloatArray:
    """Plain Newton ``f <- ((p-1) f + x / f^{p-1}) / p`` (``mu_k = 1``), scaled at the end."""
    xs = np.asarray(x, dtype=np.float64)
    f = np.ones_like(xs)
    for _ in range(layers):
        f = ((p - 1) * f + xs / f ** (p - 1)) / p
    last = float(pth_root_alphas(p, alpha0, layers)[-1])
    out: FloatArray = 2.0 * last / (1.0 + last) * f
    return out


def pth_root_no_final_scaling(x: ArrayLike, p: int, *, alpha0: float, layers: int) -> FloatArray:
    """Returns ``f_k`` without the factor ``2 alpha_k / (1 + alpha_k)``."""
    last = float(pth_root_alphas(p, alpha0, layers)[-1])
    out: FloatArray = pth_root(x, p, alpha0=alpha0, layers=layers) * (1.0 + last) / (2.0 * last)
    return out


def _reduced(large: Any, x: object, layers: int) -> FloatArray:
    """The library's range reduction around a mutant ``large(y, layers)`` for ``y >= 2``."""
    xs = np.asarray(x, dtype=np.float64)
    out = np.zeros_like(xs)
    big, small = xs >= 2.0, xs <= 0.5
    mid = ~(big | small)
    out[big] = large(xs[big], layers)
    out[small] = -large(1.0 / xs[small], layers)
    out[mid] = large(4.0 * xs[mid], layers) - large(np.array([4.0]), layers)[0]
    return out


def log_agm_harmonic(x: object, *, layers: int) -> FloatArray:
    """The harmonic mean ``2ab/(a+b)`` in place of the arithmetic one (a different mean)."""
    return _reduced(_harmonic_large, x, layers)


def _harmonic_large(y: FloatArray, layers: int) -> FloatArray:
    q = 1.0 / y
    theta2 = 2.0 * sum((q ** ((2 * n + 1) ** 2) for n in range(6)), np.zeros_like(q))
    theta3 = 1.0 + 2.0 * sum((q ** (4 * n * n) for n in range(1, 7)), np.zeros_like(q))
    a, b = theta3 * theta3, theta2 * theta2
    with np.errstate(all="ignore"):  # the harmonic-geometric pair can underflow to 0/0
        for _ in range(layers):
            a, b = 2.0 * a * b / (a + b), np.sqrt(a * b)
    out: FloatArray = math.pi / (4.0 * a)
    return out


def log_agm_theta2_halved(x: object, *, layers: int) -> FloatArray:
    """``theta_2`` without its factor 2 (``Σ q^{(2n+1)^2}``)."""
    return _reduced(_halved_large, x, layers)


def _halved_large(y: FloatArray, layers: int) -> FloatArray:
    q = 1.0 / y
    theta2 = sum((q ** ((2 * n + 1) ** 2) for n in range(6)), np.zeros_like(q))
    theta3 = 1.0 + 2.0 * sum((q ** (4 * n * n) for n in range(1, 7)), np.zeros_like(q))
    a, b = theta3 * theta3, theta2 * theta2
    for _ in range(layers):
        a, b = 0.5 * (a + b), np.sqrt(a * b)
    out: FloatArray = math.pi / (4.0 * a)
    return out


def tanh_newton(s: object, *, layers: int) -> FloatArray:
    """Newton's step ``t <- t - (1 - t^2) A`` (quadratic) in place of Halley's."""
    ss = np.asarray(s, dtype=np.float64)
    t = ss.copy()
    for _ in range(layers):
        t = t - (1.0 - t * t) * (np.arctanh(t) - ss)
    return t


def gelu_pole_no_cubic(*, branches: int = 8) -> GeluPole:
    """Ignores the cubic term: the pole of ``tanh(sqrt(2/pi) z)`` at ``i pi / (2 sqrt(2/pi))``."""
    z = 1j * math.pi / (2.0 * math.sqrt(2.0 / math.pi))
    w = np.sqrt(z * z - 1.0)
    return GeluPole(pole=z, branch=0, rho=float(max(abs(z + w), abs(z - w))))


def gelu_erf_form(x: object) -> FloatArray:
    """The erf GELU ``0.5 x (1 + erf(x / sqrt 2))`` (entire) in place of the tanh form."""
    xs = np.asarray(x, dtype=np.float64)
    out: FloatArray = 0.5 * xs * (1.0 + scipy_erf(xs / math.sqrt(2.0)))
    return out


def gelu_composite_half_argument(x: ArrayLike, *, q: int, squarings: int) -> FloatArray:
    """``x E/(1+E)`` with ``E = exp(s)``: the sigmoid's factor 2 (``tanh s = 2 sigma(2s) - 1``)
    forgotten."""
    xs = np.asarray(x, dtype=np.float64)
    u = math.sqrt(2.0 / math.pi) * (xs + 0.044715 * xs**3)
    big_e = np.asarray(exp_scaling_squaring(u, q, squarings), dtype=np.float64)
    out: FloatArray = xs * big_e / (1.0 + big_e)
    return out


def gelu_composite_params_pade_only(q: int, squarings: int) -> int:
    """Counts the Padé approximant's ``2q + 1`` coefficients and nothing else."""
    return 2 * q + 1


def halley_abs_one_short(x: ArrayLike, steps: int) -> FloatArray:
    """``halley_abs`` composing one step fewer (off by one in ``K``)."""
    from reference.activations import halley_abs

    return halley_abs(x, max(0, steps - 1))


def product_gadget_half(x: ArrayLike, y: ArrayLike) -> FloatArray:
    """``((x + y)² - (x - y)²) / 2`` (the quarter read as a half)."""
    xs, ys = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    out: FloatArray = ((xs + ys) ** 2 - (xs - ys) ** 2) / 2.0
    return out


def exp_one_squaring_short(x: ArrayLike, q: int = 3, s: int = 4) -> FloatArray:
    """Scaling by ``2^s`` but squaring only ``s - 1`` times (a square root of the result)."""
    from reference.activations import exp_scaling_squaring

    if s == 0:
        return exp_scaling_squaring(x, q, s)
    out: FloatArray = np.sqrt(exp_scaling_squaring(x, q, s))
    return out


def _geo(a: float, p: int) -> float:
    """``(a - a^p)/(1 - a)`` as ``a (1 + ... + a^(p-2))`` (no 0/0 at a = 1)."""
    return a * sum(a**i for i in range(p - 1))


def _alphas_with(p: int, alpha0: float, layers: int, mu_rule: Any, cap: bool = True) -> FloatArray:
    alpha, out = float(alpha0), [float(alpha0)]
    for _ in range(layers):
        mu = mu_rule(alpha, p)
        alpha = p * alpha / ((p - 1) * mu + mu ** (1 - p) * alpha**p)
        out.append(min(1.0, alpha) if cap else alpha)
    return np.array(out)


def pth_root_alphas_square_root_mu(p: int, alpha0: float, layers: int) -> FloatArray:
    """``mu_k`` with the square root for every ``p`` (the ``p = 2`` formula kept)."""
    return _alphas_with(p, alpha0, layers, lambda a, q: (_geo(a, q) / (q - 1)) ** 0.5)


def pth_root_alphas_no_p_minus_1(p: int, alpha0: float, layers: int) -> FloatArray:
    """``mu_k^p = (alpha - alpha^p)/(1 - alpha)``: the factor ``1/(p - 1)`` dropped."""
    return _alphas_with(p, alpha0, layers, lambda a, q: _geo(a, q) ** (1.0 / q))


def pth_root_alphas_shifted(p: int, alpha0: float, layers: int) -> FloatArray:
    """Off by one: ``alpha_1 .. alpha_{k+1}`` returned for ``alpha_0 .. alpha_k``."""
    full = np.asarray(pth_root_alphas(p, alpha0, layers + 1))
    return full[1:].copy()


def pth_root_alphas_float32(p: int, alpha0: float, layers: int) -> FloatArray:
    """The recurrence run in float32 (a loose inner precision)."""
    alpha, out = np.float32(alpha0), [float(alpha0)]
    one = np.float32(1.0)
    for _ in range(layers):
        geometric = sum(alpha**i for i in range(p - 1))
        mu = (alpha * geometric / np.float32(p - 1)) ** (one / np.float32(p))
        alpha = min(one, np.float32(p) * alpha / ((p - 1) * mu + mu ** (1 - p) * alpha**p))
        out.append(float(alpha))
    return np.array(out)


def fit_rational_linear_start(target: str, **kwargs: Any) -> Any:
    """The nonlinear least squares forgotten: the linearised start returned (one solver
    evaluation), with the fields of that start."""
    return _fit_with(target, max_nfev=1, **kwargs)


def fit_rational_loose(target: str, **kwargs: Any) -> Any:
    """The solver stopped at a loose inner tolerance (``ftol = xtol = 1e-3``)."""
    return _fit_with(target, ftol=1e-3, xtol=1e-3, **kwargs)


def _fit_with(
    target: str,
    *,
    degrees: tuple[int, int] = (5, 4),
    version: Any = "A",
    points: int = 2001,
    interval: tuple[float, float] = (-3.0, 3.0),
    max_iter: int = 2000,
    tol: float = 1e-6,
    **solver: Any,
) -> Any:
    from scipy.optimize import least_squares, lsq_linear

    from reference.activations import RationalFit
    from reference.activations.rational import _TARGETS

    m, n = degrees
    xs = np.linspace(interval[0], interval[1], points)
    ys = _TARGETS[target](xs)
    z = np.abs(xs) if version == "A" else xs
    design = np.hstack(
        [xs[:, None] ** np.arange(m + 1), -ys[:, None] * z[:, None] ** np.arange(1, n + 1)]
    )
    lower = np.concatenate([np.full(m + 1, -np.inf), np.zeros(n if version == "A" else 0)])
    lower = np.concatenate([lower, np.full(m + n + 1 - lower.size, -np.inf)])
    start = lsq_linear(design, ys, bounds=(lower, np.full(m + n + 1, np.inf))).x

    def residual(theta: FloatArray) -> FloatArray:
        out: FloatArray = rational(xs, theta[: m + 1], theta[m + 1 :], version=version) - ys
        return out

    def jacobian(theta: FloatArray) -> FloatArray:
        g = rational_grad(xs, theta[: m + 1], theta[m + 1 :], version=version)
        out: FloatArray = np.hstack([g.dp, g.dq])
        return out

    options = {"max_nfev": max_iter, **solver}
    theta = least_squares(residual, start, jac=jacobian, method="trf", **options).x
    err = residual(theta)
    optimality = float(np.max(np.abs(jacobian(theta).T @ err))) / points
    return RationalFit(
        p=theta[: m + 1],
        q=theta[m + 1 :],
        version=version,
        max_error=float(np.max(np.abs(err))),
        rms_error=float(np.sqrt(np.mean(err**2))),
        converged=optimality <= tol,
        iterations=0,
        optimality=optimality,
    )


def fit_rational_nodes_off_by_one(target: str, *, points: int = 2001, **kwargs: Any) -> Any:
    """The nodes built with ``points - 1`` (an off-by-one in the grid)."""
    return fit_rational(target, points=points - 1, **kwargs)


def fit_rational_rms_as_max(target: str, **kwargs: Any) -> Any:
    """``max_error`` reported as the root-mean-square error (a wrong norm)."""
    fit = fit_rational(target, **kwargs)
    return dataclasses.replace(fit, max_error=fit.rms_error)


def _m(name: str, why: str, algorithm: str, target: str, catches: tuple[str, ...]) -> ProofMutant:
    return ProofMutant(
        family="activations",
        name=name,
        why=why,
        algorithm=f"reference.activations:{algorithm}",
        target=f"{__name__}:{target}",
        catches=catches,
    )


MUTANTS = (
    _m(
        "halley_abs: K - 1 steps",
        "one composition fewer",
        "halley_abs",
        "halley_abs_one_short",
        ("activations.halley_abs",),
    ),
    _m(
        "product_gadget: / 2",
        "the quarter read as a half",
        "product_gadget",
        "product_gadget_half",
        ("activations.product_gadget",),
    ),
    _m(
        "exp_scaling_squaring: s - 1 squarings",
        "one squaring short after scaling by 2^s",
        "exp_scaling_squaring",
        "exp_one_squaring_short",
        ("activations.exp_scaling_squaring",),
    ),
    _m(
        "newman: n - 1 nodes",
        "the product over the nodes a^k stops one short",
        "newman_abs",
        "newman_fewer_nodes",
        ("activations.newman_constant",),
    ),
    _m(
        "newman: a = exp(-2/sqrt n)",
        "node ratio squared",
        "newman_abs",
        "newman_ratio_squared",
        ("activations.newman_constant",),
    ),
    _m(
        "newman: a = exp(-1/n)",
        "n for sqrt(n) in the node ratio",
        "newman_abs",
        "newman_ratio_1_over_n",
        ("activations.newman_bound", "activations.newman_rate", "activations.newman_constant"),
    ),
    _m(
        "minimax: degree n - 2",
        "the number of even Chebyshev coefficients off by one",
        "minimax_poly_abs_lp",
        "minimax_degree_off_by_two",
        ("activations.bernstein",),
    ),
    _m(
        "halley: 1 + 2x^2",
        "a typo in the Halley denominator",
        "halley_map",
        "halley_wrong_denominator",
        ("activations.halley_identities",),
    ),
    _m(
        "halley_steps: Newton-Schulz",
        "counts the quadratic Newton-Schulz iteration",
        "halley_steps",
        "halley_steps_newton_schulz",
        ("activations.halley_steps",),
    ),
    _m(
        "dwh_params: 8 for 4",
        "a wrong constant in the DWH weight g",
        "dwh_params",
        "dwh_params_wrong_constant",
        ("activations.dwh_steps",),
    ),
    _m(
        "dwh_sign: Halley weights",
        "the dynamic weights are never updated",
        "dwh_sign",
        "dwh_sign_halley_weights",
        ("activations.dwh_steps",),
    ),
    _m(
        "dwh_abs: stop at sqrt(eps)",
        "the stopping tolerance confused with its square root",
        "dwh_abs",
        "dwh_abs_loose_stop",
        ("activations.dwh_abs",),
    ),
    _m(
        "yarotsky: m - 1 layers",
        "off by one in the sawtooth loop",
        "yarotsky_square",
        "yarotsky_one_layer_short",
        ("activations.yarotsky",),
    ),
    _m(
        "relu_init: b1, b2 swapped",
        "denominator coefficients in the wrong order",
        "relu_init",
        "relu_init_swapped_q",
        ("activations.relu_init",),
    ),
    _m(
        "rational: descending numerator",
        "np.polyval's coefficient order",
        "rational",
        "rational_descending",
        ("activations.relu_init",),
    ),
    _m(
        "pth_root: mu_k = 1 (plain Newton)",
        "the scaling mu_k of each layer dropped",
        "pth_root",
        "pth_root_unscaled_newton",
        ("activations.pth_root_error", "activations.pth_root_quadratic"),
    ),
    _m(
        "pth_root: no final scaling",
        "returns f_k, not 2 alpha_k/(1 + alpha_k) f_k",
        "pth_root",
        "pth_root_no_final_scaling",
        ("activations.pth_root_error", "activations.pth_root_quadratic"),
    ),
    _m(
        "log_agm: harmonic mean",
        "a <- 2ab/(a+b) in place of (a+b)/2",
        "log_agm",
        "log_agm_harmonic",
        ("activations.log_agm",),
    ),
    _m(
        "log_agm: theta_2 halved",
        "the factor 2 of theta_2 forgotten",
        "log_agm",
        "log_agm_theta2_halved",
        ("activations.log_agm",),
    ),
    _m(
        "tanh_halley: Newton step",
        "Newton's correction (1 - t^2) A, quadratic",
        "tanh_halley",
        "tanh_newton",
        ("activations.tanh_halley",),
    ),
    _m(
        "gelu_pole: cubic term ignored",
        "the pole of tanh(sqrt(2/pi) z) alone",
        "gelu_pole",
        "gelu_pole_no_cubic",
        ("activations.gelu_pole",),
    ),
    _m(
        "gelu_tanh: erf form",
        "the entire erf GELU in place of the tanh form",
        "gelu_tanh",
        "gelu_erf_form",
        ("activations.gelu_pole",),
    ),
    _m(
        "gelu_composite: sigma(s) for sigma(2s)",
        "E = exp(s) in x E/(1+E): the factor 2 of tanh s = 2 sigma(2s) - 1 forgotten",
        "gelu_composite",
        "gelu_composite_half_argument",
        ("activations.gelu_composite",),
    ),
    _m(
        "gelu_composite_params: Padé only",
        "the composite's count leaves out the cubic, the squarings, the Möbius map and the product",
        "gelu_composite_params",
        "gelu_composite_params_pade_only",
        ("activations.gelu_composite",),
    ),
    _m(
        "rational_grad: no sign(Q~)",
        "the derivative of |Q~| taken as that of Q~",
        "rational_grad",
        "rational_grad_no_sign",
        ("activations.gradients",),
    ),
    _m(
        "pth_root_alphas: square-root mu",
        "mu_k = (...)^(1/2) for every p (the p = 2 case generalised wrongly)",
        "pth_root_alphas",
        "pth_root_alphas_square_root_mu",
        ("activations.pth_root_alphas",),
    ),
    _m(
        "pth_root_alphas: 1/(p-1) dropped",
        "mu_k^p without the factor 1/(p - 1) (invisible at p = 2)",
        "pth_root_alphas",
        "pth_root_alphas_no_p_minus_1",
        ("activations.pth_root_alphas",),
    ),
    _m(
        "pth_root_alphas: shifted",
        "off by one: alpha_1..alpha_(k+1) for alpha_0..alpha_k",
        "pth_root_alphas",
        "pth_root_alphas_shifted",
        ("activations.pth_root_alphas",),
    ),
    _m(
        "pth_root_alphas: float32",
        "the recurrence in float32",
        "pth_root_alphas",
        "pth_root_alphas_float32",
        ("activations.pth_root_alphas",),
    ),
    _m(
        "fit_rational: linear start only",
        "the nonlinear least squares forgotten: the linearised start returned",
        "fit_rational",
        "fit_rational_linear_start",
        ("activations.fit_rational",),
    ),
    _m(
        "fit_rational: loose solver",
        "the solver stopped at ftol = xtol = 1e-3",
        "fit_rational",
        "fit_rational_loose",
        ("activations.fit_rational",),
    ),
    _m(
        "fit_rational: points - 1 nodes",
        "an off-by-one in the node count",
        "fit_rational",
        "fit_rational_nodes_off_by_one",
        ("activations.fit_rational",),
    ),
    _m(
        "fit_rational: max_error = rms",
        "the reported max error is the rms error",
        "fit_rational",
        "fit_rational_rms_as_max",
        ("activations.fit_rational",),
    ),
)
