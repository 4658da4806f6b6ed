"""Count the public parameters of the reference typed ``object`` (issue 28, item 10).

A public parameter is one of a public callable of a family (a name in the family's
``__all__``, functions and the ``__init__`` of classes); ``object`` is read from the
annotation as written (``from __future__ import annotations`` keeps it a string).  Prints the
total, the count typed ``object``, and per family; ``--list`` prints every such parameter.

    python -m benchmarks.count_object_params [--list]
"""

from __future__ import annotations

import argparse
import importlib
import inspect
from collections import Counter

from reference._families import FAMILIES


def _annotation(param: inspect.Parameter) -> str:
    ann = param.annotation
    if ann is inspect.Parameter.empty:
        return ""
    return ann if isinstance(ann, str) else getattr(ann, "__name__", repr(ann))


def count() -> tuple[int, list[tuple[str, str, str]]]:
    """(all public parameters, [(family, callable, parameter) typed object])."""
    total = 0
    typed_object: list[tuple[str, str, str]] = []
    seen: set[int] = set()
    for family in FAMILIES:
        module = importlib.import_module(f"reference.{family}")
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            fn = obj.__init__ if inspect.isclass(obj) else obj
            if not callable(fn) or id(fn) in seen or fn is object.__init__:
                continue
            seen.add(id(fn))
            try:
                params = list(inspect.signature(fn).parameters.values())
            except (TypeError, ValueError):
                continue
            for param in params:
                if param.name in ("self", "cls"):
                    continue
                total += 1
                if _annotation(param) == "object":
                    typed_object.append((family, name, param.name))
    return total, typed_object


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="print every parameter typed object")
    args = parser.parse_args()
    total, typed_object = count()
    print(f"public parameters: {total}; typed object: {len(typed_object)}")
    for family, n in sorted(Counter(f for f, _, _ in typed_object).items()):
        print(f"  {family}: {n}")
    if args.list:
        for family, name, param in typed_object:
            print(f"{family}:{name}({param})")


if __name__ == "__main__":
    main()
