"""Instances found by issue 22 points 2 and 3 (session 4), one per fix."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable

import numpy as np
import pytest

import reference.constrained_map as cm
from properties.catalogue.constrained_map import _obstacle_args
from reference.activations import fit_rational
from reference.qp_layers import solve_qp


def _box_around(mean: tuple[float, float], gaps: tuple[float, ...]) -> cm.MapProblem:
    """The hard-input catalogue's obstacle instance as a :class:`MapProblem`."""
    args, _ = _obstacle_args(mean, gaps)
    return cm.make_problem(*args)


def test_pa_map_on_a_mean_of_1e_300_warns_nothing_and_finds_the_nearest_face() -> None:
    # the cell bounds' QPs had q ~ 1e-300: the interior point's step rule overflowed in -v/dv
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = cm.pa_map(
            _box_around((0.0, 1e-300), (0.3, 0.7, 0.9, 0.4)), rng=np.random.default_rng(0)
        )
    # MAP of N(mu, I) outside the box: mu projected on the nearest face, x_0 = mu_0 - 0.3
    assert float(result.x[0]) == pytest.approx(-0.3, abs=1e-9)
    assert float(result.x[1]) == pytest.approx(0.0, abs=1e-9)


def test_solve_qp_with_a_subnormal_linear_term_warns_nothing() -> None:
    box = np.vstack([np.eye(2), -np.eye(2)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sol = solve_qp(np.eye(2), np.array([0.0, -1e-310]), box, 0.5 * np.ones(4))
    # min ½|y|² + qᵀy in the box: y = -q (interior), multipliers 0
    assert sol.converged
    assert np.max(np.abs(np.asarray(sol.x) - np.array([0.0, 1e-310]))) <= 1e-12
    assert np.max(np.abs(np.asarray(sol.lam))) <= 1e-12


def test_fit_rational_converged_is_first_order_optimality_not_scipy_success() -> None:
    # scipy's least_squares stops the (3, 2) ReLU fit by its ftol test ("success") with the
    # gradient of the half mean squared error at ~6e-8: not stationary to 1e-9
    relu = fit_rational("relu", points=401, tol=1e-9)
    xs = np.linspace(-3.0, 3.0, 401)
    theta = np.concatenate([relu.p, relu.q])

    def half_mse(th: np.ndarray) -> float:
        p, q = th[: relu.p.size], th[relu.p.size :]
        num = sum(c * xs**i for i, c in enumerate(p))
        den = 1.0 + np.abs(sum(c * xs ** (j + 1) for j, c in enumerate(q)))
        return float(np.mean((num / den - np.maximum(xs, 0.0)) ** 2) / 2.0)

    slopes = []
    for i in range(theta.size):
        step = np.zeros_like(theta)
        step[i] = 1e-6 * max(1.0, abs(float(theta[i])))
        slopes.append(abs(half_mse(theta + step) - half_mse(theta - step)) / (2.0 * step[i]))
    assert max(slopes) > 1e-8  # recomputed, well above tol = 1e-9
    assert relu.converged is False
    assert fit_rational("relu", points=401, tol=1e-6).converged is True
    assert math.isfinite(relu.optimality)


def test_embedded_loss_names_q_outside_the_links_range() -> None:
    """q = 0, 1 or > 1 used to raise scipy brentq's sign error, which names no argument."""
    import math

    from reference.preference import embed_psi

    def sigmoid(z: float) -> float:
        return 1.0 / (1.0 + math.exp(-z))

    loss = embed_psi(lambda z: z, sigmoid)
    for q in (0.0, 1.0, 1.5, -0.1):
        with pytest.raises(ValueError, match=r"^q: "):
            loss.ell0(q)
        with pytest.raises(ValueError, match=r"^q: "):
            loss.ell1(q)
    assert loss.ell0(0.5) == pytest.approx(0.0, abs=1e-12)  # ψ(F̃⁻¹(1/2)) = ψ(0) = 0


def test_diverging_sgd_raises_naming_learning_rate_instead_of_returning_nan() -> None:
    """learning_rate 1e4 on the depth-4 XOR tree: the weights overflowed to NaN, returned silently
    (with overflow RuntimeWarnings) by train_layerwise, train_flat and the torch paths."""
    from reference.hierarchical import LayerwiseConfig, make_xor_tree, train_flat, train_layerwise

    tree = make_xor_tree(4, 256, rng=np.random.default_rng(0))
    cfg = LayerwiseConfig(width=16, epochs=30, learning_rate=1e4)
    runs: list[Callable[[], object]] = [
        lambda: train_layerwise(tree.x, tree.levels, rng=np.random.default_rng(1), config=cfg),
        lambda: train_flat(
            tree.x, tree.levels[-1], rng=np.random.default_rng(1), width=16, learning_rate=1e4
        ),
    ]
    try:
        from reference.hierarchical import fast_torch
    except ImportError:  # torch is an optional extra
        pass
    else:
        runs += [
            lambda: fast_torch.train_layerwise(
                tree.x, tree.levels, rng=np.random.default_rng(1), config=cfg
            ),
            lambda: fast_torch.train_end_to_end(
                tree.x, tree.levels, rng=np.random.default_rng(1), config=cfg
            ),
        ]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow warning escapes either
        for run in runs:
            with pytest.raises(ValueError, match=r"^learning_rate: SGD diverged"):
                run()
    ok = train_layerwise(  # the default step is untouched
        tree.x,
        tree.levels,
        rng=np.random.default_rng(1),
        config=LayerwiseConfig(width=16, epochs=2),
    )
    assert all(np.all(np.isfinite(level)) for level in ok.losses)
