"""Parameter-effect rows of the ski_rental family (the tables are assembled, and the mutants
generated, by ``tests/_param_mutants.py``): ``PARAM_EFFECTS``, its generated "keyword ignored"
mutants and the checks that must fail each; ``NEUTRAL``, keywords documented not to change the
result on the checks' instances; ``UNCHECKED``, keywords no check notices yet.  Each row of the
last two is ``(algorithm, keyword, reason)``."""

from __future__ import annotations

from tests._param_rows import BASELINE, ParamEffect, Row, constant, rows

__all__ = ["PARAM_EFFECTS", "UNCHECKED"]


PARAM_EFFECTS: tuple[ParamEffect, ...] = (
    ParamEffect(
        family="ski_rental",
        algorithm="reference.ski_rental:robust_algorithm",
        keyword="lam",
        label="0 (no robustification)",
        replace=constant(0.0),
        where="lambda_robust checks the (1 + 1/lambda)-robustness on adversarial truths",
        catches=("ski_rental.lambda_robust",),
    ),
)

UNCHECKED: tuple[Row, ...] = (
    *rows(BASELINE, "reference.ski_rental:prediction_plugin_rule", "statistic"),
)
