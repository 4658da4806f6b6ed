"""IAM's ASAMLoss is not ASAM for any eta; inconsistencyLoss raises NameError (standalone; no
verifiedref).

Usage:
    python iam_asam_loss.py /path/to/IAM-checkout

Needs torch and numpy.  ASAM (Kwon et al., ICML 2021, eq. 6-7 with T_w = |w| + eta) perturbs
by eps = rho T^2 g / ||T g||, so that ||T^-1 eps|| = rho exactly.  A one-parameter model whose
loss gradient at theta is g lets the script read the perturbation ASAMLoss applies (the
parameter seen by the second forward minus theta).  It prints, for several eta, the ratio
||T^-1 eps|| / rho (1 for ASAM) and the largest difference from the closed form, then calls
inconsistencyLoss once to show its NameError.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import torch


class Holder(torch.nn.Module):
    """Output = the parameter; the criterion <output, g> has gradient g."""

    def __init__(self, theta: np.ndarray) -> None:
        super().__init__()
        self.theta = torch.nn.Parameter(torch.tensor(theta, dtype=torch.float64))

    def forward(self, image: torch.Tensor) -> torch.Tensor:
        return self.theta * 1.0


def applied_perturbation(loss_fn: Any, theta: np.ndarray, g: np.ndarray, rho: float) -> np.ndarray:
    model = Holder(theta)
    seen: list[np.ndarray] = []
    gt = torch.tensor(g, dtype=torch.float64)

    def criterion(pred: torch.Tensor, label: object) -> torch.Tensor:
        seen.append(pred.detach().numpy().copy())
        return (pred * gt).sum()

    sgd = torch.optim.SGD(model.parameters(), lr=0.0)
    loss_fn(model, torch.zeros(1), None, criterion, sgd, rho)
    out: np.ndarray = seen[1] - seen[0]
    return out


def main(path: str) -> None:
    sys.path.insert(0, path)
    from optim import (  # type: ignore[import-not-found]  # the official code, from the checkout
        ASAMLoss,
        inconsistencyLoss,
    )

    theta = np.array([0.0, 1.0, -2.0])
    g = np.array([1.0, 1.0, 1.0])
    rho = 0.5
    eps = applied_perturbation(ASAMLoss, theta, g, rho)
    print(f"theta = {theta}, g = {g}, rho = {rho}: ASAMLoss applies eps = {eps}")
    for eta in (0.0, 0.01, 0.1, 1.0):
        T = np.abs(theta) + eta
        if np.min(T) == 0.0:
            print(f"eta = {eta}: T is singular at theta = 0 (ASAM needs eta > 0 there)")
            continue
        asam = rho * T**2 * g / np.linalg.norm(T * g)
        ratio = np.linalg.norm(eps / T) / rho
        print(
            f"eta = {eta}: ||T^-1 eps|| / rho = {ratio:.4f} (ASAM: 1), "
            f"max |eps - rho T^2 g / ||T g||| = {np.max(np.abs(eps - asam)):.3e}"
        )
    print("ASAMLoss multiplies by theta^2 + 0.01 and divides by ||(|theta| + 0.01) g||;")
    print("T^2 = theta^2 + 2 eta |theta| + eta^2 equals theta^2 + 0.01 for no eta.")

    net = torch.nn.Linear(2, 2).double()
    x = torch.zeros(3, 2, dtype=torch.float64)
    y = torch.zeros(3, dtype=torch.long)
    try:
        inconsistencyLoss(net, x, y, torch.nn.CrossEntropyLoss(), 1.0, 0.05, 1e-3)
    except NameError as exc:
        print(f"inconsistencyLoss(...) raised NameError: {exc}")
    else:
        print("inconsistencyLoss(...) ran without error")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])
