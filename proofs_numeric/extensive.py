"""Numeric checks for two-player zero-sum extensive-form games in sequence form.

* :func:`kuhn_value` — Kuhn poker's value ``-1/18`` from our sequence-form LP;
* :func:`kuhn_asymp_dgda` — AsymP-DGDA's last iterate on Kuhn poker (Abe et al., ICML 2026,
  spec 19 §6).
"""

from __future__ import annotations

from proofs_numeric._registry import ProveProfile, register
from proofs_numeric._result import BoundCheck
from reference import extensive as efg

__all__ = ["KUHN_VALUE", "kuhn_asymp_dgda", "kuhn_value"]

PAPER = "Abe et al. (ICML 2026)"
KUHN_VALUE = -1.0 / 18.0


def kuhn_value() -> BoundCheck:
    """Kuhn poker's value for player 1 is ``-1/18`` (Kuhn 1950), from our sequence-form LP.

    Budget ``atol = 1e-9`` (HiGHS feasibility tolerances 1e-10)."""
    solution = efg.solve_lp(efg.kuhn_poker())
    return BoundCheck(
        claim="sequence-form LP value of Kuhn poker = -1/18 (player 1)",
        paper="Kuhn (1950); sequence form: Koller, Megiddo, von Stengel (1996)",
        theorem="game value",
        measured=solution.value,
        bound=KUHN_VALUE,
        sense="==",
        atol=1e-9,
        params={"dual_value": solution.dual_value},
    )


def kuhn_asymp_dgda(*, iterations: int = 10_000, mu: float = 0.01) -> BoundCheck:
    """AsymP-DGDA's last iterate on Kuhn reaches NashConv ``<= 1e-10`` within ``iterations``
    (spec 19 §3.6/§6: about 4,000 iterations to ~1e-14 with μ = 0.01, η = 1/||A||_2).  This is
    an empirical claim (no global proof for the dilated regulariser)."""
    res = efg.asymp_dgda(efg.kuhn_poker(), mu=mu, max_iter=iterations, tol=1e-12)
    return BoundCheck(
        claim="AsymP-DGDA last-iterate NashConv on Kuhn <= 1e-10 within 1e4 iterations",
        paper=PAPER,
        theorem="Section 6 (Kuhn poker)",
        measured=res.nash_conv,
        bound=1e-10,
        sense="<=",
        params={"iterations": res.iterations, "mu": mu},
        series={"NashConv": (tuple(range(len(res.history))), tuple(res.history))},
    )


@register(
    name="extensive.kuhn_value",
    family="extensive",
    paper="Kuhn (1950)",
    theorem="game value -1/18",
    algorithms=("reference.extensive:solve_lp", "reference.extensive:kuhn_poker"),
)
def prove_kuhn_value(profile: ProveProfile) -> BoundCheck:
    """Kuhn poker's value from the sequence-form LP."""
    return kuhn_value()


@register(
    name="extensive.kuhn_asymp_dgda",
    family="extensive",
    paper=PAPER,
    theorem="Section 6 (Kuhn poker, last iterate)",
    algorithms=("reference.extensive:asymp_dgda",),
)
def prove_kuhn_asymp_dgda(profile: ProveProfile) -> BoundCheck:
    """AsymP-DGDA on Kuhn, μ = 0.01, default η."""
    return kuhn_asymp_dgda()
