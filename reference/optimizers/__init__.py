"""Optimizers I: S-Adam, Lion, Muon, stochastic Frank-Wolfe, clipped and normalized SGD.

Every optimizer is a factory returning an optax-style :class:`Optimizer`
``(init, update)`` pair of pure functions (STYLE.md B2); parameters are one
float array or a tuple of arrays, and :func:`apply_updates` adds the updates.

This module gathers the family's public names; the code lives in

* :mod:`reference.optimizers.sadam` — S-Adam and its LGI brake (spec 02), Adam/AdamW,
  Prox-SGD, the Goldstein stationarity measure;
* :mod:`reference.optimizers.fw` — Lion, Muon, generalized SFW, LMOs, the FW gap and the
  heavy-tailed robust variants R1/R2 (spec 14);
* :mod:`reference.optimizers.sgd` — clipped / normalized SGD and their mini-batch and
  momentum variants (spec 05);
* :mod:`reference.optimizers.polar` — Newton-Schulz and the exact polar factor;
* :mod:`reference.optimizers.base` — the pair type, blocks, clipping.

The torch fast paths live in :mod:`reference.optimizers.fast_torch` (the only module of the
family importing torch; not re-exported here): ``torch.optim.Optimizer`` classes
``SAdam``, ``Lion``, ``LionClip``, ``Muon``, ``MuonClip`` (R1) and ``SFWVR``, ``LionVR``,
``MuonVR`` (R2), factories under this package's names (``lion``, ``muon``, ``s_adam``,
``sfw_vr``, ``lion_vr``, ``muon_vr``: same hyper-parameter names, ``params`` first), plus
``newton_schulz`` and ``polar``.

Each hyper-parameter's default is written once: in the optimizer's ``*Config`` dataclass
(whose docstring states the values), or, for :func:`lion_vr` and :func:`muon_vr`, which have
none, in the factory's signature; Muon's Newton-Schulz constants are :data:`NS_STEPS`,
:data:`NS_COEFFICIENTS` and :data:`NS_EPS`.  The factories and the torch classes read their
defaults from there.

Example:
    >>> import numpy as np
    >>> from reference.optimizers import apply_updates, lion
    >>> opt = lion(learning_rate=0.1, weight_decay=0.5)
    >>> x = np.array([1.0, -1.0])
    >>> state = opt.init(x)
    >>> for _ in range(3):
    ...     updates, state = opt.update(2.0 * x, state, x)
    ...     x = apply_updates(x, updates)
    >>> np.round(x, 6).tolist()
    [0.572125, -0.572125]
"""

from __future__ import annotations

from reference.optimizers.base import (
    MomentumState,
    Optimizer,
    Params,
    Update,
    apply_updates,
    as_blocks,
    clip,
)
from reference.optimizers.fw import (
    LionConfig,
    MuonConfig,
    NormName,
    SFWConfig,
    SFWVRConfig,
    VRState,
    VRUpdate,
    dual_norm,
    fw_gap,
    fw_gap_split,
    lion,
    lion_vr,
    lmo,
    muon,
    muon_vr,
    norm,
    sfw,
    sfw_vr,
)
from reference.optimizers.polar import (
    NS_COEFFICIENTS,
    NS_EPS,
    NS_STEPS,
    newton_schulz,
    ns_scalar_map,
    polar,
)
from reference.optimizers.sadam import (
    AdamConfig,
    AdamState,
    LGIResult,
    NonFiniteLossError,
    ProxSGDConfig,
    ProxSGDState,
    SAdamConfig,
    SAdamState,
    SAdamUpdate,
    adam,
    adamw,
    damping,
    goldstein_stationarity,
    lgi,
    lgi_details,
    prox_sgd,
    s_adam,
)
from reference.optimizers.sgd import (
    ClippedSGDConfig,
    NormalizedSGDConfig,
    clipped_sgd,
    normalized_sgd,
)

__all__ = [
    "NS_COEFFICIENTS",
    "NS_EPS",
    "NS_STEPS",
    "AdamConfig",
    "AdamState",
    "ClippedSGDConfig",
    "LGIResult",
    "LionConfig",
    "MomentumState",
    "MuonConfig",
    "NonFiniteLossError",
    "NormName",
    "NormalizedSGDConfig",
    "Optimizer",
    "Params",
    "ProxSGDConfig",
    "ProxSGDState",
    "SAdamConfig",
    "SAdamState",
    "SAdamUpdate",
    "SFWConfig",
    "SFWVRConfig",
    "Update",
    "VRState",
    "VRUpdate",
    "adam",
    "adamw",
    "apply_updates",
    "as_blocks",
    "clip",
    "clipped_sgd",
    "damping",
    "dual_norm",
    "fw_gap",
    "fw_gap_split",
    "goldstein_stationarity",
    "lgi",
    "lgi_details",
    "lion",
    "lion_vr",
    "lmo",
    "muon",
    "muon_vr",
    "newton_schulz",
    "norm",
    "normalized_sgd",
    "ns_scalar_map",
    "polar",
    "prox_sgd",
    "s_adam",
    "sfw",
    "sfw_vr",
]
