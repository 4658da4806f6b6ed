"""verifiedref reference implementations (numpy/scipy).

One subpackage (or, for a small family, one module) per algorithm family.  A family's
``__init__`` is its public API; torch fast paths live in ``<family>/fast_torch.py`` and tuned
numpy code in ``<family>/fast.py``, neither imported by the reference.  Import the family you
need, e.g. ``from reference.games import solve_lp``.
"""

__all__: list[str] = []
