"""Constrained MAP inference over non-convex linear-arithmetic constraints (spec 04).

Problem: given an unnormalised density ``w(x) >= 0`` on a box ``lo <= x <= hi`` and a
CNF formula ``Δ`` over linear atoms ``aᵀx <= c`` (so the feasible set ``F(Δ)`` is a finite
union of polytopes, typically non-convex), find ``x̂ ∈ argmax_{x ∈ F(Δ)} w(x)``.

* :func:`mp_map` — **MpMap**, exact max-product message passing (Eqs. 4–6) on the tractable
  fragment: clauses over ≤ 2 variables, a global graph of treewidth one, densities in Ω^PP
  (univariate piecewise polynomials and factorised pairwise factors ``A(x_i) B(x_j)``,
  :class:`PairwiseFactor`); messages by symbolic maximisation over affine bounds
  (:func:`max_out`, Prop. A.6's piece bound :func:`prop_a6_bound`, sizes
  :func:`mp_messages` / :func:`message_piece_bound`).  The paper proves (Thm 4.5) that MAP
  under LRA constraints is exact and tractable for treewidth ONE AND BOUNDED DIAMETER under
  its Tractable MAP Conditions; the worst case grows exponentially with the diameter
  (Thm A.8).  Source: the paper as read by the reproduction, spec 04 §8;
* :func:`pa_map` — **PaMap**, lazy partition of ``F(Δ)`` into convex cells by DFS over atom
  truth values, SLSQP in each cell, pruning by upper bounds, spec 04 §3.2 (our design);
* baselines :func:`agnostic_map` (B1), :func:`agnostic_repair_map` (B2),
  :func:`penalty_map` (B3), :func:`sample_filter_map` (B4), and the dense-grid oracle
  :func:`grid_map` (O1);
* builders: :func:`make_formula`, :func:`worked_example`, :func:`random_tree_problem`,
  :func:`obstacle_gaussian_problem`, :func:`trajectory_problem`, :func:`random_3sat_problem`,
  :func:`example_2_2` (the paper's Example 2.2 region), :func:`band_tree_problem`.

Layout: problems, formulas, densities and results in :mod:`reference.constrained_map.model`,
MpMap in :mod:`reference.constrained_map.mp`, PaMap in :mod:`reference.constrained_map.pa`,
baselines and builders in :mod:`reference.constrained_map.baselines`, piecewise polynomials in
:mod:`reference.constrained_map.pp`.  This module re-exports every public name and is the
documented import path.

Semantics (our design, spec 04 §2): strict inequalities are read as non-strict (a negated
atom ``¬(aᵀx <= c)`` is ``aᵀx >= c``) and piecewise functions take their upper-semicontinuous
envelope, so the supremum is attained.  An infeasible ``Δ`` is data: the result has
``feasible=False``, ``value = 0``, ``log_value = -inf`` and an empty ``x``.

References:
    L. Kurscheidt, G. Masina, R. Sebastiani, A. Vergari, "The Theory and Practice of MAP
    Inference over Non-Convex Constraints", ICML 2026, arXiv:2602.08681 (spec 04).  The
    fragment, Ω^PP, Thm 4.5, Prop. A.6, Thm A.8 and Example 2.2 follow the paper as read by
    the third-party reproduction ``Sahil170595/icml2026-paper-reproductions`` (spec 04 §8);
    the message construction and PaMap are the spec's designs.
"""

from __future__ import annotations

from reference.constrained_map.baselines import (
    agnostic_map,
    agnostic_repair_map,
    band_tree_problem,
    example_2_2,
    grid_map,
    obstacle_gaussian_problem,
    penalty_map,
    random_3sat_problem,
    random_tree_problem,
    sample_filter_map,
    trajectory_problem,
    worked_example,
)
from reference.constrained_map.model import (
    FEASIBILITY_TOL,
    Formula,
    GaussianMixture,
    MapProblem,
    MapResult,
    PairwiseFactor,
    ProductPP,
    gaussian_mixture,
    make_formula,
    make_problem,
)
from reference.constrained_map.mp import (
    max_out,
    message_piece_bound,
    mp_beliefs,
    mp_map,
    mp_messages,
    prop_a6_bound,
)
from reference.constrained_map.pa import (
    PaMapConfig,
    pa_cells,
    pa_map,
)
from reference.constrained_map.pp import (
    PiecewisePolynomial,
    pp_from_pieces,
)

__all__ = [
    "FEASIBILITY_TOL",
    "Formula",
    "GaussianMixture",
    "MapProblem",
    "MapResult",
    "PaMapConfig",
    "PairwiseFactor",
    "PiecewisePolynomial",
    "ProductPP",
    "agnostic_map",
    "agnostic_repair_map",
    "band_tree_problem",
    "example_2_2",
    "gaussian_mixture",
    "grid_map",
    "make_formula",
    "make_problem",
    "max_out",
    "message_piece_bound",
    "mp_beliefs",
    "mp_map",
    "mp_messages",
    "obstacle_gaussian_problem",
    "pa_cells",
    "pa_map",
    "penalty_map",
    "pp_from_pieces",
    "prop_a6_bound",
    "random_3sat_problem",
    "random_tree_problem",
    "sample_filter_map",
    "trajectory_problem",
    "worked_example",
]
