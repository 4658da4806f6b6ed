"""Spec 19 §6's optional games: Goofspiel with 5 cards and Liar's Dice (experiment rows 47, 48).

The same experiment as :mod:`benchmarks.perturbation_efg_long` (the six dilated methods through
:mod:`reference.perturbation.fast_efg`, OpenSpiel's CFR family, NashConv cross-checked against
OpenSpiel's), on two OpenSpiel games; it needs OpenSpiel (the ``[openspiel]`` extra) and skips
both games without it.

* Goofspiel-5: ``goofspiel(imp_info=True, num_cards=5, points_order=descending)`` as a turn-based
  game (Goofspiel-4's setting of spec 19 §8 with 5 cards): 2284 x 2284 sequences, 1062 + 1062
  information sets, 14400 terminal histories.
* Liar's Dice: OpenSpiel's ``liars_dice`` (one six-sided die each): 24571 x 24571 sequences,
  12288 + 12288 information sets, 147420 terminal histories; ``A`` kept sparse (a dense ``A``
  would take 4.8 GB).

Step sizes: Table 4 gives none for these games (spec 19 §8): Goofspiel-5 takes Goofspiel-4's,
Liar's Dice Kuhn's.  Reduced from the paper's 1e6 iterations, for CPU time (measured on this
machine: about 100 µs per iteration on Goofspiel-5 and 2 ms on Liar's Dice per method); the
counts are in the table header.  DCFR and LCFR run on Goofspiel-5 only: OpenSpiel ships them in
Python, seconds per iteration on Liar's Dice.

Run: ``python -m benchmarks.perturbation_efg_optional`` (defaults = the committed run); writes
``benchmarks/results/perturbation_efg_optional.md`` and ``perturbation_efg_optional_*.png``.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass

from benchmarks._env import environment_line, pin_blas
from benchmarks.perturbation_efg_long import GOOF4, GOOFSPIEL, KUHN, GameRun, run
from benchmarks.perturbation_efg_long import Settings as LongSettings

NAME = "perturbation_efg_optional"


@dataclass(frozen=True, slots=True)
class Settings:
    goofspiel5_iters: int = 50_000
    liars_dice_iters: int = 3000
    goofspiel5_cfr: int = 300
    goofspiel5_dcfr: int = 30
    liars_dice_cfr: int = 10

    def long(self) -> LongSettings:
        """As settings of :func:`benchmarks.perturbation_efg_long.run`."""
        return LongSettings(
            games=(
                GameRun(
                    "Goofspiel-5",
                    GOOFSPIEL.format(n=5),
                    None,
                    GOOF4,
                    self.goofspiel5_iters,
                    self.goofspiel5_cfr,
                    self.goofspiel5_dcfr,
                    "Goofspiel-4's (no row)",
                ),
                GameRun(
                    "Liar's Dice",
                    "liars_dice",
                    None,
                    KUHN,
                    self.liars_dice_iters,
                    self.liars_dice_cfr,
                    0,
                    "Kuhn's (no row)",
                ),
            ),
            name=NAME,
            heading="Spec 19 §6 optional games: Goofspiel-5 and Liar's Dice (reduced iterations)",
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.parse_args()
    run(Settings().long())  # its table records the environment (benchmarks._env.write_table)
    print(f"Environment after the run: {environment_line()}")


if __name__ == "__main__":
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    pin_blas(1)
    main()
