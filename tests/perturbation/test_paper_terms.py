"""The paper's games in its orientation, the official runner's semantics and settings (spec 19 §8).

Expected values come from independent computations: the LP of the game (scipy's HiGHS), and
the exact KKT system of the perturbed QP ``min_x max_j (Aᵀx)_j + (μ/2)||x||²`` solved in
rational arithmetic over every support/active-set pair (sympy), never from our own runs.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
import sympy
from scipy.optimize import linprog

from reference import games
from reference import perturbation as pert
from reference._arrays import FloatArray

#: The paper's row-player utility of biased RPS (spec 19 §8); our loss is its negative.
P_BRPS = [[0, -1, 3], [1, 0, -1], [-3, 1, 0]]


def lp_min_strategy(a: FloatArray) -> tuple[FloatArray, float]:
    """``argmin_x max_j (Aᵀx)_j`` and the value, by HiGHS (variables x, v)."""
    m, n = a.shape
    res = linprog(
        c=np.r_[np.zeros(m), 1.0],
        A_ub=np.c_[a.T, -np.ones(n)],
        b_ub=np.zeros(n),
        A_eq=np.r_[np.ones(m), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * m + [(None, None)],
        method="highs",
    )
    assert res.x is not None
    return np.asarray(res.x[:m]), float(res.x[m])


def kkt_perturbed_minimiser(a_rows: list[list[Fraction]], mu: Fraction) -> list[Fraction]:
    """Exact ``x^μ`` by enumerating the KKT system over supports T and active columns S.

    Stationarity ``μx_i + (Aλ)_i = ν`` on T, ``(Aᵀx)_j = t`` on S, ``Σ_T x = 1``, ``Σ_S λ = 1``;
    accepted when ``x_T, λ_S >= 0``, ``(Aᵀx)_j <= t`` off S and ``μx_i + (Aλ)_i >= ν`` off T.
    The QP is strongly convex in x, so any KKT point gives the unique ``x^μ``.
    """
    m, n = len(a_rows), len(a_rows[0])
    a = [[sympy.Rational(v.numerator, v.denominator) for v in row] for row in a_rows]
    for tk in range(1, m + 1):
        for support in itertools.combinations(range(m), tk):
            for sk in range(1, n + 1):
                for active in itertools.combinations(range(n), sk):
                    xs = sympy.symbols(f"x0:{tk}")
                    ls = sympy.symbols(f"l0:{sk}")
                    nu, t = sympy.symbols("nu t")
                    eqs = []
                    for r, i in enumerate(support):
                        eqs.append(
                            mu * xs[r] + sum(a[i][j] * ls[c] for c, j in enumerate(active)) - nu
                        )
                    for j in active:
                        eqs.append(sum(a[i][j] * xs[r] for r, i in enumerate(support)) - t)
                    eqs.append(sum(xs) - 1)
                    eqs.append(sum(ls) - 1)
                    sol = sympy.solve(eqs, [*xs, *ls, nu, t], dict=True)
                    if len(sol) != 1 or len(sol[0]) != tk + sk + 2:
                        continue  # singular or underdetermined system
                    s = {k: Fraction(str(v)) for k, v in sol[0].items()}
                    x = [Fraction(0)] * m
                    for r, i in enumerate(support):
                        x[i] = s[xs[r]]
                    lam = [Fraction(0)] * n
                    for c, j in enumerate(active):
                        lam[j] = s[ls[c]]
                    if min(x) < 0 or min(lam) < 0:
                        continue
                    cols = [
                        sum((a_rows[i][j] * x[i] for i in range(m)), Fraction(0)) for j in range(n)
                    ]
                    if any(cols[j] > s[t] for j in range(n)):
                        continue
                    al = [
                        sum((a_rows[i][j] * lam[j] for j in range(n)), Fraction(0))
                        for i in range(m)
                    ]
                    if any(mu * x[i] + al[i] < s[nu] for i in range(m) if i not in support):
                        continue
                    return x
    raise AssertionError("no KKT point found")


def test_games_are_minus_the_papers_utilities_with_the_stated_equilibria() -> None:
    assert np.array_equal(pert.biased_rps(), -np.array(P_BRPS, dtype=float))
    assert np.allclose(pert.biased_matching_pennies(), -np.array([[-1 / 3, 2 / 3], [2 / 3, -1]]))
    cases = [
        (pert.biased_rps(), [0.2, 0.6, 0.2], 0.0),
        (pert.biased_matching_pennies(), [5 / 8, 3 / 8], -1 / 24),  # row player gets 1/24
        (pert.m_ne(), [1 / 3, 1 / 3, 1 / 3, 0.0, 0.0], 0.0),
    ]
    for a, x_star, value in cases:
        x, v = lp_min_strategy(np.asarray(a))
        assert abs(v - value) <= 1e-9
        assert np.max(np.abs(x - x_star)) <= 1e-9
    # M-Ne: the maximiser's equilibria are not unique: three different ys guarantee the value 0
    a = np.asarray(pert.m_ne())
    for y in ([1 / 3, 1 / 3, 1 / 3, 0, 0], [0.2] * 5, [0, 0, 0, 0.5, 0.5]):
        assert float(np.min(a @ np.array(y))) >= -1e-12


@pytest.mark.parametrize("mu", ["1/2", "1", "2", "5/2", "3", "4", "6"])
def test_brps_perturbed_strategy_in_paper_orientation_matches_exact_kkt(mu: str) -> None:
    m = Fraction(mu)
    exact = kkt_perturbed_minimiser([[Fraction(-v) for v in row] for row in P_BRPS], m)
    r = pert.asymp_gda(pert.biased_rps(), mu=float(m), max_iter=20_000, tol=1e-14)
    assert np.max(np.abs(r.x - np.array([float(v) for v in exact]))) <= 1e-9
    assert np.max(np.abs(r.y - np.array([float(v) for v in exact]))) <= 1e-9  # A skew: y^μ = x^μ
    star = [Fraction(1, 5), Fraction(3, 5), Fraction(1, 5)]
    if m <= 2:  # the paper: unchanged for μ <= 2
        assert exact == star
    if m in (3, 4):  # moved at 3-4, and in the paper's orientation (not the mirrored one)
        assert exact != star
        assert exact[0] > exact[2] == Fraction(1, 5)
    if m == 3:
        assert exact == [Fraction(7, 30), Fraction(17, 30), Fraction(1, 5)]
    mirrored = kkt_perturbed_minimiser([[Fraction(v) for v in row] for row in P_BRPS], m)
    assert mirrored == [exact[2], exact[1], exact[0]]  # A = +P swaps actions 1 and 3


def test_frank_wolfe_gap_recomputed_by_hand() -> None:
    rng = np.random.default_rng(5)
    a = rng.normal(size=(4, 3))
    x, y = rng.dirichlet(np.ones(4)), rng.dirichlet(np.ones(3))
    assert abs(pert.frank_wolfe_gap(a, x, y) - games.duality_gap(a, x, y)) <= 1e-12
    mu = 0.7
    gx = -(a @ y) - mu * x
    by_hand = max(gx) - gx @ x + max(a.T @ x) - (a.T @ x) @ y
    assert abs(pert.frank_wolfe_gap(a, x, y, mu_x=mu) - by_hand) <= 1e-12


def test_official_settings_and_starts() -> None:
    assert (pert.OFFICIAL.step_size, pert.OFFICIAL.mu, pert.OFFICIAL.iterations) == (
        0.01,
        1.0,
        100_000,
    )
    assert (pert.OFFICIAL.trials, pert.OFFICIAL.gap_tol) == (100, 1e-13)
    x0, y0 = pert.dirichlet_starts((3, 5), trials=2000, rng=np.random.default_rng(1))
    assert np.allclose(x0.sum(axis=1), 1.0)
    assert np.allclose(y0.sum(axis=1), 1.0)
    # Dirichlet(1) on 3 actions: each marginal is Beta(1, 2), mean 1/3 and variance 1/18
    assert np.max(np.abs(x0.mean(axis=0) - 1 / 3)) <= 0.02
    assert np.max(np.abs(x0.var(axis=0) - 1 / 18)) <= 0.01
    with pytest.raises(ValueError, match="step_size"):
        pert.RunnerSettings(step_size=0.0)


def test_official_early_stop_from_random_starts_reaches_the_equilibrium() -> None:
    s = pert.OFFICIAL
    x0s, y0s = pert.dirichlet_starts((3, 3), trials=3, rng=np.random.default_rng(0))
    for x0, y0 in zip(x0s, y0s, strict=True):
        r = pert.asymp_gda(
            pert.biased_rps(),
            mu=s.mu,
            step_size=s.step_size,
            max_iter=s.iterations,
            tol=s.gap_tol,
            stop="frank_wolfe",
            x0=x0,
            y0=y0,
        )
        assert r.converged
        assert r.iterations < s.iterations
        assert games.duality_gap(pert.biased_rps(), r.x, r.y) <= 1e-10


def test_official_ogda_written_out() -> None:
    rng = np.random.default_rng(3)
    a = rng.normal(size=(3, 4))
    x0, y0 = rng.dirichlet(np.ones(3)), rng.dirichlet(np.ones(4))
    step_size = 0.05
    r = pert.ogda(a, step_size=step_size, max_iter=25, tol=None, x0=x0, y0=y0)
    x, y, xh, yh = x0, y0, x0, y0
    for _ in range(25):  # two sequences, alternating, x first (spec 19 §8)
        xh = games.project_simplex(xh - step_size * (a @ y))
        x = games.project_simplex(xh - step_size * (a @ y))
        yh = games.project_simplex(yh + step_size * (a.T @ x))
        y = games.project_simplex(yh + step_size * (a.T @ x))
    assert np.max(np.abs(r.x - x)) <= 1e-12
    assert np.max(np.abs(r.y - y)) <= 1e-12
    s = pert.ogda(
        a, step_size=step_size, max_iter=25, tol=None, x0=x0, y0=y0, variant="simultaneous"
    )
    assert np.max(np.abs(s.y - r.y)) > 1e-6  # the two forms differ along the way


def test_official_ogda_last_iterate_converges_on_the_papers_games() -> None:
    for a in (pert.biased_rps(), pert.biased_matching_pennies()):
        assert pert.ogda(a, tol=1e-9, max_iter=50_000).converged
