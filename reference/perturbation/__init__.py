"""Last-iterate convergence by asymmetric perturbation on zero-sum matrix games.

The family's public API.  The reference lives in :mod:`reference.perturbation.base` (read it
beside spec 19).  The speed paths are not imported here (the reference never imports them):

* :mod:`reference.perturbation.fast` — ``parameter_free``, ``asymp_gda``, ``asymp_gda_side``,
  ``symp_gda``, ``gda``, ``ogda`` with the reference's signatures and results, a compiled loop
  when numba (the ``[fast]`` extra) is installed and a plain numpy loop without it, plus
  ``asymp_gda_batch``: many starts in one call.
* :mod:`reference.perturbation.fast_torch` — the batched runs in torch (CPU or GPU).
"""

from __future__ import annotations

from reference.perturbation.base import (
    MU_FLOOR,
    OFFICIAL,
    GDAResult,
    ParameterFreeResult,
    RunnerSettings,
    asymp_gda,
    asymp_gda_side,
    biased_matching_pennies,
    biased_rps,
    default_step_size,
    dirichlet_starts,
    frank_wolfe_gap,
    gda,
    m_ne,
    nash_conv,
    ogda,
    omwu,
    parameter_free,
    perturbed_gap,
    perturbed_minimiser,
    symp_gda,
)

__all__ = [
    "MU_FLOOR",
    "OFFICIAL",
    "GDAResult",
    "ParameterFreeResult",
    "RunnerSettings",
    "asymp_gda",
    "asymp_gda_side",
    "biased_matching_pennies",
    "biased_rps",
    "default_step_size",
    "dirichlet_starts",
    "frank_wolfe_gap",
    "gda",
    "m_ne",
    "nash_conv",
    "ogda",
    "omwu",
    "parameter_free",
    "perturbed_gap",
    "perturbed_minimiser",
    "symp_gda",
]
