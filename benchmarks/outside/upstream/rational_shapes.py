"""rational_activations' version-B rational outside numerator degree >= denominator degree
(standalone; no verifiedref).

Usage:
    python rational_shapes.py /path/to/rational_activations-checkout

Needs torch and tqdm (the package's own import).  Version B is
P(x) / (1 + |b_1 x + ... + b_n x^n|) with P(x) = a_0 + ... + a_m x^m.  The script sets the
numerator (m + 1 coefficients) and denominator (n coefficients) of a ``Rational(version="B")``
and compares its output with that closed form at 13 points of [-3, 3], for the package's
own degree pairs (m >= n) and for m = 0 or m < n.  Where the powers the package builds do
not cover max(m + 1, n + 1) it either broadcasts (a silently different function) or raises.
"""

from __future__ import annotations

import sys

import numpy as np
import torch


def closed_form(x: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    num = sum(c * x**k for k, c in enumerate(a))
    den = 1.0 + np.abs(sum(c * x ** (k + 1) for k, c in enumerate(b)))
    out: np.ndarray = num / den
    return out


def main(path: str) -> None:
    sys.path.insert(0, path)
    from rational.torch import Rational  # type: ignore[import-not-found]  # from the checkout

    layer = Rational(version="B", cuda=False, trainable=False)
    rng = np.random.default_rng(0)
    x = np.linspace(-3.0, 3.0, 13)
    for m, n in [(5, 4), (3, 2), (4, 2), (2, 2), (0, 0), (0, 1), (1, 2), (2, 3), (2, 4)]:
        a = rng.standard_normal(m + 1)
        b = rng.standard_normal(n)
        layer.numerator = torch.nn.Parameter(torch.tensor(a))
        layer.denominator = torch.nn.Parameter(torch.tensor(b))
        try:
            with torch.no_grad():
                got = layer(torch.tensor(x)).numpy()
        except RuntimeError as exc:
            print(f"(m, n) = {(m, n)}: RuntimeError: {str(exc).splitlines()[0]}")
            continue
        err = float(np.max(np.abs(got - closed_form(x, a, b))))
        print(f"(m, n) = {(m, n)}: max |package - closed form| = {err:.3e}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])
