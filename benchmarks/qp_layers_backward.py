"""Backward time of the FFO hypergradient vs dense KKT implicit differentiation (spec 03 §6).

The spec's synthetic family: ``min ½zᵀQz + qᵀz  s.t.  z <= 0, −z <= 1, 1ᵀz <= 3`` with
``Q = I``, ``m = 2n + 1``, ``q ~ U(−1.5, 1.5)^n`` per batch element (the predictor output of
the decision-focused task; here random), upstream gradient ``d ~ N(0, I)``, batch ``B``.

Both backward passes run side by side in one process on the *same* forward solution:

* numpy reference: :func:`reference.qp_layers.kkt_grads` (dense ``(n + m)`` KKT solve per
  element, spec A1) vs :func:`reference.qp_layers.ffo_grads` (Cholesky of ``Q`` + Schur
  complement on the active rows, α = 100, spec A2);
* torch fast path (CPU, batched): ``FFOQPLayer(backward="kkt")`` vs ``FFOQPLayer()`` — the
  time of ``loss.backward()`` after one shared forward.

Forward times are reported separately (numpy loop over the batch; torch batched).  Gradient
agreement: cosine similarity of the FFO and KKT gradients of ``q`` and of all of
``(Q, q, G, h)`` concatenated.  qpth / cvxpylayers are not installed here (optional columns
omitted).  Single-threaded BLAS/torch (set before numpy is imported) so that ratios are not
distorted by the shared machine's thread contention.

Usage::

    python benchmarks/qp_layers_backward.py --sizes 50 100 200 400 --batch 32 --repeats 3
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

from benchmarks._env import pin_blas, write_table  # noqa: E402
from reference import qp_layers as ql  # noqa: E402

RESULTS = Path(__file__).parent / "results"


def problem(n: int, batch: int, seed: int) -> dict[str, np.ndarray]:
    """The spec's synthetic QP family (Q = I, box and budget constraints), batched q and d."""
    rng = np.random.default_rng(seed)
    G = np.concatenate([np.eye(n), -np.eye(n), np.ones((1, n))])
    h = np.concatenate([np.zeros(n), np.ones(n), [3.0]])
    return {
        "Q": np.eye(n),
        "q": rng.uniform(-1.5, 1.5, size=(batch, n)),
        "G": G,
        "h": h,
        "d": rng.standard_normal((batch, n)),
    }


def _median_time(fn: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    times = []
    out = None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / max(np.linalg.norm(a) * np.linalg.norm(b), 1e-300))


def _flat(g: Any, names: tuple[str, ...]) -> np.ndarray:
    return np.concatenate([np.asarray(getattr(g, k)).ravel() for k in names])


def run_numpy(p: dict[str, np.ndarray], repeats: int, alpha: float) -> dict[str, float]:
    t_fwd, sol = _median_time(lambda: ql.solve_qp(p["Q"], p["q"], p["G"], p["h"]), 1)
    args = (p["Q"], p["q"], p["G"], p["h"], None, None, p["d"])
    t_kkt, g_kkt = _median_time(lambda: ql.kkt_grads(*args, solution=sol), repeats)
    t_ffo, g_ffo = _median_time(lambda: ql.ffo_grads(*args, alpha=alpha, solution=sol), repeats)
    return {
        "np_forward_s": t_fwd,
        "np_kkt_s": t_kkt,
        "np_ffo_s": t_ffo,
        "np_speedup": t_kkt / t_ffo,
        "cos_q": _cos(_flat(g_ffo, ("q",)), _flat(g_kkt, ("q",))),
        "cos_all": _cos(_flat(g_ffo, ("Q", "q", "G", "h")), _flat(g_kkt, ("Q", "q", "G", "h"))),
        "active_frac": float(np.mean(np.asarray(g_ffo.active))),
    }


def run_torch(p: dict[str, np.ndarray], repeats: int, alpha: float) -> dict[str, float]:
    import torch

    from reference.qp_layers import fast_torch as qt

    torch.set_num_threads(1)
    t = {k: torch.tensor(v, dtype=torch.float64) for k, v in p.items()}
    out: dict[str, float] = {}
    grads: dict[str, torch.Tensor] = {}
    for mode in ("kkt", "ffo"):
        layer = qt.FFOQPLayer(alpha=alpha, backward=mode)
        q = t["q"].clone().requires_grad_(True)
        start = time.perf_counter()
        x = layer(t["Q"], q, t["G"], t["h"])
        out["torch_forward_s"] = time.perf_counter() - start
        times = []
        for _ in range(repeats):
            q.grad = None
            loss = (x * t["d"]).sum()
            start = time.perf_counter()
            torch.autograd.backward(loss, retain_graph=True)
            times.append(time.perf_counter() - start)
        out[f"torch_{mode}_s"] = statistics.median(times)
        assert q.grad is not None
        grads[mode] = q.grad.detach().clone()
    out["torch_speedup"] = out["torch_kkt_s"] / out["torch_ffo_s"]
    out["torch_cos_q"] = _cos(grads["ffo"].numpy().ravel(), grads["kkt"].numpy().ravel())
    return out


