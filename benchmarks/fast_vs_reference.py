"""Every fast path against its reference: one table of agreement and speed, in one process.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python -m benchmarks.fast_vs_reference   # writes the table
    .venv/bin/python -m benchmarks.fast_vs_reference --check                 # tiny, no timing

One row per fast function that has a reference counterpart (STYLE B1, B8): the numpy fast paths
``reference.games.fast`` and ``reference.tsp.fast`` (+ ``fast_matching``), and one or more
functions of each torch fast path ``reference.<family>.fast_torch``.  For every row an input
factory is called separately for each side (neither side sees the other's arrays), the reference
and the fast function run on those inputs, and the row records whether the results agree (tours
and matchings: identical or not; arrays: the largest absolute difference, checked against a
stated tolerance; iterative methods: iteration counts equal or not) and the best wall time of a
few repeats (``time.perf_counter``; the input factory is outside the timed region).  Batched
torch functions are timed against a Python loop of the reference over the batch.  Torch runs on
the CPU in float64 with ``torch.set_num_threads(1)``, so both sides use one core.

``--check`` runs the agreement part only, on tiny sizes, prints the rows and exits 1 on any
disagreement (``tests/test_fast_vs_reference_table.py`` runs it).  A timing is never asserted.
Rows of the torch fast paths are left out when torch is not installed.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import importlib.util
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import scipy
from threadpoolctl import threadpool_info  # type: ignore[import-untyped]  # no py.typed

from benchmarks._env import pin_blas, write_table
from reference import games, tsp
from reference._arrays import FloatArray
from reference.games import fast as games_fast
from reference.tsp import decode as tsp_decode
from reference.tsp import fast as tsp_fast
from reference.tsp import fast_matching, matching

RESULTS = Path(__file__).resolve().parent / "results"
HAVE_TORCH = importlib.util.find_spec("torch") is not None

Args = tuple[tuple[Any, ...], dict[str, Any]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Agreement:
    """How the fast result compares with the reference's."""

    ok: bool
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Case:
    """One fast function next to its reference (OpInfo style).

    ``make_reference`` and ``make_fast`` are input factories, each called once per run, so every
    run of either side gets fresh inputs; ``agree(reference_out, fast_out)`` compares results.
    """

    family: str
    function: str
    inputs: str
    reference: Callable[..., Any]
    fast: Callable[..., Any]
    make_reference: Callable[[], Args]
    make_fast: Callable[[], Args]
    agree: Callable[[Any, Any], Agreement]
    torch: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Sizes:
    """Problem sizes of one run (``FULL`` for the table, ``TINY`` for ``--check``)."""

    game: tuple[int, int]
    tsp_n: int
    sweep_n: int
    rational_points: int
    rff_samples: int
    rff_features: int
    armijo_iter: int
    regret_batch: int
    regret_game: tuple[int, int]
    regret_iter: int
    tree_depth: int
    tree_samples: int
    tree_width: int
    mlp: tuple[int, int, int]
    mlp_samples: int
    md_dim: int
    md_iter: int
    ns_shape: tuple[int, int]
    qp_batch: int
    qp_size: tuple[int, int, int]
    spectrum_batch: int
    spectrum_shape: tuple[int, int]
    tour_batch: int
    tour_n: int


FULL = Sizes(
    game=(200, 300),
    tsp_n=50,
    sweep_n=50,
    rational_points=1_000_000,
    rff_samples=2000,
    rff_features=200,
    armijo_iter=100,
    regret_batch=8,
    regret_game=(50, 60),
    regret_iter=1000,
    tree_depth=8,
    tree_samples=2048,
    tree_width=32,
    mlp=(20, 64, 10),
    mlp_samples=512,
    md_dim=1000,
    md_iter=500,
    ns_shape=(512, 256),
    qp_batch=16,
    qp_size=(20, 15, 3),
    spectrum_batch=16,
    spectrum_shape=(256, 128),
    tour_batch=8,
    tour_n=50,
)
TINY = Sizes(
    game=(12, 30),
    tsp_n=12,
    sweep_n=8,
    rational_points=64,
    rff_samples=60,
    rff_features=12,
    armijo_iter=20,
    regret_batch=3,
    regret_game=(4, 5),
    regret_iter=60,
    tree_depth=4,
    tree_samples=120,
    tree_width=8,
    mlp=(3, 5, 4),
    mlp_samples=12,
    md_dim=6,
    md_iter=25,
    ns_shape=(5, 3),
    qp_batch=3,
    qp_size=(6, 5, 1),
    spectrum_batch=3,
    spectrum_shape=(4, 5),
    tour_batch=3,
    tour_n=12,
)


# ------------------------------------------------------------------------------- agreement
def _max_diff(want: Any, got: Any) -> float:
    w = np.asarray(want, dtype=np.float64)
    g = np.asarray(got, dtype=np.float64)
    if w.shape != g.shape:
        return float("inf")
    return float(np.max(np.abs(w - g))) if w.size else 0.0


def _arrays(atol: float) -> Callable[[Any, Any], Agreement]:
    """Arrays (or tensors): largest absolute difference, agreeing when ``<= atol``."""

    def agree(want: Any, got: Any) -> Agreement:
        diff = _max_diff(want, _numpy(got))
        return Agreement(ok=diff <= atol, text=f"max abs diff {diff:.1e} (tol {atol:.0e})")

    return agree


def _identical(want: Any, got: Any) -> Agreement:
    """Tours, matchings: the same integers in the same order."""
    same = np.array_equal(np.asarray(want), _numpy(got))
    return Agreement(ok=same, text="identical: yes" if same else "identical: NO")


def _identical_float(want: Any, got: Any) -> Agreement:
    same = float(want) == float(got)
    diff = abs(float(want) - float(got))
    return Agreement(ok=same, text="identical: yes" if same else f"identical: NO ({diff:.1e})")


