"""Adapters from richer implementations to the suites' minimal protocols.

Checks only ever see the minimal contract (numpy in, numpy out); whatever a
user's function returns — a tuple, a result object with ``x``/``y`` fields, a
mapping, torch tensors — is converted here, never inside a check.

One module per kind of target: :mod:`~properties.adapters.arrays` (outputs read as numpy),
:mod:`~properties.adapters.factories` (keywords a target takes, ``--hyper``),
:mod:`~properties.adapters.torch_optim` (``torch.optim`` optimizers and SAM wrappers),
:mod:`~properties.adapters.torch_modules` (``torch.nn.Module`` targets) and
:mod:`~properties.adapters.replacement` (``prove --with``).
"""

from __future__ import annotations

from properties.adapters.arrays import (
    adapt_output,
    array_pair,
    as_game_solver,
    dtype_hint,
    host_array,
    require_callable,
    to_numpy,
    to_scalar,
)
from properties.adapters.factories import keyword_filter, with_hyper
from properties.adapters.replacement import PartialResult, as_replacement
from properties.adapters.torch_modules import TorchModuleCall, as_torch_module, is_torch_module
from properties.adapters.torch_optim import (
    TORCH_HYPER_NAMES,
    TORCH_SAM_NAMES,
    as_torch_optimizer,
    as_torch_sam,
    is_torch_optimizer,
)

__all__ = [
    "TORCH_HYPER_NAMES",
    "TORCH_SAM_NAMES",
    "PartialResult",
    "TorchModuleCall",
    "adapt_output",
    "array_pair",
    "as_game_solver",
    "as_replacement",
    "as_torch_module",
    "as_torch_optimizer",
    "as_torch_sam",
    "dtype_hint",
    "host_array",
    "is_torch_module",
    "is_torch_optimizer",
    "keyword_filter",
    "require_callable",
    "to_numpy",
    "to_scalar",
    "with_hyper",
]