def _plot(rows: list[dict[str, float]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ns = [r["n"] for r in rows]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.loglog(ns, [r["np_kkt_s"] for r in rows], "o-", label="numpy KKT (A1, dense)")
    ax.loglog(ns, [r["np_ffo_s"] for r in rows], "s-", label="numpy FFO (A2, α=100)")
    if "torch_kkt_s" in rows[0]:
        ax.loglog(ns, [r["torch_kkt_s"] for r in rows], "o--", label="torch KKT (batched)")
        ax.loglog(ns, [r["torch_ffo_s"] for r in rows], "s--", label="torch FFO (batched)")
    ax.set_xlabel("n (m = 2n + 1)")
    ax.set_ylabel(f"backward time per batch of {int(rows[0]['batch'])} [s]")
    ax.set_title("QP layer backward: FFO vs KKT implicit differentiation")
    ax.legend()
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 100, 200, 400])
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--alpha", type=float, default=100.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-torch", action="store_true")
    parser.add_argument("--out", type=Path, default=RESULTS / "qp_layers_backward")
    args = parser.parse_args(argv)
    rows = []
    for n in args.sizes:
        p = problem(n, args.batch, args.seed + n)
        row: dict[str, float] = {"n": n, "m": 2 * n + 1, "batch": args.batch}
        row.update(run_numpy(p, args.repeats, args.alpha))
        if not args.no_torch:
            row.update(run_torch(p, args.repeats, args.alpha))
        rows.append(row)
        print({k: round(v, 6) for k, v in row.items()}, flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    keys = list(rows[0])
    csv = [",".join(keys)] + [",".join(f"{r[k]:.6g}" for k in keys) for r in rows]
    args.out.with_suffix(".csv").write_text("\n".join(csv) + "\n", encoding="utf-8")
    header = (
        "| n | m | B | active | fwd numpy [s] | KKT numpy [s] | FFO numpy [s] | speedup numpy "
        "| cos(q) | cos(all) |"
    )
    sep = "|---|---|---|---|---|---|---|---|---|---|"
    if not args.no_torch:
        header += " fwd torch [s] | KKT torch [s] | FFO torch [s] | speedup torch | cos(q) torch |"
        sep += "---|---|---|---|---|"
    lines = [
        "# QP layer backward: FFO (spec 03 A2) vs KKT implicit differentiation (A1)",
        "",
        f"Command: `python benchmarks/qp_layers_backward.py --sizes {' '.join(map(str, args.sizes))}"
        f" --batch {args.batch} --repeats {args.repeats} --alpha {args.alpha:g}"
        f"{' --no-torch' if args.no_torch else ''}`",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} CPUs (shared with other jobs), "
        f"python {platform.python_version()}, numpy {np.__version__}; single-threaded BLAS/torch. "
        "Backward times are medians over the repeats on one shared forward solution; "
        "forward times are single runs.",
        "",
        "Problem (spec 03 §6): Q = I, z <= 0, −z <= 1, 1ᵀz <= 3 (m = 2n + 1), q ~ U(−1.5, 1.5), "
        f"d ~ N(0, I), α = {args.alpha:g}. `active` = fraction of rows in the frozen set I.",
        "",
        header,
        sep,
    ]
    for r in rows:
        line = (
            f"| {int(r['n'])} | {int(r['m'])} | {int(r['batch'])} | {r['active_frac']:.3f} "
            f"| {r['np_forward_s']:.3f} | {r['np_kkt_s']:.4f} | {r['np_ffo_s']:.4f} "
            f"| {r['np_speedup']:.1f}x | {r['cos_q']:.6f} | {r['cos_all']:.6f} |"
        )
        if not args.no_torch:
            line += (
                f" {r['torch_forward_s']:.3f} | {r['torch_kkt_s']:.4f} | {r['torch_ffo_s']:.4f} "
                f"| {r['torch_speedup']:.1f}x | {r['torch_cos_q']:.6f} |"
            )
        lines.append(line)
    write_table(args.out.with_suffix(".md"), "\n".join(lines) + "\n", encoding="utf-8")
    _plot(rows, args.out.with_suffix(".png"))
    print(f"wrote {args.out.with_suffix('.md')}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    pin_blas(1)
    raise SystemExit(main())