def _value_diff(want: Any, got: Any) -> tuple[float, bool]:
    """``(largest absolute difference of the floating parts, other parts equal)``."""
    got = _numpy(got)
    if want is None or got is None:
        return 0.0, want is None and got is None
    if dataclasses.is_dataclass(want) and not isinstance(want, type):  # nested results
        if type(got) is not type(want):
            return 0.0, False
        names = [f.name for f in dataclasses.fields(want)]
        want, got = [getattr(want, k) for k in names], [getattr(got, k) for k in names]
    if isinstance(want, tuple | list):
        if not isinstance(got, tuple | list) or len(got) != len(want):
            return 0.0, False
        parts = [_value_diff(w, g) for w, g in zip(want, got, strict=True)]
        return max((d for d, _ in parts), default=0.0), all(same for _, same in parts)
    if isinstance(want, float) or (isinstance(want, np.ndarray) and want.dtype.kind == "f"):
        w = np.asarray(want, dtype=np.float64)
        g = np.asarray(got, dtype=np.float64)
        if w.shape != g.shape:
            return float("inf"), True
        with np.errstate(invalid="ignore"):
            d = np.abs(w - g)
        # equal entries (infinities included) and NaN in both: no difference; NaN in one: inf
        d = np.where((w == g) | (np.isnan(w) & np.isnan(g)), 0.0, d)
        d = np.where(np.isnan(d), np.inf, d)
        return (float(d.max()) if d.size else 0.0), True
    if isinstance(want, np.ndarray):
        return 0.0, np.array_equal(want, np.asarray(got))
    return 0.0, bool(want == got)


def _same_fields(atol: float, skip: tuple[str, ...] = ()) -> Callable[[Any, Any], Agreement]:
    """A fast path that returns its reference's result type: every field (but ``skip``)
    compared, floating ones to ``atol``, the rest exactly."""

    def agree(want: Any, got: Any) -> Agreement:
        if type(got) is not type(want):
            return Agreement(ok=False, text=f"type {type(got).__name__} != {type(want).__name__}")
        diff, differ = 0.0, []
        for f in dataclasses.fields(want):
            if f.name in skip:
                continue
            d, same = _value_diff(getattr(want, f.name), getattr(got, f.name))
            diff = max(diff, d)
            if not same:
                differ.append(f.name)
        fields = "every field equal" if not differ else f"DIFFER: {', '.join(differ)}"
        return Agreement(
            ok=diff <= atol and not differ,
            text=f"max abs diff {diff:.1e} (tol {atol:.0e}), {fields}",
        )

    return agree


def _row(value: Any, b: int, rows: int) -> Any:
    """Row ``b`` of a batched field (leading axis ``rows``); a scalar field as it is."""
    value = _numpy(value)
    if isinstance(value, tuple | list | np.ndarray) and len(value) == rows:
        return value[b]
    return value


def _batched_rows(atol: float) -> Callable[[Any, Any], Agreement]:
    """A batched fast path against a loop of its reference: row ``b`` of every field of the
    batched type (whose fields all carry the reference type's names) against that field of
    the ``b``-th reference result; floating ones to ``atol``, the rest exactly.  A row longer
    than the reference's array (a history padded after its instance stopped) is compared on
    the reference's length and must be NaN beyond it."""

    def agree(want: list[Any], got: Any) -> Agreement:
        names = [f.name for f in dataclasses.fields(got)]
        foreign = [k for k in names if k not in {f.name for f in dataclasses.fields(want[0])}]
        if foreign:
            return Agreement(ok=False, text=f"fields not in the reference type: {foreign}")
        diff, differ = 0.0, set()
        for b, w in enumerate(want):
            for k in names:
                ref, row = getattr(w, k), _row(getattr(got, k), b, len(want))
                if isinstance(ref, np.ndarray) and isinstance(row, np.ndarray):
                    if row.ndim == ref.ndim == 1 and row.shape[0] > ref.shape[0]:
                        if not np.isnan(row[ref.shape[0] :]).all():
                            differ.add(k)
                        row = row[: ref.shape[0]]
                elif isinstance(row, np.ndarray) and row.ndim == 0:
                    row = row.item()  # a 0-d row of a (B,) tensor: the reference's scalar
                if isinstance(ref, float) and not isinstance(row, float):
                    row = float(row)
                d, same = _value_diff(ref, row)
                diff = max(diff, d)
                if not same:
                    differ.add(k)
        fields = "every field equal" if not differ else f"DIFFER: {', '.join(sorted(differ))}"
        return Agreement(
            ok=diff <= atol and not differ,
            text=f"max abs diff {diff:.1e} (tol {atol:.0e}), {fields}, {len(names)} fields",
        )

    return agree


def _equilibria(atol: float) -> Callable[[Any, Any], Agreement]:
    """Equilibrium results: every field of EquilibriumResult but the wall time."""
    return _same_fields(atol, skip=("wall_time",))


_sweeps = _same_fields(0.0)  # SweepResult: every field identical
_repairs = _same_fields(0.0)  # RepairResult: every field identical


def _numpy(value: Any) -> Any:
    """A torch tensor as a numpy array (detached, on the CPU); anything else unchanged."""
    if hasattr(value, "detach"):
        return value.detach().cpu().numpy()
    return value


# ------------------------------------------------------------------------- numpy fast paths
def _game(sizes: Sizes) -> FloatArray:
    return np.random.default_rng([0, *sizes.game]).standard_normal(sizes.game)


def _games_cases(sizes: Sizes) -> list[Case]:
    m, n = sizes.game
    shape = f"A {m}x{n} N(0, 1)"

    def game_only() -> Args:
        return (_game(sizes),), {}

    def drs_args() -> Args:
        return (_game(sizes),), {"max_iter": 300}

    def direction_args() -> Args:
        rng = np.random.default_rng(1)
        return (_game(sizes), rng.normal(size=m + n) * 0.5, 0.1), {}

    eq = _equilibria(1e-9)
    return [
        Case(
            family="games",
            function="ssn",
            inputs=shape,
            reference=games.ssn,
            fast=games_fast.ssn,
            make_reference=game_only,
            make_fast=game_only,
            agree=eq,
        ),
        Case(
            family="games",
            function="hybrid",
            inputs=f"{shape}, PSSN",
            reference=games.hybrid,
            fast=games_fast.hybrid,
            make_reference=game_only,
            make_fast=game_only,
            agree=eq,
        ),
        Case(
            family="games",
            function="newton_direction",
            inputs=f"{shape}, u N(0, 0.25), mu 0.1",
            reference=games.newton_direction,
            fast=games_fast.newton_direction,
            make_reference=direction_args,
            make_fast=direction_args,
            agree=_arrays(1e-9),
        ),
        Case(
            family="games",
            function="drs",
            inputs=f"{shape}, 300 iterations max",
            reference=games.drs,
            fast=games_fast.drs,
            make_reference=drs_args,
            make_fast=drs_args,
            agree=eq,
        ),
    ]


def _tsp_instance(n: int) -> tuple[FloatArray, FloatArray]:
    """Euclidean points in the unit square, a G1 heatmap (perturbed random tour, sigma 0.3)."""
    rng = np.random.default_rng([0, n])
    distances = tsp.euclidean_instance(n, rng=rng)[1]
    heat = tsp.perturbed_optimum(rng.permutation(n), sigma=0.3, rng=rng)
    return distances, heat


