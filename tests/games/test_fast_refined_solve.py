"""Issue 20 levers of the games fast path, each against an independent computation.

* the support system solved from precomputed Gram blocks plus iterative refinement gives the
  same Newton direction as forming the exact matrix (and as the dense reference solve);
* the one-eigen-decomposition set-up gives ``γ = 1/||A||_2`` (numpy's SVD norm);
* :data:`reference.games.fast.FAST_HYBRID_CONFIG` reaches the reference's equilibrium.
"""

from __future__ import annotations

import numpy as np
import pytest

from reference import games as ref
from reference.games import duality_gap, fast

SHAPES = [(20, 30), (30, 20), (40, 40), (1, 6), (7, 1)]


def _near_solution(a: np.ndarray, noise: float, rng: np.random.Generator) -> np.ndarray:
    """A lifted point near the lifted equilibrium (the Newton phase's regime)."""
    sol = ref.solve_lp(a)
    x, y = sol.x, sol.y
    ctx = fast._Drs(a, None)
    u = ctx.lift(np.concatenate([x, y]))
    return np.asarray(u + noise * rng.standard_normal(u.size))


@pytest.mark.parametrize("shape", SHAPES, ids=[f"{m}x{n}" for m, n in SHAPES])
@pytest.mark.parametrize("noise", [1e-3, 1e-6])
def test_refined_direction_equals_the_exact_solves(
    shape: tuple[int, int], noise: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(sum(shape))
    a = rng.uniform(-1.0, 1.0, shape)
    u = _near_solution(a, noise, rng)
    mu = 1e-4
    used: list[bool] = []
    original = fast._Capacitance.refined_solve

    def spy(self: fast._Capacitance, *args: object) -> object:
        out = original(self, *args)  # type: ignore[arg-type]
        used.append(out is not None)
        return out

    monkeypatch.setattr(fast._Capacitance, "refined_solve", spy)
    refined = fast.newton_direction(a, u, mu)
    assert used == [True], "the refined solve was not taken near a solution with small mu"
    monkeypatch.setattr(fast, "_REFINE_BELOW", 0.0)  # always form the exact matrix
    exact = fast.newton_direction(a, u, mu)
    dense = ref.newton_direction(a, u, mu)  # the reference's dense LU of the W-free system
    scale = max(1.0, float(np.max(np.abs(dense))))
    np.testing.assert_allclose(refined, exact, rtol=0.0, atol=1e-10 * scale)
    np.testing.assert_allclose(refined, dense, rtol=0.0, atol=1e-10 * scale)


def test_large_mu_takes_the_exact_path(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(3)
    a = rng.standard_normal((15, 25))
    u = rng.standard_normal(40)
    calls: list[int] = []
    monkeypatch.setattr(
        fast._Capacitance,
        "refined_solve",
        lambda *args: calls.append(1),
    )
    d = fast.newton_direction(a, u, 5.0)  # μ²λ_max = 25 > 1e-2 (1 + μ)²
    assert calls == []
    np.testing.assert_allclose(d, ref.newton_direction(a, u, 5.0), rtol=0.0, atol=1e-10)


@pytest.mark.parametrize("scale", [1e-200, 1e-3, 1.0, 1e3, 1e200])
@pytest.mark.parametrize("shape", [(12, 30), (30, 12)])
def test_default_step_size_is_the_spectral_norm(scale: float, shape: tuple[int, int]) -> None:
    a = scale * np.random.default_rng(5).standard_normal(shape)
    ctx = fast._Drs(a, None)
    want = a / np.linalg.norm(a / scale, 2) / scale  # numpy's SVD-based 2-norm, rescaled
    np.testing.assert_allclose(ctx.ga, want, rtol=1e-12, atol=0.0)
    assert np.linalg.norm(ctx.ga, 2) == pytest.approx(1.0, rel=1e-12)


def test_zero_payoff_keeps_gamma_one() -> None:
    res = fast.ssn(np.zeros((3, 4)), tol=1e-12)
    assert duality_gap(np.zeros((3, 4)), res.x, res.y) == 0.0


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("shape", [(60, 90), (90, 60)])
def test_fast_config_reaches_the_reference_equilibrium(seed: int, shape: tuple[int, int]) -> None:
    rng = np.random.default_rng(100 + seed)
    a = rng.uniform(-1.0, 1.0, shape) if seed % 2 else rng.standard_normal(shape)
    tol = 1e-9
    got = fast.hybrid(a, tol=tol, config=fast.FAST_HYBRID_CONFIG)
    gap = duality_gap(a, got.x, got.y)  # recomputed from the returned pair
    assert gap <= tol
    assert got.converged == (gap <= tol)
    sol = ref.solve_lp(a)  # HiGHS, an independent solver; random games: unique equilibrium
    x, y = sol.x, sol.y
    np.testing.assert_allclose(got.x, x, atol=1e-6)
    np.testing.assert_allclose(got.y, y, atol=1e-6)
