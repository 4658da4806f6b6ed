"""Shared machinery of the optimizer family: the optax-style pair, parameter blocks, clipping.

An optimizer is an :class:`Optimizer` ``(init, update)`` pair of pure functions
(STYLE.md B2, after optax):

* ``init(params) -> state`` — a frozen state object;
* ``update(grads, state, params, **extra) -> (updates, new_state)`` — the
  parameter *displacement* and the next state; nothing is mutated.

Parameters are either one float array or a tuple of arrays ("blocks", e.g. the
tensors of a network).  ``updates`` always has the structure of ``params`` and
:func:`apply_updates` adds them.  Every public function here validates its input
(shapes, finiteness) and names the offending argument.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

import numpy as np
from numpy.typing import ArrayLike

from reference._arrays import FloatArray, as_float_array, describe, readonly
from reference._repr import summary_repr

__all__ = [
    "MomentumState",
    "Optimizer",
    "Params",
    "Update",
    "apply_updates",
    "as_blocks",
    "clip",
]

Params = FloatArray | tuple[FloatArray, ...]
"""One float64 array, or a tuple of float64 arrays (blocks / tensors)."""

P = TypeVar("P", FloatArray, tuple[FloatArray, ...])
StateT = TypeVar("StateT")
UpdateT = TypeVar("UpdateT")


class Update(Protocol[StateT]):
    """Call shape of ``update`` for the optimizers whose step needs nothing but the gradient.

    ``update(grads, state, params=None) -> (updates, state)``.  The variance-reduced pairs
    (:class:`reference.optimizers.VRUpdate`) add ``prev_grads``, S-Adam
    (:class:`reference.optimizers.SAdamUpdate`) adds ``loss``, ``rng`` and ``base``.
    """

    def __call__(
        self, grads: Params, state: StateT, params: Params | None = None
    ) -> tuple[Params, StateT]:
        """One step: the updates (the structure of ``params``) and the next state."""
        ...


class Optimizer(NamedTuple, Generic[StateT, UpdateT]):
    """An optax-style optimizer: two pure functions.

    ``Optimizer[S, U]``: ``S`` is the state type, ``U`` the call shape of ``update``
    (:class:`Update` ``[S]`` for most pairs), so a type checker sees ``update``'s real
    parameters.

    Attributes:
        init: ``init(params) -> state``.
        update: ``update(grads, state, params, **extra) -> (updates, state)``; ``updates``
            has the structure of ``params`` (add it with :func:`apply_updates`).
    """

    init: Callable[[Params], StateT]
    update: UpdateT


@summary_repr
@dataclass(frozen=True, slots=True, kw_only=True, eq=False)
class MomentumState:
    """State of the momentum methods (SGD family, Lion, Muon, SFW).

    Attributes:
        count: steps taken so far.
        momentum: one momentum buffer per parameter block, read-only (zeros for
            methods run without momentum).
    """

    count: int
    momentum: tuple[FloatArray, ...]


def as_blocks(
    name: str, value: object, *, like: tuple[FloatArray, ...] | None = None
) -> tuple[FloatArray, ...]:
    """Validate parameters/gradients and return them as a tuple of float64 copies.

    Args:
        name: argument name used in messages.
        value: one array-like, or a tuple/list of array-likes (blocks).
        like: when given, the blocks must have exactly these shapes.

    Returns:
        Tuple of finite float64 arrays (a single array becomes a 1-tuple).

    Raises:
        TypeError: non-numeric blocks.
        ValueError: empty parameter list, empty or non-finite block, shape mismatch with ``like``.
    """
    if isinstance(value, tuple | list):
        if len(value) == 0:
            raise ValueError(
                f"{name}: expected at least one block, got an empty {type(value).__name__}"
            )
        items: Sequence[object] = value
    else:
        items = (value,)
    blocks = tuple(
        as_float_array(f"{name}[{i}]" if len(items) > 1 else name, item, min_size=1)
        for i, item in enumerate(items)
    )
    for i, block in enumerate(blocks):
        if block.ndim == 0 or block.size == 0:
            raise ValueError(
                f"{name}: expected non-empty arrays of rank >= 1, got block {i} of shape {block.shape}"
            )
    if like is not None:
        if len(blocks) != len(like):
            raise ValueError(f"{name}: expected {len(like)} blocks (as params), got {len(blocks)}")
        for i, (block, ref) in enumerate(zip(blocks, like, strict=True)):
            if block.shape != ref.shape:
                raise ValueError(
                    f"{name}: expected block {i} of shape {ref.shape} (as params), got {block.shape}"
                )
    return blocks


def _restore(like: object, blocks: Sequence[FloatArray]) -> Params:
    """Give ``blocks`` the structure of ``like`` (a tuple for a tuple/list, else one array)."""
    if isinstance(like, tuple | list):
        return tuple(blocks)
    return blocks[0]


def apply_updates(params: P, updates: Params) -> P:
    """Return ``params + updates`` blockwise (new arrays; nothing is modified).

    Args:
        params: one array or a tuple of arrays.
        updates: the same structure, as returned by an optimizer's ``update``.

    Returns:
        New parameters with the structure and type of ``params``.

    Raises:
        ValueError: structures or shapes differ, or non-finite entries.

    Example:
        >>> apply_updates(np.array([1.0, 2.0]), np.array([0.5, -0.5])).tolist()
        [1.5, 1.5]
    """
    p = as_blocks("params", params)
    u = as_blocks("updates", updates, like=p)
    out = tuple(pb + ub for pb, ub in zip(p, u, strict=True))
    if isinstance(params, tuple):
        return out
    return out[0]


def _global_norm(blocks: Sequence[FloatArray]) -> float:
    """Euclidean norm of the concatenation of ``blocks`` (no validation; internal use)."""
    return math.sqrt(sum(float(np.vdot(b, b)) for b in blocks))


def _clip_tau(name: str, value: object) -> float:
    """Validate a clipping level: a real ``tau > 0``; ``math.inf`` means no clipping."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: expected a real number > 0 (or inf), got {describe(value)}")
    tau = float(value)
    if math.isnan(tau) or tau <= 0.0:
        raise ValueError(f"{name}: expected a number > 0 (or inf), got {tau!r}")
    return tau