def _tsp_cases(sizes: Sizes) -> list[Case]:
    n, ns = sizes.tsp_n, sizes.sweep_n
    label = f"n {n} Euclidean, G1 heatmap"

    def flat(count: int, **kw: Any) -> Callable[[], Args]:
        def make() -> Args:
            return _tsp_instance(count), dict(kw)

        return make

    def repair_args() -> Args:
        distances, heat = _tsp_instance(n)
        rows, cols = np.nonzero(np.triu(heat >= 0.5, 1))
        return (distances, np.stack([rows, cols], axis=1)), {}

    def threshold_args() -> Args:
        distances, heat = _tsp_instance(n)
        return (distances, heat, 0.5), {}

    def sampled_args() -> Args:
        distances, heat = _tsp_instance(n)
        return (distances, heat), {"k": 8, "rng": np.random.default_rng(7)}

    def matching_args() -> Args:
        return (_tsp_instance(n)[0],), {}

    return [
        Case(
            family="tsp",
            function="repair",
            inputs=f"{label}, edges X >= 0.5",
            reference=tsp_decode.repair,
            fast=tsp_fast.repair,
            make_reference=repair_args,
            make_fast=repair_args,
            agree=_identical,
        ),
        Case(
            family="tsp",
            function="repair_steps",
            inputs=f"{label}, edges X >= 0.5",
            reference=tsp_decode.repair_steps,
            fast=tsp_fast.repair_steps,
            make_reference=repair_args,
            make_fast=repair_args,
            agree=_repairs,
        ),
        Case(
            family="tsp",
            function="threshold_decode",
            inputs=f"{label}, tau 0.5",
            reference=tsp_decode.threshold_decode,
            fast=tsp_fast.threshold_decode,
            make_reference=threshold_args,
            make_fast=threshold_args,
            agree=_identical,
        ),
        Case(
            family="tsp",
            function="sweep_candidates",
            inputs=f"n {ns} Euclidean, G1 heatmap",
            reference=tsp_decode.sweep_candidates,
            fast=tsp_fast.sweep_candidates,
            make_reference=flat(ns),
            make_fast=flat(ns),
            agree=_sweeps,
        ),
        Case(
            family="tsp",
            function="sweep_decode",
            inputs=f"n {ns} Euclidean, G1 heatmap, with 2-opt",
            reference=tsp_decode.sweep_decode,
            fast=tsp_fast.sweep_decode,
            make_reference=flat(ns, with_two_opt=True),
            make_fast=flat(ns, with_two_opt=True),
            agree=_identical,
        ),
        Case(
            family="tsp",
            function="sampled_decode",
            inputs=f"{label}, k 8",
            reference=tsp_decode.sampled_decode,
            fast=tsp_fast.sampled_decode,
            make_reference=sampled_args,
            make_fast=sampled_args,
            agree=_identical,
        ),
        Case(
            family="tsp",
            function="expected_threshold_cost",
            inputs=f"n {ns} Euclidean, G1 heatmap",
            reference=tsp_decode.expected_threshold_cost,
            fast=tsp_fast.expected_threshold_cost,
            make_reference=flat(ns),
            make_fast=flat(ns),
            agree=_identical_float,
        ),
        Case(
            family="tsp",
            function="min_weight_perfect_matching",
            inputs=f"n {n} Euclidean distances",
            reference=matching.min_weight_perfect_matching,
            fast=fast_matching.min_weight_perfect_matching,
            make_reference=matching_args,
            make_fast=matching_args,
            agree=_identical,
        ),
    ]


