"""Public array types of the reference, for type-checking code that calls it.

``ArrayLike`` is what array inputs accept (a numpy array, nested lists or tuples of numbers,
a scalar); results are ``FloatArray`` (``numpy.ndarray`` of ``float64``), ``IntArray``
(``int64``) or ``BoolArray``.  Adapters and wrappers written against the reference import
these names from here.

>>> from reference.arrays import ArrayLike, FloatArray
>>> import numpy as np
>>> def centred(values: ArrayLike) -> FloatArray:
...     x = np.asarray(values, dtype=np.float64)
...     return x - x.mean()
>>> centred([1.0, 2.0, 3.0]).tolist()
[-1.0, 0.0, 1.0]
"""

from __future__ import annotations

from numpy.typing import ArrayLike

from reference._arrays import BoolArray, FloatArray, IntArray

__all__ = ["ArrayLike", "BoolArray", "FloatArray", "IntArray"]
