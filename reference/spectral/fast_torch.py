"""PyTorch fast path for the SoSD diagnostics (spec 15): spectra and a tracker callback.

* :func:`normalized_spectrum` — ``σ(W) / Σσ(W)`` via ``torch.linalg.svdvals`` (batched over
  leading axes), the tensor twin of :func:`reference.spectral.normalized_spectrum`;
* :class:`SpectrumTracker` — a training callback: ``tracker(step)`` (or ``tracker.record(step)``)
  records the singular distribution, nuclear and Frobenius norms of chosen weight matrices; it
  then reports the step variations ``ΔΣ_t``, their mean over matrices, and the cosine to the final
  spectrum, cross-checked against :func:`reference.spectral.variation_series` and
  :func:`reference.spectral.cosine_series`.

References:
    H. Zhang, W. Zhou, C. Jia, W. Chen, X. Cheng, "The Stability of Singular Distribution",
    ICML 2026, arXiv:2605.26489 (spec 15, sections 2 and 3, A1–A2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import torch
from torch import Tensor, nn

from reference._arrays import FloatArray, require_int
from reference._defaults import defaults_of
from reference.spectral.sosd import Normalization
from reference.spectral.sosd import normalized_spectrum as _reference_normalized_spectrum

__all__ = ["SpectrumTracker", "normalized_spectrum"]

# The keyword defaults shared with the reference, read from the reference's signature.
_NORMALIZED_SPECTRUM = defaults_of(_reference_normalized_spectrum)


def normalized_spectrum(
    matrix: Tensor, *, normalization: Normalization = _NORMALIZED_SPECTRUM["normalization"]
) -> Tensor:
    """The singular distribution ``σ / Σσ`` (descending) of ``(..., m, n)`` matrices.

    The torch counterpart of :func:`reference.spectral.normalized_spectrum`, batched over
    leading axes; ``normalization="energy"`` gives ``σ_i² / ||W||_F²`` as there.

    Args:
        matrix: ``(..., m, n)`` finite tensor with no zero matrix.
        normalization: ``trace`` (default) or ``energy``.

    Returns:
        ``(..., min(m, n))`` tensor on the device and with the dtype of ``matrix``.

    Raises:
        ValueError: fewer than 2 dimensions, an empty axis, non-finite entries, a zero matrix
            or an unknown normalisation.

    Example:
        >>> normalized_spectrum(torch.diag(torch.tensor([3.0, -1.0]))).tolist()
        [0.75, 0.25]
    """
    if normalization not in ("trace", "energy"):
        raise ValueError(f"normalization: expected 'trace' or 'energy', got {normalization!r}")
    if matrix.ndim < 2 or matrix.shape[-1] == 0 or matrix.shape[-2] == 0:
        raise ValueError(f"matrix: expected (..., m, n) with m, n >= 1, got {tuple(matrix.shape)}")
    if not bool(torch.isfinite(matrix).all()):
        raise ValueError("matrix: expected finite values, got NaN/inf")
    s = torch.linalg.svdvals(matrix)
    if normalization == "energy":
        s = s * s
    total = s.sum(dim=-1, keepdim=True)
    if bool((total == 0).any()):
        raise ValueError("matrix: expected a nonzero matrix (the normalisation divides by ||W||_*)")
    out: Tensor = s / total
    return out


class SpectrumTracker:
    """Record singular distributions of chosen weight matrices during training.

    Args:
        matrices: a mapping ``name -> tensor`` (tracked by reference), or a module whose named
            parameters are looked up by ``names``.
        names: parameter names to track when ``matrices`` is a module (default: every 2-D
            trainable parameter).
        interval: the logging interval ``k`` stored with the series (ΔΣ compares consecutive
            *logged* states; divide by ``k`` before comparing series with different ``k``).

    Raises:
        ValueError: unknown names, non-2-D matrices, nothing to track, ``interval < 1``.

    Example:
        >>> w = torch.eye(2, dtype=torch.float64)
        >>> tracker = SpectrumTracker({"w": w})
        >>> tracker(0)
        >>> _ = w.mul_(torch.tensor([[2.0, 1.0], [1.0, 1.0]], dtype=torch.float64))
        >>> tracker(1)
        >>> tracker.variations("w").round(6).tolist()
        [0.235702]
    """

    def __init__(
        self,
        matrices: Mapping[str, Tensor] | nn.Module,
        names: Sequence[str] | None = None,
        *,
        interval: int = 1,
    ) -> None:
        self.interval = require_int("interval", interval, minimum=1)
        if isinstance(matrices, nn.Module):
            params = dict(matrices.named_parameters())
            chosen = (
                [n for n, p in params.items() if p.ndim == 2 and p.requires_grad]
                if names is None
                else list(names)
            )
            unknown = [n for n in chosen if n not in params]
            if unknown:
                raise ValueError(f"names: expected parameter names of the module, got {unknown}")
            self._tensors: dict[str, Tensor] = {n: params[n] for n in chosen}
        else:
            self._tensors = dict(matrices)
        if not self._tensors:
            raise ValueError("matrices: expected at least one matrix to track, got none")
        bad = [n for n, t in self._tensors.items() if t.ndim != 2]
        if bad:
            raise ValueError(f"matrices: expected 2-D weight matrices, got non-2-D {bad}")
        self.steps: list[int] = []
        self.spectra: dict[str, list[FloatArray]] = {n: [] for n in self._tensors}
        self.nuclear_norms: dict[str, list[float]] = {n: [] for n in self._tensors}
        self.frobenius_norms: dict[str, list[float]] = {n: [] for n in self._tensors}

    @property
    def names(self) -> tuple[str, ...]:
        """The tracked matrix names."""
        return tuple(self._tensors)

    @torch.no_grad()
    def record(self, step: int) -> None:
        """Log every tracked matrix at training step ``step`` (one SVD per matrix)."""
        self.steps.append(int(step))
        for name, tensor in self._tensors.items():
            w = tensor.detach().to(torch.float64)
            s = torch.linalg.svdvals(w)
            total = float(s.sum())
            if total == 0.0 or not np.isfinite(total):
                raise ValueError(f"{name}: expected a finite nonzero matrix at step {step}")
            self.spectra[name].append((s / total).cpu().numpy())
            self.nuclear_norms[name].append(total)
            self.frobenius_norms[name].append(float(torch.linalg.vector_norm(s)))

    def __call__(self, step: int) -> None:
        """Alias of :meth:`record` (use the tracker directly as a callback)."""
        self.record(step)

    def variations(self, name: str) -> FloatArray:
        """``ΔΣ_t = ||σ̂_{t+1} - σ̂_t||₂`` between consecutive logs of matrix ``name``."""
        spectra = np.array(self.spectra[name])
        out: FloatArray = np.linalg.norm(np.diff(spectra, axis=0), axis=1)
        return out

    def mean_variation(self) -> FloatArray:
        """``D_t``: the mean of ``ΔΣ_t`` over the tracked matrices."""
        out: FloatArray = np.mean([self.variations(n) for n in self.names], axis=0)
        return out

    def cosines_to_final(self, name: str) -> FloatArray:
        """``c_t = cos(σ̂_t, σ̂_T)`` for matrix ``name``."""
        spectra = np.array(self.spectra[name])
        final = spectra[-1]
        out: FloatArray = np.minimum(
            1.0, spectra @ final / (np.linalg.norm(spectra, axis=1) * np.linalg.norm(final))
        )
        return out