# ------------------------------------------------------------------------- torch fast paths
def _torch_cases(sizes: Sizes) -> list[Case]:
    """One or more rows per torch fast path; every input is float64 on the CPU."""
    import torch
    from torch import nn

    from reference import activations as act
    from reference import divergence as dv
    from reference import hierarchical as hl
    from reference import inconsistency as inc
    from reference import mirror_descent as md
    from reference import optimizers as opt
    from reference import qp_layers as ql
    from reference import spectral as sp
    from reference.activations import fast_torch as act_t
    from reference.divergence import fast_torch as dv_t
    from reference.games import fast_torch as games_t
    from reference.hierarchical import fast_torch as hl_t
    from reference.inconsistency import fast_torch as inc_t
    from reference.mirror_descent import fast_torch as md_t
    from reference.optimizers import fast_torch as opt_t
    from reference.qp_layers import fast_torch as ql_t
    from reference.qp_layers.instances import planted_qp
    from reference.spectral import fast_torch as sp_t
    from reference.tsp import fast_torch as tsp_t

    f64 = torch.float64

    def tensors(*arrays: Any) -> tuple[Any, ...]:
        return tuple(torch.as_tensor(a, dtype=f64) for a in arrays)

    cases: list[Case] = []

    # activations: rational (version B) on a vector
    def rational_inputs() -> tuple[FloatArray, FloatArray, FloatArray]:
        rng = np.random.default_rng(11)
        return (
            rng.uniform(-3, 3, size=sizes.rational_points),
            rng.uniform(-1, 1, size=4),
            rng.uniform(-1, 1, size=2),
        )

    cases.append(
        Case(
            family="activations",
            function="rational",
            inputs=f"x {sizes.rational_points:,}, degrees (3, 2), version B",
            reference=act.rational,
            fast=act_t.rational,
            make_reference=lambda: (rational_inputs(), {"version": "B"}),
            make_fast=lambda: (tensors(*rational_inputs()), {"version": "B"}),
            agree=_arrays(1e-12),
            torch=True,
        )
    )

    # divergence: full-batch Armijo ascent on random Fourier features
    def rff_problem() -> tuple[FloatArray, FloatArray, dv.RandomFourierFeatures]:
        rng = np.random.default_rng(3)
        x = rng.standard_normal((sizes.rff_samples, 2))
        y = rng.standard_normal((sizes.rff_samples, 2)) + np.array([1.0, 0.0])
        return x, y, dv.make_rff(2, sizes.rff_features, sigma=1.0, rng=rng)

    armijo_cfg = dv.ArmijoConfig(radius=2.0, max_iter=sizes.armijo_iter, batch_size=None)

    def armijo_reference() -> Args:
        x, y, feats = rff_problem()
        return (feats.transform(x), feats.transform(y), 0.4, armijo_cfg), {}

    def armijo_fast() -> Args:
        x, y, feats = rff_problem()
        zx = dv_t.rff_transform(feats, torch.as_tensor(x, dtype=f64))
        zy = dv_t.rff_transform(feats, torch.as_tensor(y, dtype=f64))
        return (zx, zy, 0.4, armijo_cfg), {}

    armijo_agree = _same_fields(1e-9)  # the same result type, ArmijoResult

    cases.append(
        Case(
            family="divergence",
            function="armijo_ascent",
            inputs=(
                f"{sizes.rff_samples} + {sizes.rff_samples} samples, "
                f"{sizes.rff_features} RFF, full batch, <= {sizes.armijo_iter} iterations"
            ),
            reference=dv.armijo_ascent,
            fast=dv_t.armijo_ascent,
            make_reference=armijo_reference,
            make_fast=armijo_fast,
            agree=armijo_agree,
            torch=True,
        )
    )

    # games: batched PRM+ against a loop of the reference over the batch
    batch, (gm, gn) = sizes.regret_batch, sizes.regret_game
    regret_kw = {"tol": 1e-3, "max_iter": sizes.regret_iter}

    def regret_games() -> FloatArray:
        return np.random.default_rng(5).uniform(-1, 1, (batch, gm, gn))

    def prm_loop(payoffs: FloatArray, **kw: Any) -> list[games.EquilibriumResult]:
        return [games.prm_plus(p, **kw) for p in payoffs]

    prm_agree = _batched_rows(1e-10)  # BatchedEquilibriumResult rows vs EquilibriumResult

    cases.append(
        Case(
            family="games",
            function="prm_plus",
            inputs=f"batch {batch} of {gm}x{gn} U(-1, 1), tol 1e-3, <= {sizes.regret_iter} it.",
            reference=prm_loop,
            fast=games_t.prm_plus,
            make_reference=lambda: ((regret_games(),), dict(regret_kw)),
            make_fast=lambda: (tensors(regret_games()), dict(regret_kw)),
            agree=prm_agree,
            torch=True,
        )
    )

    # hierarchical: layerwise training, whole minibatch-loss trajectories and weights
    layer_cfg = hl.LayerwiseConfig(width=sizes.tree_width, epochs=2)

    def layerwise_inputs() -> Args:
        tree = hl.make_xor_tree(sizes.tree_depth, sizes.tree_samples, rng=np.random.default_rng(0))
        return (tree.x, tree.levels), {"rng": np.random.default_rng(7), "config": layer_cfg}

    # the same result type, LayerwiseResult: every field, the net's blocks included
    layerwise_agree = _same_fields(1e-9)

    cases.append(
        Case(
            family="hierarchical",
            function="train_layerwise",
            inputs=(
                f"XOR tree depth {sizes.tree_depth}, {sizes.tree_samples} samples, "
                f"width {sizes.tree_width}, 2 epochs"
            ),
            reference=hl.train_layerwise,
            fast=hl_t.train_layerwise,
            make_reference=layerwise_inputs,
            make_fast=layerwise_inputs,
            agree=layerwise_agree,
            torch=True,
        )
    )

    # inconsistency: local inconsistency (5 ascent steps) of an MLP, same noise draw
    n_in, n_hidden, n_classes = sizes.mlp
    model = inc.SoftmaxModel(kind="mlp", n_inputs=n_in, n_classes=n_classes, n_hidden=n_hidden)

    def mlp_problem() -> tuple[FloatArray, FloatArray]:
        rng = np.random.default_rng(3)
        theta = rng.standard_normal(model.n_params) * 0.5
        return theta, rng.standard_normal((sizes.mlp_samples, n_in))

    li_kw = {"rho": 0.05, "steps": 5, "noise_scale": 1e-3}

    def li_reference() -> Args:
        theta, x = mlp_problem()
        return (model, theta, x), {**li_kw, "rng": np.random.default_rng(8)}

    def li_fast() -> Args:
        theta, x = mlp_problem()
        net = nn.Sequential(
            nn.Linear(n_in, n_hidden), nn.Tanh(), nn.Linear(n_hidden, n_classes)
        ).to(dtype=f64)
        nn.utils.vector_to_parameters(torch.as_tensor(theta), net.parameters())
        noise = np.random.default_rng(8).standard_normal
        return (net, torch.as_tensor(x)), {**li_kw, "noise": noise}

    def li_agree(want: Any, got: Any) -> Agreement:
        value, deltas = got
        flat = torch.cat([d.reshape(-1) for d in deltas]).detach().numpy()
        diff = max(_max_diff(want.delta, flat), abs(float(value) - want.value))
        return _arrays(1e-10)(0.0, diff)

    cases.append(
        Case(
            family="inconsistency",
            function="local_inconsistency",
            inputs=f"MLP {n_in}-{n_hidden}-{n_classes}, {sizes.mlp_samples} inputs, 5 steps",
            reference=inc.local_inconsistency,
            fast=inc_t.local_inconsistency,
            make_reference=li_reference,
            make_fast=li_fast,
            agree=li_agree,
            torch=True,
        )
    )

    # mirror_descent: entropic mirror descent on a cosh ridge over the simplex, all iterates
    def ridge() -> tuple[md.RidgeProblem, FloatArray, float]:
        rng = np.random.default_rng(1)
        c = rng.uniform(-1.0, 1.0, size=sizes.md_dim)
        c[0], c[1] = -1.0, 1.0
        x0 = rng.dirichlet(np.ones(sizes.md_dim))
        problem = md.cosh_ridge(c, 0.2)
        bound = problem.value(x0) - 2.0
        return problem, x0, 1.0 / md.effective_constants(problem.smoothness("l1"), bound).lipschitz

    md_kw = {"max_iter": sizes.md_iter, "mirror": "entropic"}

    def md_reference() -> Args:
        problem, x0, eta = ridge()
        return (problem.grad, x0), {**md_kw, "step_size": eta}

    def md_fast() -> Args:
        problem, x0, eta = ridge()
        c = torch.tensor(np.array(problem.c), dtype=f64)

        def grad(x: torch.Tensor) -> torch.Tensor:
            out: torch.Tensor = 2.0 * torch.sinh(x @ c - problem.b) * c
            return out

        return (grad, torch.as_tensor(x0)), {**md_kw, "step_size": eta}

    cases.append(
        Case(
            family="mirror_descent",
            function="mirror_descent",
            inputs=f"entropic, simplex dim {sizes.md_dim}, {sizes.md_iter} iterations",
            reference=lambda *a, **kw: md.mirror_descent(*a, **kw).iterates,
            fast=md_t.mirror_descent,
            make_reference=md_reference,
            make_fast=md_fast,
            agree=_arrays(1e-12),
            torch=True,
        )
    )

    # optimizers: Newton-Schulz orthogonalisation (5 quintic steps)
    def ns_matrix() -> FloatArray:
        return np.random.default_rng(0).normal(size=sizes.ns_shape)

    rows, cols = sizes.ns_shape
    cases.append(
        Case(
            family="optimizers",
            function="newton_schulz",
            inputs=f"G {rows}x{cols} N(0, 1), 5 steps",
            reference=opt.newton_schulz,
            fast=opt_t.newton_schulz,
            make_reference=lambda: ((ns_matrix(),), {}),
            make_fast=lambda: (tensors(ns_matrix()), {}),
            agree=_arrays(1e-12),
            torch=True,
        )
    )

    # qp_layers: batched interior-point solve against a loop of the reference
    qn, qm, qp = sizes.qp_size
    qb = sizes.qp_batch

    def qp_instances() -> list[Any]:
        return [
            planted_qp(np.random.default_rng(seed), n=qn, m=qm, p=qp, k=max(1, qm // 3))
            for seed in range(qb)
        ]

    def qp_loop(instances: list[Any]) -> list[Any]:
        return [ql.solve_qp(*inst.args()) for inst in instances]

    def qp_fast() -> Args:
        args = [inst.args() for inst in qp_instances()]
        return tuple(
            torch.as_tensor(np.stack(parts), dtype=f64) for parts in zip(*args, strict=True)
        ), {}

    qp_agree = _batched_rows(1e-10)  # QPSolutionTorch rows vs QPSolution

    cases.append(
        Case(
            family="qp_layers",
            function="solve_qp",
            inputs=f"batch {qb} planted QPs, n {qn}, m {qm}, p {qp}",
            reference=qp_loop,
            fast=ql_t.solve_qp,
            make_reference=lambda: ((qp_instances(),), {}),
            make_fast=qp_fast,
            agree=qp_agree,
            torch=True,
        )
    )

    # spectral: normalised singular-value spectra of a stack of matrices
    sb, (sr, sc) = sizes.spectrum_batch, sizes.spectrum_shape

    def spectra() -> FloatArray:
        return np.random.default_rng(5).standard_normal((sb, sr, sc))

    cases.append(
        Case(
            family="spectral",
            function="normalized_spectrum",
            inputs=f"batch {sb} of {sr}x{sc} N(0, 1), trace",
            reference=lambda w: np.stack([sp.normalized_spectrum(m) for m in w]),
            fast=sp_t.normalized_spectrum,
            make_reference=lambda: ((spectra(),), {}),
            make_fast=lambda: (tensors(spectra()), {}),
            agree=_arrays(1e-12),
            torch=True,
        )
    )

    # tsp: batched greedy merge and 2-opt against loops of the reference
    tb, tn = sizes.tour_batch, sizes.tour_n

    def tour_batch() -> tuple[FloatArray, FloatArray, np.ndarray[Any, Any]]:
        rng = np.random.default_rng(2)
        ds, xs, ts = [], [], []
        for _ in range(tb):
            distances = tsp.euclidean_instance(tn, rng=rng)[1]
            start = rng.permutation(tn)
            ds.append(distances)
            xs.append(tsp.mixture_heatmap(start, lam=0.6, rng=rng))
            ts.append(start)
        return np.stack(ds), np.stack(xs), np.stack(ts)

    def merge_loop(ds: FloatArray, xs: FloatArray) -> Any:
        return np.stack([tsp.greedy_merge(d, x) for d, x in zip(ds, xs, strict=True)])

    def two_opt_loop(ds: FloatArray, ts: Any) -> list[tsp.TwoOptResult]:
        return [tsp.two_opt(d, t) for d, t in zip(ds, ts, strict=True)]

    two_opt_agree = _batched_rows(1e-12)  # TwoOptBatchResult rows vs TwoOptResult

    cases += [
        Case(
            family="tsp",
            function="greedy_merge",
            inputs=f"batch {tb}, n {tn} Euclidean, mixture heatmap",
            reference=merge_loop,
            fast=tsp_t.greedy_merge,
            make_reference=lambda: (tour_batch()[:2], {}),
            make_fast=lambda: (tensors(*tour_batch()[:2]), {}),
            agree=_identical,
            torch=True,
        ),
        Case(
            family="tsp",
            function="two_opt",
            inputs=f"batch {tb}, n {tn} Euclidean, random starts",
            reference=two_opt_loop,
            fast=tsp_t.two_opt,
            make_reference=lambda: ((tour_batch()[0], tour_batch()[2]), {}),
            make_fast=lambda: ((torch.as_tensor(tour_batch()[0]), tour_batch()[2]), {}),
            agree=two_opt_agree,
            torch=True,
        ),
    ]
    return cases


def _torch_more_cases(sizes: Sizes) -> list[Case]:
    """The remaining torch functions with a reference of the same name (cheaper rows)."""
    import torch
    from torch import nn

    from reference import divergence as dv
    from reference import inconsistency as inc
    from reference import mirror_descent as md
    from reference import optimizers as opt
    from reference import qp_layers as ql
    from reference.divergence import fast_torch as dv_t
    from reference.games import fast_torch as games_t
    from reference.inconsistency import fast_torch as inc_t
    from reference.mirror_descent import fast_torch as md_t
    from reference.optimizers import fast_torch as opt_t
    from reference.qp_layers import fast_torch as ql_t
    from reference.qp_layers.instances import planted_qp
    from reference.tsp import fast_torch as tsp_t
    from reference.tsp.baselines import greedy_merge_order

    f64 = torch.float64

    def tensors(*arrays: Any) -> tuple[Any, ...]:
        return tuple(torch.as_tensor(a, dtype=f64) for a in arrays)

    cases: list[Case] = []

    # divergence: the feature map and the whole (in-sample) estimator
    def rff_problem() -> tuple[FloatArray, FloatArray, dv.RandomFourierFeatures]:
        rng = np.random.default_rng(4)
        x = rng.standard_normal((sizes.rff_samples, 2))
        y = rng.standard_normal((sizes.rff_samples, 2)) + np.array([1.0, 0.0])
        return x, y, dv.make_rff(2, sizes.rff_features, sigma=1.0, rng=rng)

    est_cfg = dv.ArmijoConfig(radius=3.0, max_iter=sizes.armijo_iter, batch_size=None)

    def est_reference() -> Args:
        x, y, feats = rff_problem()
        kw = {"features": feats, "rng": np.random.default_rng(1), "config": est_cfg}
        return (x, y, 0.5), {**kw, "heldout": False}

    def est_fast() -> Args:
        x, y, feats = rff_problem()
        return (x, y, 0.5), {"features": feats, "rng": np.random.default_rng(1), "config": est_cfg}

    samples = f"{sizes.rff_samples} + {sizes.rff_samples} samples, {sizes.rff_features} RFF"
    cases += [
        Case(
            family="divergence",
            function="rff_transform",
            inputs=f"{sizes.rff_samples} x 2 points, {sizes.rff_features} features",
            reference=lambda feats, x: feats.transform(x),
            fast=dv_t.rff_transform,
            make_reference=lambda: ((rff_problem()[2], rff_problem()[0]), {}),
            make_fast=lambda: ((rff_problem()[2], *tensors(rff_problem()[0])), {}),
            agree=_arrays(1e-12),
            torch=True,
        ),
        Case(
            family="divergence",
            function="estimate_alpha_divergence",
            inputs=f"{samples}, in-sample, <= {sizes.armijo_iter} iterations",
            reference=lambda *a, **kw: dv.estimate_alpha_divergence(*a, **kw).value,
            fast=dv_t.estimate_alpha_divergence,
            make_reference=est_reference,
            make_fast=est_fast,
            agree=_arrays(1e-10),
            torch=True,
        ),
    ]

    # games: batched RM+ and the duality gap against loops of the reference
    batch, (gm, gn) = sizes.regret_batch, sizes.regret_game
    regret_kw = {"tol": 1e-3, "max_iter": sizes.regret_iter, "alternating": True}

    def regret_games() -> FloatArray:
        return np.random.default_rng(6).uniform(-1, 1, (batch, gm, gn))

    def profiles() -> tuple[FloatArray, FloatArray, FloatArray]:
        rng = np.random.default_rng(7)
        payoff = rng.uniform(-1, 1, (batch, gm, gn))
        return payoff, rng.dirichlet(np.ones(gm), batch), rng.dirichlet(np.ones(gn), batch)

    def rm_loop(payoffs: FloatArray, **kw: Any) -> list[games.EquilibriumResult]:
        return [games.rm_plus(p, **kw) for p in payoffs]

    rm_agree = _batched_rows(1e-10)  # BatchedEquilibriumResult rows vs EquilibriumResult

    cases += [
        Case(
            family="games",
            function="rm_plus",
            inputs=f"batch {batch} of {gm}x{gn} U(-1, 1), alternating, tol 1e-3",
            reference=rm_loop,
            fast=games_t.rm_plus,
            make_reference=lambda: ((regret_games(),), dict(regret_kw)),
            make_fast=lambda: (tensors(regret_games()), dict(regret_kw)),
            agree=rm_agree,
            torch=True,
        ),
        Case(
            family="games",
            function="duality_gap",
            inputs=f"batch {batch} of {gm}x{gn}, Dirichlet profiles",
            reference=lambda a, x, y: np.array(
                [games.duality_gap(a[b], x[b], y[b]) for b in range(len(a))]
            ),
            fast=games_t.duality_gap,
            make_reference=lambda: (profiles(), {}),
            make_fast=lambda: (tensors(*profiles()), {}),
            agree=_arrays(1e-12),
            torch=True,
        ),
    ]

    # inconsistency: batch KL of an MLP under a perturbation
    n_in, n_hidden, n_classes = sizes.mlp
    model = inc.SoftmaxModel(kind="mlp", n_inputs=n_in, n_classes=n_classes, n_hidden=n_hidden)

    def kl_problem() -> tuple[FloatArray, FloatArray, FloatArray]:
        rng = np.random.default_rng(4)
        theta = rng.standard_normal(model.n_params) * 0.5
        delta = rng.standard_normal(model.n_params) * 0.3
        return theta, delta, rng.standard_normal((sizes.mlp_samples, n_in))

    def kl_fast() -> Args:
        theta, delta, x = kl_problem()
        net = nn.Sequential(
            nn.Linear(n_in, n_hidden), nn.Tanh(), nn.Linear(n_hidden, n_classes)
        ).to(dtype=f64)
        nn.utils.vector_to_parameters(torch.as_tensor(theta), net.parameters())
        return (net, torch.as_tensor(delta), torch.as_tensor(x)), {}

    cases.append(
        Case(
            family="inconsistency",
            function="batch_kl",
            inputs=f"MLP {n_in}-{n_hidden}-{n_classes}, {sizes.mlp_samples} inputs",
            reference=inc.batch_kl,
            fast=inc_t.batch_kl,
            make_reference=lambda: ((model, *kl_problem()), {}),
            make_fast=kl_fast,
            agree=_arrays(1e-12),
            torch=True,
        )
    )

    # mirror_descent: one entropic step
    def step_inputs() -> tuple[FloatArray, FloatArray, float]:
        rng = np.random.default_rng(3)
        return rng.dirichlet(np.ones(sizes.md_dim)), rng.standard_normal(sizes.md_dim), 0.7

    cases.append(
        Case(
            family="mirror_descent",
            function="entropic_step",
            inputs=f"simplex dim {sizes.md_dim}, eta 0.7",
            reference=md.entropic_step,
            fast=md_t.entropic_step,
            make_reference=lambda: (step_inputs(), {}),
            make_fast=lambda: ((*tensors(*step_inputs()[:2]), 0.7), {}),
            agree=_arrays(1e-14),
            torch=True,
        )
    )

    # optimizers: exact polar factor, and Muon / Lion over a fixed gradient sequence
    rows, cols = sizes.ns_shape
    steps = 10

    def matrix() -> FloatArray:
        return np.random.default_rng(0).normal(size=sizes.ns_shape)

    def gradients() -> list[FloatArray]:
        rng = np.random.default_rng(9)
        return [rng.normal(size=sizes.ns_shape) for _ in range(steps)]

    def run_reference(factory: Callable[[], Any]) -> Callable[[FloatArray, list[FloatArray]], Any]:
        def run(x0: FloatArray, grads: list[FloatArray]) -> Any:
            method = factory()
            params: Any = (x0,)
            state = method.init(params)
            for g in grads:
                updates, state = method.update((g,), state, params)
                params = opt.apply_updates(params, updates)
            return params[0]

        return run

    def run_fast(factory: Callable[[list[Any]], Any]) -> Callable[[Any, list[Any]], Any]:
        def run(x0: Any, grads: list[Any]) -> Any:
            param = x0.clone().requires_grad_(True)
            method = factory([param])
            for g in grads:
                param.grad = g
                method.step()
            return param

        return run

    def fast_inputs() -> Args:
        return (torch.as_tensor(matrix()), [torch.as_tensor(g) for g in gradients()]), {}

    cases += [
        Case(
            family="optimizers",
            function="polar",
            inputs=f"G {rows}x{cols} N(0, 1), SVD",
            reference=opt.polar,
            fast=opt_t.polar,
            make_reference=lambda: ((matrix(),), {}),
            make_fast=lambda: (tensors(matrix()), {}),
            agree=_arrays(1e-12),
            torch=True,
        ),
        Case(
            family="optimizers",
            function="muon",
            inputs=f"W {rows}x{cols}, {steps} steps of given gradients, lr 0.05, wd 0.2",
            reference=run_reference(lambda: opt.muon(learning_rate=0.05, weight_decay=0.2)),
            fast=run_fast(lambda ps: opt_t.muon(ps, learning_rate=0.05, weight_decay=0.2)),
            make_reference=lambda: ((matrix(), gradients()), {}),
            make_fast=fast_inputs,
            agree=_arrays(1e-10),
            torch=True,
        ),
        Case(
            family="optimizers",
            function="lion",
            inputs=f"W {rows}x{cols}, {steps} steps of given gradients, lr 0.05, wd 0.3",
            reference=run_reference(lambda: opt.lion(learning_rate=0.05, weight_decay=0.3)),
            fast=run_fast(lambda ps: opt_t.lion(ps, learning_rate=0.05, weight_decay=0.3)),
            make_reference=lambda: ((matrix(), gradients()), {}),
            make_fast=fast_inputs,
            agree=_arrays(1e-10),
            torch=True,
        ),
    ]

    # qp_layers: KKT and first-order backward passes, and the ghost PGD trajectory
    qn, qm, qp = sizes.qp_size

    def qp_args() -> tuple[Any, ...]:
        inst = planted_qp(np.random.default_rng(0), n=qn, m=qm, p=qp, k=max(1, qm // 3))
        return (*inst.args(), np.random.default_rng(100).standard_normal(qn))

    def pgd_args() -> tuple[Any, ...]:
        inst = planted_qp(np.random.default_rng(3), n=qn, m=qm, p=qp, k=max(1, qm // 3))
        assert inst.G is not None
        assert inst.A is not None
        c = np.concatenate([inst.G[inst.active], inst.A])
        d = np.random.default_rng(9).standard_normal(qn)
        return inst.Q, inst.q, c, c @ inst.y, d, inst.y

    def grads_agree(want: Any, got: Any) -> Agreement:
        """The six gradients to 1e-9; ``active``, ``iterations``, ``converged`` exactly."""
        keys = ("Q", "q", "G", "h", "A", "b")
        diff = max(_max_diff(getattr(want, k), _numpy(getattr(got, k))) for k in keys)
        grads = _arrays(1e-9)(0.0, diff)
        differ = [
            k
            for k in ("active", "iterations", "converged")
            if not _value_diff(getattr(want, k), getattr(got, k))[1]
        ]
        rest = (
            "active, iterations, converged equal" if not differ else f"DIFFER: {', '.join(differ)}"
        )
        return Agreement(ok=grads.ok and not differ, text=f"{grads.text}, {rest}")

    pgd_kw = {"alpha": 100.0, "max_iter": 200}
    cases += [
        Case(
            family="qp_layers",
            function="kkt_grads",
            inputs=f"planted QP n {qn}, m {qm}, p {qp}",
            reference=ql.kkt_grads,
            fast=ql_t.kkt_grads,
            make_reference=lambda: (qp_args(), {}),
            make_fast=lambda: (qp_args(), {}),
            agree=grads_agree,
            torch=True,
        ),
        Case(
            family="qp_layers",
            function="ffo_grads",
            inputs=f"planted QP n {qn}, m {qm}, p {qp}, alpha 100",
            reference=ql.ffo_grads,
            fast=ql_t.ffo_grads,
            make_reference=lambda: (qp_args(), {"alpha": 100.0}),
            make_fast=lambda: (qp_args(), {"alpha": 100.0}),
            agree=grads_agree,
            torch=True,
        ),
        Case(
            family="qp_layers",
            function="ghost_pgd",
            inputs=f"planted QP n {qn}, active set + equalities, alpha 100, 200 steps",
            reference=lambda *a, **kw: ql.ghost_pgd(*a, **kw, tol=1e-300, record=True).history,
            fast=ql_t.ghost_pgd,
            make_reference=lambda: (pgd_args(), dict(pgd_kw)),
            make_fast=lambda: (pgd_args(), dict(pgd_kw)),
            agree=_arrays(1e-12),
            torch=True,
        ),
    ]

    # tsp: batched greedy-merge edge order against a loop of the reference
    tb, tn = sizes.tour_batch, sizes.tour_n

    def heat_batch() -> tuple[FloatArray, FloatArray]:
        rng = np.random.default_rng(2)
        ds = np.stack([tsp.euclidean_instance(tn, rng=rng)[1] for _ in range(tb)])
        return ds, np.stack([tsp.soft_dist(d, temperature=0.05) for d in ds])

    cases.append(
        Case(
            family="tsp",
            function="greedy_merge_order",
            inputs=f"batch {tb}, n {tn} Euclidean, SoftDist heatmap",
            reference=lambda ds, xs: np.stack(
                [greedy_merge_order(d, x) for d, x in zip(ds, xs, strict=True)]
            ),
            fast=tsp_t.greedy_merge_order,
            make_reference=lambda: (heat_batch(), {}),
            make_fast=lambda: (tensors(*heat_batch()), {}),
            agree=_identical,
            torch=True,
        )
    )
    return cases


def cases(sizes: Sizes, *, with_torch: bool = HAVE_TORCH) -> list[Case]:
    """Every row of the table at ``sizes`` (torch rows only when ``with_torch``)."""
    out = _games_cases(sizes) + _tsp_cases(sizes)
    if not with_torch:
        return out
    torch_rows = _torch_cases(sizes) + _torch_more_cases(sizes)
    return out + sorted(torch_rows, key=lambda case: case.family)  # stable: grouped by family


# --------------------------------------------------------------------------------- running
@dataclass(frozen=True, slots=True, kw_only=True)
class Row:
    """One measured row."""

    case: Case
    agreement: Agreement
    reference_s: float
    fast_s: float
    runs: tuple[int, int]  # (reference, fast)


def agreement(case: Case) -> Agreement:
    """Run both sides once on fresh inputs and compare (no timing)."""
    ref_args, ref_kw = case.make_reference()
    want = case.reference(*ref_args, **ref_kw)
    fast_args, fast_kw = case.make_fast()
    got = case.fast(*fast_args, **fast_kw)
    return case.agree(want, got)


def _timed(fn: Callable[..., Any], make: Callable[[], Args]) -> tuple[float, Any]:
    args, kw = make()
    start = time.perf_counter()
    out = fn(*args, **kw)
    return time.perf_counter() - start, out


def measure(case: Case, *, repeats: int, budget_s: float) -> Row:
    """Best of ``repeats`` runs per side, reference and fast alternating; the reference is
    repeated only while its total time stays within ``budget_s``.  The first runs' results
    are compared."""
    t_ref, want = _timed(case.reference, case.make_reference)
    t_fast, got = _timed(case.fast, case.make_fast)
    spent, ref_runs, fast_runs = t_ref, 1, 1
    while fast_runs < repeats:
        if ref_runs < repeats and spent + t_ref <= budget_s:
            seconds = _timed(case.reference, case.make_reference)[0]
            spent, t_ref, ref_runs = spent + seconds, min(t_ref, seconds), ref_runs + 1
        t_fast = min(t_fast, _timed(case.fast, case.make_fast)[0])
        fast_runs += 1
    return Row(
        case=case,
        agreement=case.agree(want, got),
        reference_s=t_ref,
        fast_s=t_fast,
        runs=(ref_runs, fast_runs),
    )


def _blas() -> str:
    pools = [
        f"{p.get('internal_api')} {p.get('version')} ({p.get('architecture')}, "
        f"{p.get('num_threads')} thread{'s' if p.get('num_threads') != 1 else ''}, "
        f"{p.get('prefix')})"
        for p in threadpool_info()
    ]
    return "; ".join(pools) or "none found"


def _load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def _env(name: str) -> str:
    value = os.environ.get(name)
    return f"`{name}={value}`" if value is not None else f"`{name}` unset"


def _versions() -> str:
    parts = [f"numpy {np.__version__}", f"scipy {scipy.__version__}"]
    if HAVE_TORCH:
        import torch

        parts.append(
            f"torch {torch.__version__} (CPU, float64, {torch.get_num_threads()} intra-op thread)"
        )
    else:
        parts.append("torch not installed (torch rows left out)")
    return ", ".join(parts) + f", Python {platform.python_version()}"


def table(rows: Sequence[Row]) -> list[str]:
    lines = [
        "| family | function | inputs | agreement | reference s | fast s | reference / fast | "
        "path | runs (ref / fast) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        c = row.case
        path = "torch (CPU, float64)" if c.torch else "numpy"
        ratio = row.reference_s / row.fast_s if row.fast_s > 0 else float("inf")
        lines.append(
            f"| {c.family} | {c.function} | {c.inputs} | {row.agreement.text} | "
            f"{row.reference_s:.4g} | {row.fast_s:.4g} | {ratio:.3g} | {path} | {row.runs[0]} / {row.runs[1]} |"
        )
    return lines


def check(sizes: Sizes = TINY, *, with_torch: bool = HAVE_TORCH) -> list[tuple[Case, Agreement]]:
    """The agreement part alone (``--check``): every case at ``sizes``, no timing."""
    return [(case, agreement(case)) for case in cases(sizes, with_torch=with_torch)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="agreement only, tiny sizes")
    parser.add_argument("--repeats", type=int, default=3, help="best of this many runs")
    parser.add_argument(
        "--budget", type=float, default=60.0, help="seconds one row's reference may take in all"
    )
    parser.add_argument("--out", type=Path, default=RESULTS / "fast_vs_reference.md")
    args = parser.parse_args(argv)
    if args.check:
        results = check()
        for case, agreed in results:
            print(f"{'ok  ' if agreed.ok else 'FAIL'} {case.family}.{case.function}: {agreed.text}")
        return 0 if all(agreed.ok for _, agreed in results) else 1

    if HAVE_TORCH:
        import torch

        torch.set_num_threads(1)  # one core per side, as OPENBLAS_NUM_THREADS=1 for numpy
    load_before = _load()
    started = time.perf_counter()
    rows = []
    for case in cases(FULL):
        row = measure(case, repeats=args.repeats, budget_s=args.budget)
        print(f"{case.family}.{case.function}: {row.agreement.text}", flush=True)
        rows.append(row)
    wall = time.perf_counter() - started
    load_after = _load()
    prefix = [
        f"{k}={os.environ[k]}" for k in ("OPENBLAS_NUM_THREADS", "PYTHONPATH") if k in os.environ
    ]
    command = " ".join([*prefix, sys.executable, "-m benchmarks.fast_vs_reference", *sys.argv[1:]])
    header = [
        "# Fast paths against their references: agreement and speed (one process)",
        "",
        f"Command: `{command}` (wall {wall:.0f} s).  Date: "
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC.",
        "",
        f"Versions: {_versions()}.",
        "",
        f"BLAS (threadpoolctl): {_blas()}.",
        "",
        f"Environment: {_env('OPENBLAS_NUM_THREADS')}, {_env('OPENBLAS_CORETYPE')}, "
        f"{_env('OMP_NUM_THREADS')}, {_env('MKL_NUM_THREADS')} (as found in the environment "
        "of the run: only `OPENBLAS_NUM_THREADS=1` was set for it; nothing else was changed).  Machine: shared, "
        f"{os.cpu_count()} cores; load average (1/5/15 min) {load_before} before, "
        f"{load_after} after.",
        "",
        "Each row: the input factory is called anew for every run of either side; times are "
        f"the best of up to {args.repeats} runs (`time.perf_counter`, factory not timed); the "
        f"reference is repeated only while its runs total at most {args.budget:g} s (column "
        "`runs`: reference / fast).  Reference and fast runs alternate.  Batched "
        "torch functions run the whole batch in one call; their reference is a Python loop "
        "over the batch.  Torch: CPU, float64, one intra-op thread.  Agreement: tours and "
        "matchings identical or not; arrays the largest absolute difference against the stated "
        "tolerance; iterative methods also whether the iteration counts are equal.",
        "",
    ]
    write_table(args.out, "\n".join([*header, *table(rows), ""]), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0 if all(row.agreement.ok for row in rows) else 1


if __name__ == "__main__":
    pin_blas(1)
    raise SystemExit(main())
