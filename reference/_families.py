"""The algorithm families, by name: one tuple read by both registries.

A family's name is the same everywhere: ``reference/<family>``, ``properties/<family>.py`` (its
suites), ``properties/catalogue/<family>.py`` (its catalogue) and ``proofs_numeric/<family>.py``
(its theorem checks).  ``properties`` and ``proofs_numeric`` may not import each other, so the
list lives here, below both.  Adding a family is adding its name.
"""

__all__ = ["FAMILIES"]

FAMILIES: tuple[str, ...] = (
    "activations",
    "attention_queries",
    "constrained_map",
    "divergence",
    "extensive",
    "games",
    "hierarchical",
    "inconsistency",
    "invariance",
    "inverse_optimization",
    "mirror_descent",
    "optimizers",
    "perturbation",
    "preference",
    "qp_layers",
    "ski_rental",
    "spectral",
    "stability",
    "tsp",
)
