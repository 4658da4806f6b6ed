"""Spec 01 Tables 1-2, missing arms (``benchmarks/games_ssn_arms.py``): a toy grid."""

from __future__ import annotations

import math
from pathlib import Path

from benchmarks import games_ssn_arms as arms


def test_toy_grid_writes_every_arm_and_pssn_reaches_every_target(tmp_path: Path) -> None:
    cells = arms.run(["12x20"], [0, 1], out=tmp_path, caps={"12x20": 2000})
    methods = {c.method for c in cells}
    assert methods == {arms.ALT_LAST, "PSSN tau=0.01", "PSSN tau=0.001"}
    # 2 distributions x 2 seeds x 4 targets per arm
    assert all(sum(c.method == m for c in cells) == 16 for m in methods)
    for c in cells:
        if c.method.startswith("PSSN"):
            assert math.isfinite(c.seconds)
            assert c.newton >= 1
        if math.isinf(c.seconds):
            assert c.method == arms.ALT_LAST
            assert c.first_order == 2000
    # the tau = 1e-2 switch comes no later than the tau = 1e-3 one on the same game
    for c in cells:
        if c.method == "PSSN tau=0.01":
            (other,) = [
                d
                for d in cells
                if d.method == "PSSN tau=0.001"
                and (d.dist, d.seed, d.target) == (c.dist, c.seed, c.target)
            ]
            assert c.first_order <= other.first_order
    table = (tmp_path / "games_ssn_arms.md").read_text(encoding="utf-8")
    assert table.count("| PRM+ alt last |") == 2
    assert "alt-last cap 2000" in table
    assert (tmp_path / "games_ssn_arms.png").stat().st_size > 0