def _clip_blocks(blocks: Sequence[FloatArray], tau: float) -> tuple[FloatArray, ...]:
    """``clip_tau`` on the concatenation of ``blocks`` (no validation; internal use)."""
    if math.isinf(tau):
        return tuple(blocks)
    norm = _global_norm(blocks)
    if norm <= tau:
        return tuple(blocks)
    factor = tau / norm
    return tuple(b * factor for b in blocks)


def clip(vector: ArrayLike, tau: float) -> FloatArray:
    """The truncation operator ``clip_tau(u) = u if ||u|| <= tau else tau u / ||u||``.

    It is the Euclidean projection onto the ball of radius ``tau`` (Frobenius norm
    for matrices); ``tau = inf`` is the identity.

    Symbols -> arguments: ``u`` = ``vector``, ``tau`` = ``tau``.

    Args:
        vector: array-like of finite reals, any shape with at least one entry.
        tau: clipping level ``> 0`` (``math.inf`` allowed).

    Returns:
        A new float64 array of the shape of ``vector``.

    Raises:
        TypeError: non-numeric ``vector`` or ``tau``.
        ValueError: empty or non-finite ``vector``; ``tau <= 0`` or NaN.

    Example:
        >>> clip([3.0, 4.0], 1.0).tolist()
        [0.6000000000000001, 0.8]
        >>> clip([0.3, 0.4], 1.0).tolist()
        [0.3, 0.4]

    References:
        Spec 05 section 2 (truncation operator, confirmed) and Lemma L1 (derived);
        spec 14 section 3.4.
    """
    u = as_float_array("vector", vector, min_size=1)
    if u.size == 0:
        raise ValueError(f"vector: expected at least one entry, got shape {u.shape}")
    level = _clip_tau("tau", tau)
    (out,) = _clip_blocks((u,), level)
    return np.array(out, dtype=np.float64, copy=True)


def _frozen(array: FloatArray) -> FloatArray:
    """A read-only copy of ``array`` (state entries)."""
    return readonly(np.array(array, dtype=np.float64, copy=True))


def _frozen_blocks(blocks: Sequence[FloatArray]) -> tuple[FloatArray, ...]:
    """Read-only copies of ``blocks``."""
    return tuple(_frozen(b) for b in blocks)


def _beta(name: str, value: object) -> float:
    """Validate a momentum coefficient in ``[0, 1)``."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: expected a real number in [0, 1), got {describe(value)}")
    result = float(value)
    if not (0.0 <= result < 1.0):
        raise ValueError(f"{name}: expected a number in [0, 1), got {result!r}")
    return result


def _nonneg(name: str, value: object) -> float:
    """Validate a finite real ``>= 0``."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: expected a real number >= 0, got {describe(value)}")
    result = float(value)
    if not (math.isfinite(result) and result >= 0.0):
        raise ValueError(f"{name}: expected a finite number >= 0, got {result!r}")
    return result


def _positive(name: str, value: object) -> float:
    """Validate a finite real ``> 0``."""
    result = _nonneg(name, value)
    if result == 0.0:
        raise ValueError(f"{name}: expected a finite number > 0, got {result!r}")
    return result


def _check_state(name: str, state: object, kind: type[Any]) -> None:
    """Raise :class:`TypeError` unless ``state`` is an instance of ``kind``."""
    if not isinstance(state, kind):
        raise TypeError(f"{name}: expected a {kind.__name__}, got {describe(state)}")
