"""Mutant table of the constrained_map theorem checks (see ``tests/_proof_mutants.py``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from reference import constrained_map as cm
from reference._arrays import FloatArray
from tests._proof_mutants import ProofMutant
from tests.constrained_map import mutants as hand

__all__ = ["MUTANTS"]


def _result_at(problem: cm.MapProblem, base: cm.MapResult, x: FloatArray) -> cm.MapResult:
    """``base`` moved to ``x``, reporting ``w(x)`` and feasible (what a buggy solver claims)."""
    value = float(problem.density.value_many(np.asarray(x, dtype=np.float64)[None, :])[0])
    log_value = float(np.log(value)) if value > 0 else -np.inf
    return dataclasses.replace(
        base, x=np.asarray(x, dtype=np.float64), value=value, log_value=log_value, feasible=True
    )


def mp_map_unconstrained_mode(problem: cm.MapProblem) -> cm.MapResult:
    """MpMap that returns the unconstrained mode (per-factor argmax) and calls it feasible."""
    x, _ = hand.tree_ignores_constraints(problem)
    return _result_at(problem, cm.mp_map(problem), x)


def mp_map_first_feasible(problem: cm.MapProblem) -> cm.MapResult:
    """MpMap that stops at a feasible point (first cell's Chebyshev centre) without optimising."""
    x, ok = hand.tree_first_feasible_point(problem)
    base = cm.mp_map(problem)
    return _result_at(problem, base, x) if ok else base


def pa_map_first_cell(
    problem: cm.MapProblem, *, rng: np.random.Generator, config: cm.PaMapConfig | None = None
) -> cm.MapResult:
    """PaMap that stops after the first emitted cell."""
    config = config if config is not None else cm.PaMapConfig()
    return cm.pa_map(problem, rng=rng, config=dataclasses.replace(config, max_cells=1))


def pa_map_agnostic(
    problem: cm.MapProblem, *, rng: np.random.Generator, config: cm.PaMapConfig | None = None
) -> cm.MapResult:
    """PaMap replaced by the constraint-agnostic mode B1, reported feasible."""
    del config
    r = cm.agnostic_map(problem, rng=rng, starts=3)
    return _result_at(problem, r, np.asarray(r.x))


def pa_cells_drops_last(problem: cm.MapProblem, *, max_cells: int = 100_000) -> Any:
    """``pa_cells`` that loses the last emitted cell (off-by-one in the DFS output)."""
    return cm.pa_cells(problem, max_cells=max_cells)[:-1]


def pa_cells_repeats_first(problem: cm.MapProblem, *, max_cells: int = 100_000) -> Any:
    """``pa_cells`` that emits its first cell twice (cells no longer interior-disjoint)."""
    cells = cm.pa_cells(problem, max_cells=max_cells)
    return cells[:1] + cells if cells else cells


def agnostic_map_constrained(
    problem: cm.MapProblem, *, rng: np.random.Generator, starts: int = 20
) -> cm.MapResult:
    """B1 that silently solves the constrained problem (PaMap) instead of ignoring Δ."""
    del starts
    return cm.pa_map(problem, rng=rng)


def mp_beliefs_cubed_grid(problem: cm.MapProblem) -> tuple[cm.PiecewisePolynomial, ...]:
    """Beliefs re-tabulated on a constant grid of (pieces)³ cells (resolution tied to size)."""
    out = []
    for b in cm.mp_beliefs(problem):
        cells = max(2, len(b.coeffs) ** 3)
        out.append(hand._tabulate(b, float(b.lo), float(b.hi), cells))
    return tuple(out)


def example_2_2_without_delta() -> cm.MapProblem:
    """Example 2.2 built with Δ lost (only the box bound ``x₂ <= 2`` kept)."""
    p = cm.example_2_2()
    return cm.make_problem(p.lo, p.hi, cm.make_formula(2, [[([0.0, 1.0], 2.0)]]), p.density)


# ------------------------------------------------------------------ issue 36: audit mutants
# Plausible wrong implementations of PaMap's settings, written before the checks were tightened.
# Judged harmless and left out: ``starts = 1`` (hit-and-run starts dropped); PaMap starts every
# cell from its Chebyshev centre AND every component mode projected into the cell whatever
# ``starts`` says, so on Gaussian mixtures (the only densities of the PaMap checks) the cell's
# maximum is still reached (measured 0.0 difference on 4 multimodal instances and on a cell
# built so that its centre lies in the lower mode's basin).


def _pa_with(
    problem: cm.MapProblem, rng: np.random.Generator, config: Any, **change: Any
) -> cm.MapResult:
    base = config if config is not None else cm.PaMapConfig()
    return cm.pa_map(problem, rng=rng, config=dataclasses.replace(base, **change))


def pa_map_loose_ftol(
    problem: cm.MapProblem, *, rng: np.random.Generator, config: cm.PaMapConfig | None = None
) -> cm.MapResult:
    """PaMap whose per-cell SLSQP stops at ``ftol = 1e-3`` (a loose inner tolerance)."""
    return _pa_with(problem, rng, config, inner_tol=1e-3, max_inner=3)


def pa_map_loose_prune(
    problem: cm.MapProblem, *, rng: np.random.Generator, config: cm.PaMapConfig | None = None
) -> cm.MapResult:
    """PaMap pruning when ``UB <= incumbent + 0.5`` (a tolerance in the wrong units)."""
    return _pa_with(problem, rng, config, prune_tol=0.5)


def mp_map_drops_last_clause(problem: cm.MapProblem) -> cm.MapResult:
    """MpMap iterating over ``clauses[:-1]`` (an off-by-one), its point reported as found."""
    f = problem.formula
    short = cm.Formula(A=f.A, c=f.c, clauses=f.clauses[:-1])
    return cm.mp_map(cm.make_problem(problem.lo, problem.hi, short, problem.density))


def mp_map_greedy(problem: cm.MapProblem) -> cm.MapResult:
    """MpMap replaced by a greedy pass in index order (no look-ahead), reported feasible."""
    x, ok = hand.tree_greedy_in_index_order(problem)
    base = cm.mp_map(problem)
    return _result_at(problem, base, x) if ok else base


_FAM = "constrained_map"
_MP = "reference.constrained_map:mp_map"
_PA = "reference.constrained_map:pa_map"
_CELLS = "reference.constrained_map:pa_cells"

MUTANTS = (
    ProofMutant(
        family=_FAM,
        name="mpmap unconstrained mode",
        why="MpMap returns the per-factor argmax (ignores Δ) and reports it feasible",
        algorithm=_MP,
        target=f"{__name__}:mp_map_unconstrained_mode",
        catches=(
            "constrained_map.mpmap_vs_pamap",
            "constrained_map.mpmap_vs_grid",
            "constrained_map.worked_example",
            "constrained_map.agnostic_unsafe",
            "constrained_map.theorem_4_5",
            "constrained_map.example_2_2",
        ),
    ),
    ProofMutant(
        family=_FAM,
        name="mpmap first feasible point",
        why="MpMap returns a feasible point without optimising over it",
        algorithm=_MP,
        target=f"{__name__}:mp_map_first_feasible",
        catches=(
            "constrained_map.mpmap_vs_pamap",
            "constrained_map.mpmap_vs_grid",
            "constrained_map.worked_example",
            "constrained_map.theorem_4_5",
            "constrained_map.example_2_2",
        ),
    ),
    ProofMutant(
        family=_FAM,
        name="mpmap without pairwise",
        why="MpMap drops the pairwise factors A(x_i)B(x_j)",
        algorithm=_MP,
        target="tests.constrained_map.mutants:mp_map_without_pairwise",
        catches=("constrained_map.theorem_4_5",),
    ),
    ProofMutant(
        family=_FAM,
        name="pamap first cell",
        why="PaMap stops after the first emitted cell",
        algorithm=_PA,
        target=f"{__name__}:pa_map_first_cell",
        catches=(
            "constrained_map.pamap_closed_form",
            "constrained_map.pamap_global",
            "constrained_map.pruning_soundness",
        ),
    ),
    ProofMutant(
        family=_FAM,
        name="pamap agnostic",
        why="PaMap returns the constraint-agnostic mode and reports it feasible",
        algorithm=_PA,
        target=f"{__name__}:pa_map_agnostic",
        catches=(
            "constrained_map.pamap_closed_form",
            "constrained_map.agnostic_unsafe",
            "constrained_map.pamap_global",
        ),
    ),
    ProofMutant(
        family=_FAM,
        name="cells drop last",
        why="pa_cells loses the last emitted cell",
        algorithm=_CELLS,
        target=f"{__name__}:pa_cells_drops_last",
        catches=("constrained_map.partition", "constrained_map.sat_reduction"),
    ),
    ProofMutant(
        family=_FAM,
        name="cells repeat first",
        why="pa_cells emits its first cell twice",
        algorithm=_CELLS,
        target=f"{__name__}:pa_cells_repeats_first",
        catches=("constrained_map.partition",),
    ),
    ProofMutant(
        family=_FAM,
        name="agnostic solves constrained",
        why="the agnostic baseline B1 silently enforces Δ",
        algorithm="reference.constrained_map:agnostic_map",
        target=f"{__name__}:agnostic_map_constrained",
        catches=("constrained_map.agnostic_unsafe",),
    ),
    ProofMutant(
        family=_FAM,
        name="beliefs on cubed grid",
        why="beliefs tabulated on a grid whose size is the cube of the piece count",
        algorithm="reference.constrained_map:mp_beliefs",
        target=f"{__name__}:mp_beliefs_cubed_grid",
        catches=("constrained_map.message_growth",),
    ),
    ProofMutant(
        family=_FAM,
        name="max_out tabulated",
        why="the symbolic max replaced by a 64-cell piecewise-constant table",
        algorithm="reference.constrained_map:max_out",
        target="tests.constrained_map.mutants:max_out_tabulated",
        catches=("constrained_map.prop_a_6",),
    ),
    ProofMutant(
        family=_FAM,
        name="messages tabulated",
        why="every MpMap message tabulated on 256 constant cells",
        algorithm="reference.constrained_map:mp_messages",
        target="tests.constrained_map.mutants:messages_tabulated",
        catches=("constrained_map.theorem_a_8",),
    ),
    ProofMutant(
        family=_FAM,
        name="example 2.2 without constraint",
        why="Example 2.2's problem built without its disjunctive constraint Δ",
        algorithm="reference.constrained_map:example_2_2",
        target=f"{__name__}:example_2_2_without_delta",
        catches=("constrained_map.example_2_2",),
    ),
    ProofMutant(
        family=_FAM,
        name="pamap loose inner solve",
        why="the per-cell SLSQP stops at ftol 1e-3 after 3 iterations",
        algorithm=_PA,
        target=f"{__name__}:pa_map_loose_ftol",
        catches=("constrained_map.pamap_global",),
    ),
    ProofMutant(
        family=_FAM,
        name="pamap loose pruning",
        why="cells pruned when their bound is within 0.5 of the incumbent",
        algorithm=_PA,
        target=f"{__name__}:pa_map_loose_prune",
        catches=(
            "constrained_map.pamap_closed_form",
            "constrained_map.pamap_global",
            "constrained_map.pruning_soundness",
        ),
    ),
    ProofMutant(
        family=_FAM,
        name="mpmap drops last clause",
        why="MpMap iterates over clauses[:-1]",
        algorithm=_MP,
        target=f"{__name__}:mp_map_drops_last_clause",
        catches=(
            "constrained_map.agnostic_unsafe",
            "constrained_map.example_2_2",
            "constrained_map.mpmap_vs_grid",
            "constrained_map.mpmap_vs_pamap",
            "constrained_map.theorem_4_5",
            "constrained_map.worked_example",
        ),
    ),
    ProofMutant(
        family=_FAM,
        name="mpmap drops last literal",
        why="every clause read without its last literal",
        algorithm=_MP,
        target="tests.constrained_map.mutants:mp_map_drops_last_literal",
        catches=(
            "constrained_map.example_2_2",
            "constrained_map.mpmap_vs_grid",
            "constrained_map.mpmap_vs_pamap",
            "constrained_map.theorem_4_5",
        ),
    ),
    ProofMutant(
        family=_FAM,
        name="mpmap greedy",
        why="variables fixed one at a time in index order, no look-ahead",
        algorithm=_MP,
        target=f"{__name__}:mp_map_greedy",
        catches=(
            "constrained_map.example_2_2",
            "constrained_map.mpmap_vs_grid",
            "constrained_map.mpmap_vs_pamap",
            "constrained_map.theorem_4_5",
        ),
    ),
)
