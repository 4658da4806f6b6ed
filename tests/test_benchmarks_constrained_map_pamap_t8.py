"""Spec 04 §6 (ii) Gaussian arm at T = 8 (``benchmarks/constrained_map_pamap_t8.py``): toy run."""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np
import pytest

from benchmarks import constrained_map_pamap_t8 as t8
from benchmarks import constrained_map_trajectory as traj
from reference import constrained_map as cm


def test_cpu_budget_stops_a_call_that_never_ends() -> None:
    t0 = time.process_time()
    def spin() -> None:
        with t8.cpu_budget(0.05):
            while True:
                pass

    with pytest.raises(t8.OutOfBudget):
        spin()
    # ITIMER_PROF is charged from the kernel's tick-sampled user/system times, which can trail
    # CLOCK_PROCESS_CPUTIME_ID (process_time) by up to one tick: the signal came at 0.0458 s of
    # process_time for this 0.05 s timer under load. One 10 ms tick of slack, no more.
    assert time.process_time() - t0 >= 0.04
    with t8.cpu_budget(60.0):  # a call inside its budget returns, and the timer is cleared
        total = sum(range(1000))
    assert total == 499500


def test_instances_are_the_trajectory_tables() -> None:
    a = t8.problem_of(3, 2, 1)
    b = cm.trajectory_problem(np.random.default_rng([1, 3, 2]), steps=3, obstacles=2, kind="gaussian")
    assert a.n == b.n == 6
    x = np.linspace(0.5, 9.5, 6)
    assert a.log_value(x) == b.log_value(x)
    assert np.array_equal(a.formula.A, b.formula.A)
    assert np.array_equal(a.formula.c, b.formula.c)


def test_toy_run_against_the_joint_o2(tmp_path: Path) -> None:
    # T = 2 with 1-2 obstacles: the joint O2 (PaMap without pruning, 20 starts) fits, so the
    # certified PaMap value the table uses as its oracle is checked against it here
    insts, text = t8.run(steps=2, obstacles=(1, 2), seeds=1, budget=600.0, command="toy", out=tmp_path)
    assert [(i.obstacles, i.seed) for i in insts] == [(1, 0), (2, 0)]
    for inst in insts:
        problem = t8.problem_of(2, inst.obstacles, 0)
        pa = inst.pamap
        assert pa.finished
        assert pa.certified
        assert pa.feasible
        o2 = cm.pa_map(problem, rng=np.random.default_rng([7, 0]), config=traj.O2)
        assert abs(inst.oracle - o2.log_value) <= 1e-6 * max(1.0, abs(o2.log_value))
        for out in inst.outcomes:
            if out.feasible:  # nothing feasible beats the exact MAP
                assert out.log_value <= inst.oracle + 1e-9 * max(1.0, abs(inst.oracle))
        b1 = next(o for o in inst.outcomes if o.method == "B1 agnostic")
        assert not b1.feasible  # the unconstrained mode sits inside the first obstacle
        assert math.isinf(b1.log_value)
    table = (tmp_path / "constrained_map_pamap_t8.md").read_text(encoding="utf-8")
    assert "| 2 | 1 | 0 | certified (exact) |" in table
    assert "PaMap finished 2 of 2 instances within the 600 s budget" in text
    assert "Instances not run when this table was written (the run was stopped there): none." in text


def test_an_instance_out_of_budget_is_reported_unfinished(monkeypatch: pytest.MonkeyPatch) -> None:
    def never_ends(*args: object, **kwargs: object) -> cm.MapResult:
        while True:
            pass

    monkeypatch.setattr(cm, "pa_map", never_ends)
    inst = t8.run_instance(2, 1, 0, 0.05)
    assert not inst.pamap.finished
    assert math.isnan(inst.oracle)
    assert [o.method for o in inst.outcomes] == ["PaMap", *t8.BASELINES]
    text = t8._render([inst], [], steps=2, obstacles=(1,), seeds=1, budget=0.05, command="toy",
                      env0="env", wall=0.0)
    assert "| 2 | 1 | 0 | unfinished at the 0.05 s budget | — | — | — |" in text
    assert "PaMap finished 0 of 1 instances within the 0.05 s budget (1 obstacles 0/1); 0 certified." in text


def test_cache_resumes_with_the_same_instances(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    kw = {"steps": 2, "obstacles": (1,), "seeds": 2, "budget": 600.0, "command": "toy", "out": None}
    first, text1 = t8.run(cache=cache, **kw)  # type: ignore[arg-type]
    assert "2 instance(s) run in this invocation, 0 reused from the cache" in text1
    assert sorted(p.name for p in cache.glob("*.pkl")) == [
        t8.cache_name(2, 1, 0, 600.0), t8.cache_name(2, 1, 1, 600.0)
    ]
    again, text2 = t8.run(cache=cache, jobs=2, **kw)  # type: ignore[arg-type]
    assert "0 instance(s) run in this invocation, 2 reused from the cache" in text2
    assert again == first  # the dataclasses compare field by field, outcomes included
    assert t8.cache_name(2, 1, 0, 600.0) != t8.cache_name(2, 1, 0, 1200.0)
