"""Plots of the theorem checks' series for ``prove --report`` (matplotlib, optional)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["plot", "plots_note"]


def plots_note() -> str:
    """Whether the report draws plots, and why not."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        return "off (matplotlib is not installed: pip install 'verifiedref[plot]')"
    return "on (in the folder beside the report)"


def plot(name: str, result: Any, folder: Path) -> Path | None:
    """Draw ``result.series``: labelled axes, the bound (``guide`` curve, or the theoretical
    ``slope`` with the fitted one on log-log axes for rates), markers for paired points."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(5.0, 3.6))
    series = result.series
    scatter = bool(getattr(result, "scatter", False))
    positive = True
    for label, (xs, ys) in series.items():
        if scatter:
            ax.scatter(xs, ys, s=12, label=label)
        else:
            ax.plot(xs, ys, marker=".", markersize=3, label=label)
        positive = positive and all(v > 0 for v in ys)
    slope = getattr(result, "slope", None)
    if slope is not None:
        xs, ys = next(iter(series.values()))
        pts = [(x, y) for x, y in zip(xs, ys, strict=True) if x > 0 and y > 0]
        if len(pts) >= 2:
            lx = np.log([p[0] for p in pts])
            ly = np.log([p[1] for p in pts])
            fitted, intercept = np.polyfit(lx, ly, 1)
            grid = np.array([lx.min(), lx.max()])
            ax.plot(
                np.exp(grid),
                np.exp(intercept + fitted * grid),
                "--",
                label=f"fit: slope {fitted:.3g}",
            )
            ax.plot(
                np.exp(grid),
                np.exp(ly[0] + slope * (grid - lx[0])),
                ":",
                color="black",
                label=f"bound: slope {slope:g}",
            )
            ax.set_xscale("log")
    guide = getattr(result, "guide", None)
    if guide is not None:
        ax.plot(guide[0], guide[1], "-", color="black", linewidth=0.8, label="bound")
    if positive and (slope is not None or not scatter):
        ax.set_yscale("log")
    ax.set_xlabel(getattr(result, "xlabel", "") or "x")
    ax.set_ylabel(getattr(result, "ylabel", "") or next(iter(series)))
    ax.set_title(name, fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    path = folder / f"{name}.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
