"""Spec 19 baselines and simplex paths (``benchmarks/perturbation_efg_baselines.py``): toy runs."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from benchmarks import perturbation_efg_baselines as pb
from reference import extensive as efg
from reference import perturbation as pert


def test_table4_kuhn_settings_are_the_defaults() -> None:
    assert pb.METHODS["AsymP-DGDA"] == (0.1, 0.01)
    assert pb.METHODS["SymP-DGDA"] == (0.05, 0.001)
    assert {k: v[0] for k, v in pb.METHODS.items() if v[1] == 0.0} == {
        "DGDA": 0.01,
        "DMWU": 0.01,
        "DOMWU": 0.1,
        "DOGDA": 0.1,
    }


def test_simplex_path_ends_where_the_reference_functions_end() -> None:
    a = np.asarray(pert.biased_rps())
    x0s, y0s = pert.dirichlet_starts(a.shape, trials=1, rng=np.random.default_rng(3))
    x0, y0 = np.asarray(x0s)[0], np.asarray(y0s)[0]
    for method in ("AsymP-GDA", "SymP-GDA", "GDA", "OGDA"):
        xs, ys = pb.simplex_path(method, a, x0, y0, 200)
        assert xs.shape == (201, 3)
        assert np.allclose(xs.sum(axis=1), 1.0)
        assert np.all(xs >= 0)
        rx, ry = pb.reference_endpoint(method, a, x0, y0, 200)
        assert np.allclose(xs[-1], rx, atol=1e-12)
        assert np.allclose(ys[-1], ry, atol=1e-12)


def test_dilated_histories_start_at_the_uniform_profile_and_cfr_improves() -> None:
    g = efg.kuhn_poker()
    xu = efg.behavioural_to_plan(g.x_space, efg.uniform_behavioural(g.x_space))
    yu = efg.behavioural_to_plan(g.y_space, efg.uniform_behavioural(g.y_space))
    start = efg.nash_conv(g, xu, yu)
    assert abs(start - 11 / 12) < 1e-12  # Kuhn's uniform profile (also OpenSpiel's value)
    for name in pb.METHODS:
        h = pb.run_method(g, name, 30)
        assert h.shape == (31,)
        assert abs(h[0] - start) < 1e-12
    checks, vals = pb.cfr_curve(g, True, 200)
    assert checks.tolist() == [10.0, 100.0, 200.0]
    assert vals[-1] < vals[0] < start


def test_toy_run_writes_table_and_plots(tmp_path: Path) -> None:
    s = pb.Settings(kuhn_iters=50, leduc_iters=3, kuhn_cfr=20, leduc_cfr=2, path_iters=50)
    finals = pb.run(s, out=tmp_path)
    assert set(finals) == {"Kuhn poker", "Leduc poker"}
    assert set(finals["Leduc poker"]) == {*pb.METHODS, "CFR", "CFR+"}
    table = (tmp_path / "perturbation_efg_baselines.md").read_text(encoding="utf-8")
    assert "| DOMWU (last iterate) | 0.1, 0.0 | 50 |" in table
    for name in ("kuhn", "leduc", "simplex"):
        assert (tmp_path / f"perturbation_efg_{name}.png").stat().st_size > 0
