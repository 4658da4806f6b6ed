"""verifiedref reference implementations (numpy/scipy).

One module per algorithm family; torch fast paths live in ``<family>_torch.py``
modules, which this package never imports.  Import the family you need, e.g.
``from reference.games import solve_lp``.
"""

__all__: list[str] = []
