"""Tests written for the mutants mutmut left alive in reference/invariance.py (issue 36, item 6).

Every expected value is recomputed here from the documented definition with an independent
routine (``np.corrcoef`` for correlations, ``scipy.linalg.subspace_angles`` for distances, plain
least squares for slopes), never taken from the library's output.  The triage of every survivor
is in benchmarks/results/mutation_invariance.md.
"""

from __future__ import annotations

import itertools
import math
import warnings
from typing import Literal

import numpy as np
import pytest
from scipy.linalg import subspace_angles

from reference import invariance as inv


def _pearson(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``(d,)`` Pearson correlations of each column of x with y, by ``np.corrcoef``."""
    return np.array([np.corrcoef(x[:, j], y)[0, 1] for j in range(x.shape[1])])


def _shifted_envs(seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Three environments of unequal size, features with non-zero means and scales from 1e-3
    to 1e2, labels with a non-zero mean, correlations that differ across environments."""
    rng = np.random.default_rng(seed)
    scales = np.array([1e-3, 0.05, 1.0, 7.0, 100.0])
    envs = []
    for e, n in enumerate((150, 200, 260)):
        y = 2.0 + rng.standard_normal(n)
        mix = np.array([0.1, 0.5, -0.3, 0.8, 0.0]) * (e + 1) / 3
        x = 3.0 + scales * (mix * (y - 2.0)[:, None] + rng.standard_normal((n, 5)))
        envs.append((x, y))
    return envs


# ---- subspace_distance / _basis


def test_distance_of_a_full_basis_and_the_column_bound() -> None:
    rng = np.random.default_rng(0)
    full = rng.standard_normal((3, 3))  # a basis of R^3: as many columns as rows is allowed
    assert inv.subspace_distance(full, np.eye(3)) == pytest.approx(0.0, abs=1e-12)
    u = rng.standard_normal((4, 2))
    # R^4 vs a plane: ||I - P||_F² = 4 - 2
    assert inv.subspace_distance(np.eye(4), u) == pytest.approx(2.0, abs=1e-12)
    with pytest.raises(ValueError, match=r"^U: expected at most as many columns as rows"):
        inv.subspace_distance(rng.standard_normal((2, 3)), np.eye(2))
    with pytest.raises(ValueError, match=r"^V: expected at most as many columns as rows"):
        inv.subspace_distance(np.eye(2), rng.standard_normal((2, 3)))


def test_distance_errors_name_the_argument() -> None:
    with pytest.raises(ValueError, match=r"^V: expected 3 rows"):
        inv.subspace_distance(np.eye(3)[:, :2], np.eye(4)[:, :2])
    for bad in (np.ones(3), np.ones((2, 2, 2))):  # rank 1 and rank 3: a ValueError, not IndexError
        with pytest.raises(ValueError, match=r"^U: "):
            inv.subspace_distance(bad, np.eye(2))
        with pytest.raises(ValueError, match=r"^V: "):
            inv.subspace_distance(np.eye(2), bad)
    with pytest.raises(ValueError, match=r"^U: "):
        inv.subspace_distance([[1.0, math.nan], [0.0, 1.0]], np.eye(2))


def test_distance_depends_on_the_span_only_at_any_scale() -> None:
    """The span of c U is that of U: the verdict (a distance, or 'dependent') cannot change with
    c; a second column 1e-15 of the first's size is dependent at scale 1 (the documented error)."""
    rng = np.random.default_rng(1)
    v = np.linalg.qr(rng.standard_normal((3, 2)))[0]
    near = np.array([[1.0, 1.0], [0.0, 1e-15], [0.0, 0.0]])
    for c in (1e-6, 1.0, 1e6):
        with pytest.raises(ValueError, match=r"^U: expected linearly independent columns"):
            inv.subspace_distance(c * near, v)
    u = rng.standard_normal((3, 2))
    want = 2 * float(np.sum(np.sin(subspace_angles(u, v)) ** 2))
    for c in (1e-6, 1.0, 1e6):
        assert inv.subspace_distance(c * u, v) == pytest.approx(want, abs=1e-10)
        got = inv.subspace_distance(c * u, v, squared=False)
        assert got == pytest.approx(math.sqrt(want), abs=1e-10)
    assert want > 0.05  # dist and dist² differ here


# ---- gamma_hat / drift_flags


def test_gamma_hat_is_the_median_range_of_pearson_correlations() -> None:
    envs = _shifted_envs(2)
    corr = np.array([_pearson(x, y) for x, y in envs])
    want = float(np.median(corr.max(axis=0) - corr.min(axis=0)))
    assert want > 0.05  # the environments do differ
    assert inv.gamma_hat(envs) == pytest.approx(want, rel=1e-10, abs=1e-12)


def test_gamma_hat_and_drift_flags_reject_a_constant_column() -> None:
    envs = _shifted_envs(3)
    x, y = envs[1]
    x = x.copy()
    x[:, 2] = 5.0
    bad = [envs[0], (x, y), envs[2]]
    with pytest.raises(ValueError, match=r"^envs\[1\]: expected non-constant"):
        inv.gamma_hat(bad)
    const_y = [envs[0], envs[1], (envs[2][0], np.full(envs[2][1].shape, 2.0))]
    with pytest.raises(ValueError, match=r"^envs\[2\]: expected non-constant"):
        inv.gamma_hat(const_y)


def _graded_envs(seed: int) -> tuple[list[tuple[np.ndarray, np.ndarray]], np.ndarray]:
    """Four environments (n = 400, 420, 450, 500) whose 80 features have correlation ranges
    spread over about [0, 0.75]; feature j has mean 3 + j / 8 and the labels a mean of -1."""
    rng = np.random.default_rng(seed)
    targets = np.linspace(0.0, 0.75, 80)
    envs = []
    for e, n in enumerate((400, 420, 450, 500)):
        y = -1.0 + rng.standard_normal(n)
        rho = targets * (e == 3)  # only the last environment correlates
        z = (y + 1.0)[:, None]
        x = 3.0 + np.arange(80) / 8 + rho * z + np.sqrt(1.0 - rho**2) * rng.standard_normal((n, 80))
        envs.append((x, y))
    return envs, targets


def test_drift_flags_follow_the_documented_threshold() -> None:
    envs, _ = _graded_envs(4)
    corr = np.array([_pearson(x, y) for x, y in envs])
    ranges = corr.max(axis=0) - corr.min(axis=0)
    threshold = 4.0 * math.sqrt(2.0 * math.log(4)) / math.sqrt(400)  # min n = 400
    assert float(np.min(np.abs(ranges - threshold))) > 1e-6  # no near-tie in this instance
    # the instance separates the threshold from its neighbours (x 0.8 .. x 1.25)
    assert np.any((ranges > threshold) & (ranges < 1.25 * threshold))
    assert np.any((ranges < threshold) & (ranges > 0.8 * threshold))
    flags = inv.drift_flags(envs)
    np.testing.assert_array_equal(flags, (ranges > threshold).astype(float))
    assert flags.dtype == np.float64


# ---- make_instance / population_drift_matrix


def _sylvester(order: int) -> np.ndarray:
    h = np.ones((1, 1))
    while h.shape[0] < order:
        h = np.block([[h, h], [h, -h]])
    return h


def test_make_instance_errors_name_the_argument() -> None:
    rng = np.random.default_rng(0)
    good = {"d": 4, "k": 2, "n_envs": 3, "n": 10, "gamma": 1.0}
    for key, bad in (("d", 1), ("k", 0), ("k", 4), ("n_envs", 1), ("n", 1), ("gamma", -0.5)):
        with pytest.raises(ValueError, match=rf"^{key}"):
            inv.make_instance(**{**good, key: bad}, rng=rng)  # type: ignore[arg-type]
    for key in ("sigma_eps", "sigma_eta"):
        with pytest.raises(ValueError, match=rf"^{key}"):
            inv.make_instance(**good, rng=rng, **{key: 0.0})  # type: ignore[arg-type]
    # the smallest sizes the docstring allows: d = 2, k = d - 1, two environments, n = 2, γ = 0
    small = inv.make_instance(2, 1, 2, 2, 0.0, rng=rng)
    assert small.environments[0][0].shape == (2, 2)
    np.testing.assert_array_equal(small.drifts, np.zeros((2, 1)))
    assert small.gamma == 0.0
    assert inv.make_instance(5, 4, 2, 3, 1.0, rng=rng).basis.shape == (5, 4)
    with pytest.raises(ValueError, match=r"^kind: expected 'label' or 'mean', got 'x'"):
        inv.make_instance(**good, rng=rng, kind="x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^drift: expected 'design' or 'uniform', got 'x'"):
        inv.make_instance(**good, rng=rng, drift="x")  # type: ignore[arg-type]


@pytest.mark.parametrize(("d", "k", "n_envs"), [(6, 2, 8), (5, 1, 6), (7, 4, 3)])
def test_design_drifts_are_hadamard_rows_and_gamma_is_their_spread(
    d: int, k: int, n_envs: int
) -> None:
    inst = inv.make_instance(d, k, n_envs, 5, 3.0, rng=np.random.default_rng(1))
    width = d - k
    order = 1
    while order < width + 1:
        order *= 2
    want = 1.5 * _sylvester(order)[np.arange(n_envs) % order][:, 1 : width + 1]
    np.testing.assert_array_equal(inst.drifts, want)
    assert inst.gamma == float(np.max(np.ptp(want, axis=0)))
    f = sum(
        np.outer(want[a] - want[b], want[a] - want[b])
        for a in range(n_envs)
        for b in range(a + 1, n_envs)
    )
    np.testing.assert_allclose(inv.population_drift_matrix(inst), f, rtol=1e-12, atol=1e-12)


def test_uniform_drifts_stay_in_the_box_and_fill_it() -> None:
    inst = inv.make_instance(6, 2, 400, 2, 3.0, rng=np.random.default_rng(2), drift="uniform")
    assert inst.drifts.shape == (400, 4)
    assert float(np.max(np.abs(inst.drifts))) <= 1.5
    assert float(np.min(np.ptp(inst.drifts, axis=0))) > 2.85  # 400 draws reach both ends
    assert inst.gamma == pytest.approx(float(np.max(np.ptp(inst.drifts, axis=0))), rel=1e-15)
    # U[-1.5, 1.5]: E|m| = 3/4 (1600 draws, 7 standard errors), not the ±1.5 of the design
    assert float(np.mean(np.abs(inst.drifts))) == pytest.approx(0.75, abs=0.075)
    m = inst.drifts
    f = sum(np.outer(m[a] - m[b], m[a] - m[b]) for a in range(40) for b in range(a + 1, 40))
    sub = inv.InvariantInstance(
        environments=inst.environments[:40],
        basis=inst.basis,
        spurious_basis=inst.spurious_basis,
        w_star=inst.w_star,
        drifts=m[:40],
        gamma=inst.gamma,
        kind=inst.kind,
    )
    np.testing.assert_allclose(inv.population_drift_matrix(sub), f, rtol=1e-10)


@pytest.mark.parametrize("kind", ["label", "mean"])
def test_make_instance_sample_law(kind: Literal["label", "mean"]) -> None:
    """rotate=False: x = [x_inv, x_sp] with x_inv ~ N(0, I), y - w*ᵀx_inv ~ N(0, σε²) and
    x_sp - m_e y (label) or x_sp - m_e (mean) ~ N(0, ση² I); 4000 samples, 6-7 standard errors."""
    n, se, sh = 4000, 0.3, 0.5
    inst = inv.make_instance(
        5,
        2,
        4,
        n,
        1.6,
        rng=np.random.default_rng(3),
        kind=kind,
        rotate=False,
        sigma_eps=se,
        sigma_eta=sh,
    )
    assert inst.kind == kind
    np.testing.assert_array_equal(inst.basis, np.eye(5)[:, :2])
    np.testing.assert_array_equal(inst.spurious_basis, np.eye(5)[:, 2:])
    assert float(np.linalg.norm(inst.w_star)) == pytest.approx(1.0, abs=1e-15)
    for e, (x, y) in enumerate(inst.environments):
        assert x.shape == (n, 5)
        assert y.shape == (n,)
        x_inv, x_sp = x[:, :2], x[:, 2:]
        np.testing.assert_allclose(np.cov(x_inv, rowvar=False), np.eye(2), atol=0.12)
        assert float(np.std(y - x_inv @ inst.w_star)) == pytest.approx(se, rel=0.08)
        shift = y[:, None] * inst.drifts[e] if kind == "label" else inst.drifts[e]
        resid = x_sp - shift
        np.testing.assert_allclose(np.std(resid, axis=0), sh, rtol=0.08)
        np.testing.assert_allclose(np.mean(resid, axis=0), 0.0, atol=7 * sh / math.sqrt(n))


def test_make_instance_defaults() -> None:
    """Defaults: label kind, a rotation, σε = 0.5, ση = 1, the design drifts."""
    n = 4000
    inst = inv.make_instance(4, 1, 4, n, 2.0, rng=np.random.default_rng(4))
    assert inst.kind == "label"
    q = np.hstack([inst.basis, inst.spurious_basis])
    np.testing.assert_allclose(q.T @ q, np.eye(4), atol=1e-12)
    assert float(np.max(np.abs(np.abs(q) - np.eye(4)))) > 0.1  # rotated
    np.testing.assert_array_equal(inst.drifts, _sylvester(4)[:4, 1:4])  # (γ/2) s_e, γ = 2
    for e, (x, y) in enumerate(inst.environments):
        x_inv, x_sp = x @ inst.basis, x @ inst.spurious_basis
        assert float(np.std(y - x_inv @ inst.w_star)) == pytest.approx(0.5, rel=0.08)
        np.testing.assert_allclose(
            np.std(x_sp - y[:, None] * inst.drifts[e], axis=0), 1.0, rtol=0.08
        )


# ---- estimate_invariant_subspace / _environments


def _f_hat(envs: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """The docstring's F̂ = |E| [Σ_e (x̄_e - x̄)(x̄_e - x̄)ᵀ + Σ_e (c_e - c̄)(c_e - c̄)ᵀ] with
    c_e the (1/n) covariance of X and y in environment e, written with loops."""
    means = [x.mean(axis=0) for x, _ in envs]
    cross = [np.cov(x, y, rowvar=False, bias=True)[:-1, -1] for x, y in envs]
    out = np.zeros((envs[0][0].shape[1],) * 2)
    for vecs in (means, cross):
        centre = sum(vecs) / len(vecs)
        for v in vecs:
            out += np.outer(v - centre, v - centre)
    return len(envs) * out


def _standardised(envs: list[tuple[np.ndarray, np.ndarray]]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Scale X and y so that the pooled X has unit root-mean-square distance from its mean and
    the pooled y unit standard deviation: the estimator's own normalisation is then the identity."""
    px = np.vstack([x for x, _ in envs])
    py = np.concatenate([y for _, y in envs])
    sx = math.sqrt(float(np.mean(np.sum((px - px.mean(axis=0)) ** 2, axis=1))))
    sy = float(np.std(py))
    return [(x / sx, y / sy) for x, y in envs]


def test_estimator_is_the_bottom_eigenspace_of_the_documented_f_hat() -> None:
    inst = inv.make_instance(5, 2, 6, 300, 1.5, rng=np.random.default_rng(5), kind="mean")
    envs = _standardised([(x + 4.0, y + 1.0) for x, y in inst.environments])
    f = _f_hat(envs)
    values, vectors = np.linalg.eigh(f)
    est = inv.estimate_invariant_subspace(envs, 2)
    np.testing.assert_allclose(est.eigenvalues, values, rtol=1e-9, atol=1e-12 * values[-1])
    assert inv.subspace_distance(est.basis, vectors[:, :2]) < 1e-12
    assert est.basis.shape == (5, 2)
    np.testing.assert_allclose(est.basis.T @ est.basis, np.eye(2), atol=1e-12)
    assert est.eigengap == pytest.approx(values[2] / values[1], rel=1e-9)
    assert est.eigengap > 2  # the instance separates V_inv


def test_estimator_invariances() -> None:
    """(X, y) -> (cX + a, cy + b) leaves V̂ and the spectrum unchanged (spec 08, Section 5);
    a rotation X -> XR rotates V̂ to Rᵀ V̂."""
    inst = inv.make_instance(5, 2, 6, 300, 1.5, rng=np.random.default_rng(6))
    envs = [(x.copy(), y.copy()) for x, y in inst.environments]
    base = inv.estimate_invariant_subspace(envs, 2)
    shift = np.array([3.0, -1.0, 0.5, 2.0, 7.0])
    for c in (1e-3, 40.0):
        moved = [(c * x + shift, c * y - 2.5) for x, y in envs]
        est = inv.estimate_invariant_subspace(moved, 2)
        assert inv.subspace_distance(est.basis, base.basis) < 1e-9
        np.testing.assert_allclose(est.eigenvalues, base.eigenvalues, rtol=1e-7, atol=1e-10)
    r = np.linalg.qr(np.random.default_rng(7).standard_normal((5, 5)))[0]
    est = inv.estimate_invariant_subspace([(x @ r, y) for x, y in envs], 2)
    assert inv.subspace_distance(est.basis, r.T @ base.basis) < 1e-9
    # an InvariantInstance is read as its environments
    same = inv.estimate_invariant_subspace(inst, 2)
    np.testing.assert_array_equal(same.eigenvalues, base.eigenvalues)


def test_estimator_identifiability_boundary_and_degenerate_gaps() -> None:
    rng = np.random.default_rng(8)
    for n_envs, want in ((4, True), (3, False)):  # d - k + 1 = 4
        inst = inv.make_instance(5, 2, n_envs, 50, 1.0, rng=rng)
        assert inv.estimate_invariant_subspace(inst, 2).identifiable is want
    x, y = rng.standard_normal((40, 3)), rng.standard_normal(40)
    same = inv.estimate_invariant_subspace([(x, y), (x, y), (x, y)], 1)
    assert same.eigengap == 1.0  # F̂ = 0: no gap
    # two environments differing by a shift along e0 only: F̂ has rank 1, λ_1 = λ_2 = 0, and
    # the gap is λ_3 / (d u λ_3) = 1/(d u) (documented "about 1/(d·u)"); here λ_3 < 1
    flat = inv.estimate_invariant_subspace([(x, y), (x + np.array([1.0, 0.0, 0.0]), y)], 2)
    assert 0.0 < flat.eigenvalues[-1] < 1.0
    assert flat.eigengap == pytest.approx(1.0 / (3 * np.finfo(np.float64).eps), rel=1e-6)
    top = inv.estimate_invariant_subspace([(x, y), (x + np.array([5.0, 0.0, 0.0]), y)], 1)
    assert top.eigengap == pytest.approx(1.0, abs=1e-6)  # λ_1 = λ_2 = 0 both at the floor
    assert inv.subspace_distance(flat.basis, np.eye(3)[:, 1:]) < 1e-12


def test_environment_errors_name_the_argument() -> None:
    rng = np.random.default_rng(9)
    x, y = rng.standard_normal((6, 3)), rng.standard_normal(6)
    with pytest.raises(TypeError, match=r"^envs: expected a sequence of"):
        inv.estimate_invariant_subspace(5, 1)
    with pytest.raises(TypeError, match=r"^envs: expected a sequence of"):
        inv.estimate_invariant_subspace("ab", 1)
    with pytest.raises(ValueError, match=r"^envs: expected at least 2 environments, got 1"):
        inv.estimate_invariant_subspace([(x, y)], 1)
    with pytest.raises(TypeError, match=r"^envs\[1\]: expected a pair"):
        inv.estimate_invariant_subspace([(x, y), (x, y, y)], 1)
    with pytest.raises(TypeError, match=r"^envs\[1\]: expected a pair"):
        inv.estimate_invariant_subspace([(x, y), 3.0], 1)
    with pytest.raises(ValueError, match=r"^envs\[1\]\.X: expected dimension 3"):
        inv.estimate_invariant_subspace([(x, y), (x[:, :2], y)], 1)
    two = inv.estimate_invariant_subspace([(x[:2], y[:2]), (x[2:4], y[2:4])], 1)  # n_e = 2
    assert two.basis.shape == (3, 1)
    with pytest.raises(ValueError, match=r"^envs\[0\]\.X: expected at least 2 samples, got 1"):
        inv.estimate_invariant_subspace([(x[:1], y[:1]), (x, y)], 1)
    with pytest.raises(ValueError, match=r"^envs\[1\]\.y"):
        inv.estimate_invariant_subspace([(x, y), (x, y[:5])], 1)
    with pytest.raises(ValueError, match=r"^envs\[0\]\.X"):
        inv.estimate_invariant_subspace([(x[:, 0], y), (x, y)], 1)
    with pytest.raises(ValueError, match=r"^k: expected an integer <= 2"):
        inv.estimate_invariant_subspace([(x, y), (x, y)], 3)
    with pytest.raises(ValueError, match=r"^k"):
        inv.estimate_invariant_subspace([(x, y), (x, y)], 0)


# ---- score_s, _scores, exhaustive_search_k1, fibonacci_sphere


def _ols_slope(t: np.ndarray, y: np.ndarray) -> float:
    """OLS slope of y on t with an intercept: the minimum-norm least-squares solution on the
    centred data (0 when t is constant), by np.linalg.lstsq."""
    tc = (t - t.mean())[:, None]
    return float(np.linalg.lstsq(tc, y - y.mean(), rcond=None)[0][0])


def _score(u: np.ndarray, envs: list[tuple[np.ndarray, np.ndarray]], lam: float) -> float:
    """S(u) = corr²(pooled uᵀx, y) - λ max_{e≠e'} (θ_e - θ_e')², θ_e the OLS slope."""
    u = u / np.linalg.norm(u)
    t = np.concatenate([x @ u for x, _ in envs])
    yy = np.concatenate([y for _, y in envs])
    a = float(np.corrcoef(t, yy)[0, 1] ** 2)
    slopes = [_ols_slope(x @ u, y) for x, y in envs]
    return a - lam * max((s - r) ** 2 for s in slopes for r in slopes)


def _toy_envs(seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Three environments in d = 3 with different slopes, means and sizes."""
    rng = np.random.default_rng(seed)
    envs = []
    for e, n in enumerate((60, 80, 100)):
        x = 1.0 + rng.standard_normal((n, 3))
        y = -0.5 + x @ np.array([1.0, 0.3 * e, -0.2]) + 0.4 * rng.standard_normal(n)
        envs.append((x, y))
    return envs


@pytest.mark.parametrize("lam", [0.0, 2.5, 10.0])
def test_score_s_is_the_documented_formula(lam: float) -> None:
    envs = _toy_envs(10)
    for u in (np.array([1.0, 0.0, 0.0]), np.array([0.3, -2.0, 0.7]), np.array([0.0, 1.0, 0.0])):
        want = _score(u, envs, lam)
        assert inv.score_s(u, envs, lam=lam) == pytest.approx(want, rel=1e-9, abs=1e-12)
        assert inv.score_s(-3.0 * u, envs, lam=lam) == pytest.approx(want, rel=1e-9, abs=1e-12)
    u = np.array([0.3, -2.0, 0.7])
    assert inv.score_s(u, envs) == pytest.approx(_score(u, envs, 10.0), rel=1e-9)  # λ = 10


def test_score_s_errors_and_constant_projection() -> None:
    envs = _toy_envs(11)
    with pytest.raises(ValueError, match=r"^direction: expected a non-zero vector"):
        inv.score_s([0.0, 0.0, 0.0], envs)
    with pytest.raises(ValueError, match=r"^direction"):
        inv.score_s([1.0, 0.0], envs)
    with pytest.raises(ValueError, match=r"^lam"):
        inv.score_s([1.0, 0.0, 0.0], envs, lam=-1.0)
    # uᵀx constant in every environment: no correlation and every slope read as 0
    flat = [(np.column_stack([np.full(len(y), 2.0), x[:, 1:]]), y) for x, y in envs]
    assert inv.score_s([1.0, 0.0, 0.0], flat) == 0.0
    # constant in one environment only: its slope is the minimum-norm OLS solution, 0
    mixed = [flat[0], *envs[1:]]
    u = np.array([1.0, 0.0, 0.0])
    want = _score(u, mixed, 10.0)
    assert want < -1.0  # the other slopes are about 1, so the 0 slope costs a lot
    assert inv.score_s(u, mixed) == pytest.approx(want, rel=1e-9)


def test_scores_equal_score_s_on_every_candidate() -> None:
    """_scores (1100 candidates: three chunks of 512) against the formula, λ = 0 and 4."""
    envs = _toy_envs(12)
    cands = inv.fibonacci_sphere(1100)
    for lam in (0.0, 4.0):
        got = inv._scores(cands, envs, lam)
        want = np.array([_score(c, envs, lam) for c in cands])
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)


def test_scores_small_scale_and_constant_projections() -> None:
    """_scores on data scaled by 1e-3 (every variance and correlation denominator below 1) and
    on directions whose projection is constant in one environment (slope 0 there) or in all of
    them (score 0, as score_s), with no floating-point warning (pytest makes them errors)."""
    small = [(1e-3 * x, y) for x, y in _toy_envs(17)]
    cands = inv.fibonacci_sphere(40)
    np.testing.assert_allclose(
        inv._scores(cands, small, 3.0),
        [_score(c, small, 3.0) for c in cands],
        rtol=1e-9,
        atol=1e-12,
    )
    envs = _toy_envs(18)
    one = [(np.column_stack([np.full(len(y), 2.0), x[:, 1:]]), y) if e == 0 else (x, y)
           for e, (x, y) in enumerate(envs)]  # fmt: skip
    every = [(np.column_stack([np.full(len(y), 2.0), x[:, 1:]]), y) for x, y in envs]
    e0 = np.array([[1.0, 0.0, 0.0], [0.6, 0.8, 0.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got_one = inv._scores(e0, one, 10.0)
        got_every = inv._scores(e0, every, 10.0)
    np.testing.assert_allclose(got_one, [_score(c, one, 10.0) for c in e0], rtol=1e-9)
    assert got_one[0] < -1.0  # the zero slope of environment 0 is penalised
    assert got_every[0] == 0.0
    assert got_every[1] == pytest.approx(inv.score_s(e0[1], every), rel=1e-12)


def test_exhaustive_search_returns_the_best_candidate() -> None:
    envs = _toy_envs(13)
    rng = np.random.default_rng(13)
    cands = rng.standard_normal((1100, 3)) * rng.uniform(0.1, 10.0, (1100, 1))
    for lam in (0.0, 10.0):
        want = np.array([_score(c, envs, lam) for c in cands])
        best = cands[int(np.argmax(want))]
        if lam == 10.0:
            got = inv.exhaustive_search_k1(envs, cands)  # λ = 10 by default
        else:
            got = inv.exhaustive_search_k1(envs, cands, lam=lam)
        np.testing.assert_allclose(got, best / np.linalg.norm(best), rtol=1e-12)
    with pytest.raises(ValueError, match=r"^candidates: expected non-zero directions"):
        inv.exhaustive_search_k1(envs, np.vstack([cands[:3], np.zeros(3)]))
    with pytest.raises(ValueError, match=r"^candidates"):
        inv.exhaustive_search_k1(envs, cands[:, :2])
    with pytest.raises(ValueError, match=r"^lam"):
        inv.exhaustive_search_k1(envs, cands, lam=-0.5)


def test_fibonacci_sphere_is_the_fibonacci_lattice() -> None:
    count = 301
    pts = inv.fibonacci_sphere(count)
    assert pts.shape == (count, 3)
    np.testing.assert_allclose(np.linalg.norm(pts, axis=1), 1.0, atol=1e-12)
    # equal-area bands: z_i = 1 - (2i + 1)/count
    np.testing.assert_allclose(pts[:, 2], 1.0 - (2 * np.arange(count) + 1) / count, atol=1e-12)
    # successive azimuths turn by the golden angle π(3 - √5) (either way round)
    turn = np.diff(np.unwrap(np.arctan2(pts[:, 1], pts[:, 0])))
    golden = math.pi * (3.0 - math.sqrt(5.0))
    np.testing.assert_allclose(
        np.abs((turn + math.pi) % (2 * math.pi) - math.pi), golden, atol=1e-9
    )
    assert float(np.linalg.norm(pts.mean(axis=0))) < 0.02  # nearly uniform: no net direction
    one = inv.fibonacci_sphere(1)
    assert one.shape == (1, 3)
    assert float(np.linalg.norm(one)) == pytest.approx(1.0)
    with pytest.raises(ValueError, match=r"^count"):
        inv.fibonacci_sphere(0)


# ---- make_toy_hard_instance / support_search


def test_toy_hard_instance_construction() -> None:
    n = 4000
    inst = inv.make_toy_hard_instance(6, 2, n, rng=np.random.default_rng(14), mus=(2.0, 0.5))
    v = inst.basis[:, 0]
    assert inst.basis.shape == (7, 1)
    assert v[-1] == 0.0
    assert int(np.count_nonzero(v)) == 2
    assert float(np.linalg.norm(v)) == pytest.approx(1.0, abs=1e-15)
    full = np.hstack([inst.basis, inst.spurious_basis])
    assert inst.spurious_basis.shape == (7, 6)
    np.testing.assert_allclose(full.T @ full, np.eye(7), atol=1e-12)
    assert inst.gamma == 1.5
    np.testing.assert_array_equal(inst.drifts, [[2.0], [0.5]])
    np.testing.assert_array_equal(inst.w_star, [1.0])
    assert inst.kind == "label"
    assert len(inst.environments) == 2
    for (x, y), mu in zip(inst.environments, (2.0, 0.5), strict=True):
        assert x.shape == (n, 7)
        z, w = x[:, :6], x[:, 6]
        np.testing.assert_allclose(np.cov(z, rowvar=False), np.eye(6), atol=0.1)
        assert float(np.std(y - z @ v[:6])) == pytest.approx(0.5, rel=0.08)
        assert float(np.std(w - mu * y)) == pytest.approx(1.0, rel=0.08)
    default = inv.make_toy_hard_instance(3, 3, 5, rng=np.random.default_rng(15))
    assert default.gamma == 2.0  # mus = (1, -1)
    np.testing.assert_array_equal(default.drifts, [[1.0], [-1.0]])
    assert int(np.count_nonzero(default.basis)) == 3  # s = m is allowed
    smallest = inv.make_toy_hard_instance(2, 1, 2, rng=np.random.default_rng(16))  # m = n = 2
    assert smallest.environments[0][0].shape == (2, 3)
    for key, bad in (("m", 1), ("s", 0), ("s", 4), ("n", 1)):
        args = {"m": 3, "s": 2, "n": 5, key: bad}
        with pytest.raises(ValueError, match=rf"^{key}"):
            inv.make_toy_hard_instance(**args, rng=np.random.default_rng(0))  # type: ignore[arg-type]


def _brute_support(envs: list[tuple[np.ndarray, np.ndarray]], s: int, lam: float) -> np.ndarray:
    """Spec 08, E3: for every support S (|S| = s) of the Z-block, pooled OLS on Z_S and on
    (Z_S, W); the arg-max of the score (first one on ties), unit norm."""
    x_all = np.vstack([x for x, _ in envs])
    y_all = np.concatenate([y for _, y in envs])
    d = x_all.shape[1]
    best, best_score = np.zeros(d), -math.inf
    for cols in itertools.combinations(range(d - 1), s):
        for used in (list(cols), [*cols, d - 1]):
            beta = np.linalg.lstsq(x_all[:, used], y_all, rcond=None)[0]
            cand = np.zeros(d)
            cand[used] = beta
            value = _score(cand, envs, lam)
            if value > best_score + 1e-12:
                best, best_score = cand / np.linalg.norm(cand), value
    return best


def test_support_search_is_the_documented_brute_force() -> None:
    inst = inv.make_toy_hard_instance(5, 2, 300, rng=np.random.default_rng(16))
    envs = list(inst.environments)
    for s, lam in ((2, 10.0), (1, 10.0), (2, 0.0), (3, 1.0), (5, 2.0)):  # s = d - 1 is allowed
        got = inv.support_search(envs, s) if lam == 10.0 else inv.support_search(envs, s, lam=lam)
        np.testing.assert_allclose(got, _brute_support(envs, s, lam), atol=1e-9)
    with pytest.raises(ValueError, match=r"^s"):
        inv.support_search(envs, 6)
    with pytest.raises(ValueError, match=r"^s"):
        inv.support_search(envs, 0)


def test_support_search_default_lambda_is_10() -> None:
    """An instance whose arg-max changes between λ = 10 and λ = 11 (weak drift, mus = ±0.0235):
    below about 10.6 the candidate with W wins, above it the one without."""
    inst = inv.make_toy_hard_instance(
        4, 1, 200, rng=np.random.default_rng(4), mus=(0.0235, -0.0235)
    )
    envs = list(inst.environments)
    at_10 = _brute_support(envs, 1, 10.0)
    assert not np.allclose(at_10, _brute_support(envs, 1, 11.0))  # the instance discriminates
    np.testing.assert_allclose(inv.support_search(envs, 1), at_10, atol=1e-9)
    at_11 = _brute_support(envs, 1, 11.0)
    np.testing.assert_allclose(inv.support_search(envs, 1, lam=11.0), at_11, atol=1e-9)
    # the same two directions as the candidates of the exhaustive search (default λ = 10)
    pair = np.vstack([at_11, at_10])
    np.testing.assert_allclose(inv.exhaustive_search_k1(envs, pair), at_10, atol=1e-12)
    np.testing.assert_allclose(inv.exhaustive_search_k1(envs, pair, lam=11.0), at_11, atol=1e-12)
