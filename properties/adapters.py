"""Adapters from richer implementations to the suites' minimal protocols.

Checks only ever see the minimal contract (numpy in, numpy out); whatever a
user's function returns — a tuple, a result object with ``x``/``y`` fields, a
mapping, torch tensors — is converted here, never inside a check.
"""

from __future__ import annotations

import copy
import functools
import inspect
import sys
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, ParamSpec, TypeVar

import numpy as np
import numpy.typing as npt

from properties._suite import CheckFailure, MissingHyper
from reference._arrays import FloatArray

__all__ = [
    "TORCH_HYPER_NAMES",
    "TORCH_MODULE_CALLS",
    "PartialResult",
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
    "torch_module_note",
    "with_hyper",
]

P = ParamSpec("P")
R = TypeVar("R")


def adapt_output(obj: Callable[P, Any], convert: Callable[[Any], R]) -> Callable[P, R]:
    """``obj`` with its return value passed through ``convert`` (arguments unchanged).

    The wrapper is made by :func:`functools.wraps`, so ``__wrapped__`` is ``obj``: a failure
    report names the user's callable, not the adapter.

    Args:
        obj: the user's callable.
        convert: turns what ``obj`` returns into the suite's minimal contract; raises
            :class:`~properties.CheckFailure` on output it cannot read.

    Returns:
        A callable with ``obj``'s arguments returning ``convert(obj(...))``.

    Example:
        >>> halve = adapt_output(len, lambda n: n / 2)
        >>> halve("abcd"), halve.__wrapped__ is len
        (2.0, True)
    """

    @functools.wraps(obj)
    def adapted(*args: P.args, **kwargs: P.kwargs) -> R:
        return convert(obj(*args, **kwargs))

    return adapted


#: Low-precision float dtypes numpy knows only through ``ml_dtypes`` (JAX's bfloat16 ...).
_EXTENDED_FLOATS = ("bfloat16", "float8", "float16")


def host_array(value: object, *, what: str) -> npt.NDArray[Any]:
    """Read ``value`` as a numpy array on the host, keeping its dtype.

    Accepts an ndarray, a list or number, a CPU/GPU torch tensor, and any object implementing
    the array protocols ``__array__`` (JAX, CuPy via ``.get``, xarray ...) or ``__dlpack__``
    (array-API libraries); the dtype is the converted array's, so a float32 JAX result reads as
    float32.

    Raises:
        CheckFailure: the value cannot be read as an array.

    Example:
        >>> class Wrapped:
        ...     def __array__(self, dtype=None, copy=None):
        ...         return np.ones(2, dtype=np.float32)
        >>> host_array(Wrapped(), what="x").dtype
        dtype('float32')
    """
    detach = getattr(value, "detach", None)
    if callable(detach) and hasattr(value, "cpu"):  # torch tensors: move to host first
        tensor: Any = detach().cpu()
        if str(getattr(tensor, "dtype", "")) == "torch.bfloat16":  # numpy has no bfloat16
            tensor = tensor.float()
        value = tensor.numpy()
    get = getattr(value, "get", None)
    if type(value).__module__.startswith("cupy") and callable(get):  # CuPy: device -> host
        value = get()
    try:
        if not hasattr(value, "__array__") and hasattr(value, "__dlpack__"):
            return np.from_dlpack(value)
        return np.asarray(value)
    except (TypeError, ValueError, RuntimeError, BufferError) as exc:
        raise CheckFailure(
            what,
            measured=f"{type(value).__name__} that is not an array ({type(exc).__name__}: {exc})",
            allowed="a real array (ndarray, __array__ or __dlpack__)",
        ) from exc


def to_numpy(value: object, *, what: str) -> FloatArray:
    """Convert an array-like (ndarray, list, CPU/GPU torch tensor, any ``__array__`` or
    ``__dlpack__`` object such as a JAX array) to a float64 ndarray.

    Raises:
        CheckFailure: the value cannot be read as a real array.
    """
    array = host_array(value, what=what)
    if array.dtype.kind not in "biuf" and not array.dtype.name.startswith(_EXTENDED_FLOATS):
        raise CheckFailure(what, measured=f"array of dtype {array.dtype}", allowed="a real array")
    return np.array(array.astype(np.float64), dtype=np.float64)


def dtype_hint(dtype: object) -> str:
    """The advice for a result of ``dtype`` where float64 was expected ("" if none applies).

    Example:
        >>> dtype_hint(np.dtype(np.float32))
        'the target computes in float32: if that is its working precision, declare --precision float32 (Capabilities(precision="float32"))'
    """
    name = getattr(dtype, "name", str(dtype))
    if name in ("float32", "bfloat16"):
        return (
            f"the target computes in {name}: if that is its working precision, declare "
            f'--precision {name} (Capabilities(precision="{name}"))'
        )
    return ""


def to_scalar(value: object, *, what: str) -> float:
    """Read a real number: a Python/numpy number, or an array-like with exactly one entry.

    Raises:
        CheckFailure: the value is not real or holds more than one entry.

    Example:
        >>> to_scalar(np.array([[2.5]]), what="f(x)"), to_scalar(3, what="f(x)")
        (2.5, 3.0)
    """
    if isinstance(value, Fraction | int | float | np.integer | np.floating):
        return float(value)
    array = to_numpy(value, what=what)
    if array.size != 1:
        raise CheckFailure(what, measured=array.shape, allowed="a scalar")
    return float(array.reshape(-1)[0])


def array_pair(
    result: object, names: tuple[str, str], *, source: str
) -> tuple[FloatArray, FloatArray]:
    """Read two named arrays from a pair, an object with both attributes or a mapping.

    Args:
        result: what the user's callable returned.
        names: the two field names, e.g. ``("x", "y")``.
        source: what returned it, for messages (``"solver"``).

    Raises:
        CheckFailure: ``result`` has neither form, or a field is not a real array.

    Example:
        >>> x, y = array_pair({"x": [1, 0], "y": (0.5, 0.5)}, ("x", "y"), source="solver")
        >>> x.tolist(), y.dtype
        ([1.0, 0.0], dtype('float64'))
    """
    a, b = names
    if isinstance(result, Mapping) and a in result and b in result:
        first, second = result[a], result[b]
    elif hasattr(result, a) and hasattr(result, b):
        first, second = getattr(result, a), getattr(result, b)
    elif isinstance(result, tuple | list) and len(result) == 2:
        first, second = result[0], result[1]
    else:
        raise CheckFailure(
            f"{source} output",
            measured=f"{type(result).__name__}",
            allowed=f"a pair ({a}, {b}), an object with {a} and {b} attributes, "
            f"or a mapping with keys {a}, {b}",
        )
    return to_numpy(first, what=f"{a} returned by the {source}"), to_numpy(
        second, what=f"{b} returned by the {source}"
    )


def require_callable(obj: object) -> Any:
    """The adapter of suites whose protocol is a plain callable: return ``obj`` unchanged.

    Raises:
        TypeError: ``obj`` is not callable.
    """
    if not callable(obj):
        raise TypeError(f"expected a callable, got {type(obj).__name__}")
    return obj


def as_game_solver(fn: Callable[..., Any]) -> Callable[[FloatArray], tuple[FloatArray, FloatArray]]:
    """Wrap ``fn(A, **kw)`` returning a pair, a result with ``.x``/``.y`` or a mapping
    into the minimal ``games.solver`` protocol ``A -> (x, y)`` of float64 arrays.

    Raises:
        TypeError: ``fn`` is not callable.
    """
    if not callable(fn):
        raise TypeError(f"fn: expected a callable A -> (x, y), got {type(fn).__name__}")

    return adapt_output(fn, lambda result: array_pair(result, ("x", "y"), source="solver"))


# ------------------------------------------------------------------------- torch optimizers
#: Suite hyper-parameter -> ``torch.optim`` keyword, used when the torch target does not take
#: the suite's own name (our ``reference.<family>.fast_torch`` factories do).  ``b1``/``b2``
#: become ``betas=(b1, b2)``.  A suite parameter the target takes under neither name is dropped
#: when it is 0 (off, e.g. S-Adam's ``lgi_lambda``) and is otherwise an error of that check.
TORCH_HYPER_NAMES: dict[str, str] = {
    "learning_rate": "lr",
    "weight_decay": "weight_decay",
    "eps": "eps",
    "momentum": "momentum",
}


def is_torch_optimizer(obj: object) -> bool:
    """Whether ``obj`` is a ``torch.optim.Optimizer`` subclass or a factory ``(params, **hyper)``.

    A factory is recognised by its first parameter being named ``params``; torch is looked up
    only when it is already imported (the target's module imported it).
    """
    torch = sys.modules.get("torch")
    if torch is None:
        return False
    if isinstance(obj, type):
        return issubclass(obj, torch.optim.Optimizer)
    if not callable(obj) or getattr(obj, "verifiedref_torch_adapter", False):
        return False  # already adapted by as_torch_optimizer
    try:
        names = list(inspect.signature(obj).parameters)
    except (TypeError, ValueError):
        return False
    return bool(names) and names[0] == "params"


def _torch_kwargs(
    make: Callable[..., Any], hyper: Mapping[str, Any], overrides: Mapping[str, Any]
) -> dict[str, Any]:
    accepted: Mapping[str, inspect.Parameter]
    try:
        accepted = inspect.signature(make).parameters
    except (TypeError, ValueError):
        accepted = {}
    open_kwargs = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in accepted.values())
    out: dict[str, Any] = {}
    betas = [hyper.get("b1"), hyper.get("b2")]
    for name, value in hyper.items():
        if name in ("b1", "b2") and "betas" in accepted and name not in accepted:
            continue  # passed as betas=(b1, b2) below, also to targets taking **kwargs
        if name in accepted or (open_kwargs and name not in TORCH_HYPER_NAMES):
            out[name] = value
        elif TORCH_HYPER_NAMES.get(name) in accepted:
            out[TORCH_HYPER_NAMES[name]] = value
        elif _neutral(value):
            continue
        else:
            tried = (name, TORCH_HYPER_NAMES.get(name, "betas" if name in ("b1", "b2") else name))
            raise MissingHyper(name, _name_of(make), tried)
    if "betas" in accepted and (betas[0] is not None or betas[1] is not None):
        default = accepted["betas"].default
        b1, b2 = default if isinstance(default, tuple) else (0.9, 0.999)
        out["betas"] = (betas[0] if betas[0] is not None else b1, betas[1] or b2)
    out.update(overrides)
    return out


def _name_of(obj: object) -> str:
    """The user's callable's ``__qualname__`` through recording/adapting wrappers
    (``__wrapped__`` chains), for messages."""
    seen = 0
    while not hasattr(obj, "__qualname__") and hasattr(obj, "__wrapped__") and seen < 20:
        obj, seen = obj.__wrapped__, seen + 1
    return str(getattr(obj, "__qualname__", obj))


def _neutral(value: object) -> bool:
    """A suite hyper-parameter value that switches its feature off (0: no decay, no LGI)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and value == 0


def keyword_filter(make: Callable[..., R]) -> Callable[..., R]:
    """``make`` called with only the suite keywords its signature accepts.

    A keyword the target does not take is dropped when its value is 0 (the feature is off:
    ``weight_decay=0.0`` for an Adam without decay) and otherwise raises
    :class:`~properties._suite.MissingHyper`, which skips that check as "requires NAME".
    Targets taking ``**kwargs`` or without a readable signature receive every keyword.

    Example:
        >>> def adam(learning_rate, b1=0.9):
        ...     return learning_rate, b1
        >>> keyword_filter(adam)(learning_rate=0.1, weight_decay=0.0)
        (0.1, 0.9)
    """
    try:
        params = inspect.signature(make).parameters
    except (TypeError, ValueError):
        return make
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return make
    named = {
        n
        for n, p in params.items()
        if p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    }
    label = _name_of(make)

    @functools.wraps(make)
    def call(*args: Any, **kwargs: Any) -> R:
        kept: dict[str, Any] = {}
        for key, value in kwargs.items():
            if key in named:
                kept[key] = value
            elif not _neutral(value):
                raise MissingHyper(key, label)
        return make(*args, **kept)

    return call


def with_hyper(make: Callable[..., R], overrides: Mapping[str, Any]) -> Callable[..., R]:
    """``make`` with keywords fixed whatever the suite asks (``crosscheck --hyper NAME=VALUE``).

    Works for any callable target: a factory (``optax.adam`` with ``--hyper learning_rate=0.1``),
    or a function whose every call then receives the keywords.  ``__wrapped__`` is ``make``, so
    its signature and name are what the suite and the report see.

    Example:
        >>> def scale(x, *, by=1.0):
        ...     return x * by
        >>> with_hyper(scale, {"by": 3.0})(2.0, by=5.0)
        6.0
    """
    fixed = dict(overrides)

    @functools.wraps(make)
    def call(*args: Any, **kwargs: Any) -> R:
        return make(*args, **{**kwargs, **fixed})

    return call


class _TorchPair:
    """An ``(init, update)`` pair driving a torch optimizer on numpy parameters.

    ``update`` is pure: each call builds the optimizer on fresh tensors holding ``params``,
    loads the state dict carried in ``state`` (a deep copy), sets ``.grad`` and steps once;
    the updates are ``new - params`` in the parameters' dtype.
    """

    def __init__(self, make: Callable[..., Any], kwargs: Mapping[str, Any]) -> None:
        self.make = make
        self.kwargs = dict(kwargs)

    def init(self, params: Any) -> dict[str, Any]:
        return {}

    def update(self, grads: Any, state: Any, params: Any = None) -> tuple[Any, dict[str, Any]]:
        import torch

        blocked = isinstance(params, tuple | list)
        blocks = [np.array(b) for b in (params if blocked else (params,))]
        grad_blocks = [np.array(g) for g in (grads if blocked else (grads,))]
        tensors = [torch.nn.Parameter(torch.from_numpy(b.copy())) for b in blocks]
        optimizer = self.make(tensors, **self.kwargs)
        if state:
            optimizer.load_state_dict(copy.deepcopy(state))
        for tensor, g in zip(tensors, grad_blocks, strict=True):
            tensor.grad = torch.from_numpy(g.astype(tensor.detach().numpy().dtype))
        optimizer.step()
        updates = [t.detach().numpy() - b for t, b in zip(tensors, blocks, strict=True)]
        new_state: dict[str, Any] = copy.deepcopy(optimizer.state_dict())
        return (tuple(updates) if blocked else updates[0]), new_state


def as_torch_optimizer(
    make: Callable[..., Any], *, overrides: Mapping[str, Any] | None = None
) -> Callable[..., _TorchPair]:
    """Turn a torch optimizer class or factory ``(params, **hyper)`` into a suite factory.

    The optimizer suites call ``factory(learning_rate=..., weight_decay=...)`` and expect an
    ``(init, update)`` pair on numpy arrays; this adapter maps the suite's names to torch's
    (:data:`TORCH_HYPER_NAMES`), applies ``overrides`` last (``--hyper k=v`` on the command
    line) and steps the optimizer on float64 (or the parameters' own dtype) CPU tensors.

    Args:
        make: ``torch.optim.Adam``, ``lion_pytorch.Lion``, or ``fn(params, **hyper)``.
        overrides: torch keywords fixed whatever the suite asks (e.g. ``{"nesterov": False}``).

    Returns:
        ``factory(**suite_hyper) -> pair`` accepted by every optimizer suite.

    Example:
        >>> import torch
        >>> pair = as_torch_optimizer(torch.optim.SGD)(learning_rate=0.5)
        >>> updates, state = pair.update(np.array([2.0]), pair.init(np.array([1.0])), np.array([1.0]))
        >>> updates.tolist()
        [-1.0]
    """
    fixed = dict(overrides or {})

    def factory(**hyper: Any) -> _TorchPair:
        return _TorchPair(make, _torch_kwargs(make, hyper, fixed))

    factory.__wrapped__ = make  # type: ignore[attr-defined]
    factory.verifiedref_torch_adapter = True  # type: ignore[attr-defined]
    # how a failure snippet rebuilds this factory (properties._runner)
    factory.verifiedref_replay = ("as_torch_optimizer", make, fixed)  # type: ignore[attr-defined]
    return factory


# ------------------------------------------------------------------------- torch SAM wrappers
class _TorchSamPair:
    """An ``(init, update)`` pair driving a torch SAM wrapper on numpy parameters.

    ``init`` builds the wrapper on fresh float64 tensors (``make(params, base, rho=,
    **base_kwargs)``) and returns it with them as the state; ``update(grad_fn, state, params)``
    copies ``params`` into the tensors, computes the first gradient by calling the closure
    (the caller's duty in the ``davda54/sam`` convention), then runs ``first_step(zero_grad=
    True)``, the closure, ``second_step(zero_grad=True)`` when the wrapper has them, else
    ``step(closure)``.  The closure sets ``.grad`` to ``grad_fn`` at the tensors' current values
    (through the linear surrogate ``<p, g>``), so the suite sees every point the wrapper asks
    about.  The updates are ``new - params``.  The state holds the live optimizer: momentum
    carries over between calls, but ``update`` is not pure.
    """

    def __init__(self, make: Callable[..., Any], base: Any, kwargs: Mapping[str, Any]) -> None:
        self.make = make
        self.base = base
        self.kwargs = dict(kwargs)

    def init(self, params: Any) -> tuple[Any, Any]:
        import torch

        tensor = torch.nn.Parameter(torch.from_numpy(np.array(params, dtype=np.float64)))
        return self.make([tensor], self.base, **self.kwargs), tensor

    def update(
        self, grad_fn: Callable[[FloatArray], FloatArray], state: Any, params: Any
    ) -> tuple[FloatArray, Any]:
        import torch

        optimizer, tensor = state
        start = np.array(params, dtype=np.float64)
        with torch.no_grad():
            tensor.copy_(torch.from_numpy(start.copy()))

        def closure() -> Any:
            optimizer.zero_grad()
            point = tensor.detach().numpy().copy()
            g = torch.from_numpy(np.asarray(grad_fn(point), dtype=np.float64).copy())
            loss = (tensor * g).sum()
            loss.backward()
            return loss

        with torch.enable_grad():
            closure()
        if hasattr(optimizer, "first_step") and hasattr(optimizer, "second_step"):
            optimizer.first_step(zero_grad=True)
            with torch.enable_grad():
                closure()
            optimizer.second_step(zero_grad=True)
        else:
            optimizer.step(closure)
        updates: FloatArray = tensor.detach().numpy().copy() - start
        return updates, state


#: ``optimizers.sam`` hyper-parameter -> keyword of a torch SAM wrapper: ``rho`` goes to the
#: wrapper, the others to the base optimizer ``torch.optim.SGD`` through the wrapper's
#: ``**kwargs`` (``davda54/sam`` and ``pytorch_optimizer.SAM`` forward them).
TORCH_SAM_NAMES: dict[str, str] = {
    "rho": "rho",
    "learning_rate": "lr",
    "momentum": "momentum",
    "weight_decay": "weight_decay",
}


def as_torch_sam(
    make: Callable[..., Any],
    *,
    base: Any = None,
    overrides: Mapping[str, Any] | None = None,
) -> Callable[..., _TorchSamPair]:
    """Turn a torch SAM wrapper class (``davda54/sam`` style) into an ``optimizers.sam`` factory.

    The wrapper is built as ``make([p], base, rho=rho, lr=..., momentum=..., weight_decay=...,
    **overrides)`` on one float64 parameter tensor, ``base`` defaulting to ``torch.optim.SGD``
    (the suite's base step).  Each ``update`` computes the gradient at ``w`` itself and then
    calls ``first_step``/closure/``second_step`` (or ``step(closure)``), see
    :class:`_TorchSamPair`.

    Args:
        make: e.g. ``pytorch_optimizer.SAM`` or ``sam.SAM`` (davda54), or ``fn(params,
            base_optimizer, **hyper)``.
        base: the base optimizer class (default ``torch.optim.SGD``).
        overrides: keywords fixed whatever the suite asks (``--hyper k=v``), e.g.
            ``{"adaptive": False}``.

    Returns:
        ``factory(rho=, learning_rate=, momentum=, weight_decay=) -> pair``.

    Example:
        A minimal wrapper of that shape (``step(closure)`` after the caller's first gradient):

        >>> import torch
        >>> class TinySAM(torch.optim.Optimizer):
        ...     def __init__(self, params, base, rho, **kw):
        ...         super().__init__(params, {"rho": rho})
        ...         self.base = base(self.param_groups, **kw)
        ...     def step(self, closure):
        ...         (p,) = self.param_groups[0]["params"]
        ...         e = self.defaults["rho"] * p.grad / p.grad.norm()
        ...         with torch.no_grad():
        ...             p.add_(e)
        ...         closure()
        ...         with torch.no_grad():
        ...             p.sub_(e)
        ...         self.base.step()
        >>> pair = as_torch_sam(TinySAM)(rho=0.5, learning_rate=1.0)
        >>> w = np.array([3.0, 4.0])  # f(w) = |w|^2 / 2, gradient w
        >>> pair.update(lambda p: p, pair.init(w), w)[0].round(12).tolist()
        [-3.3, -4.4]
    """
    fixed = dict(overrides or {})

    def factory(**hyper: Any) -> _TorchSamPair:
        import torch

        kwargs = {TORCH_SAM_NAMES.get(k, k): v for k, v in hyper.items()}
        kwargs.update(fixed)
        return _TorchSamPair(make, torch.optim.SGD if base is None else base, kwargs)

    factory.__wrapped__ = make  # type: ignore[attr-defined]
    factory.verifiedref_torch_adapter = True  # type: ignore[attr-defined]
    if base is None:  # how a failure snippet rebuilds this factory (properties._runner)
        factory.verifiedref_replay = ("as_torch_sam", make, fixed)  # type: ignore[attr-defined]
    return factory


# --------------------------------------------------------------------------- torch modules
#: Suites that accept a ``torch.nn.Module`` class (or an instance) and how they call it:
#: suite -> the call made with float64 CPU tensors (``None`` blocks stay ``None``).
TORCH_MODULE_CALLS: dict[str, str] = {
    "qp_layers.solver": "make()(Q, q, G, h, A, b) -> x (or (x, lam, nu)); first output is x",
    "activations.rational": "make(p, q)(x) -> sigma(x): the coefficients build the module",
}


def torch_module_note(suite: str) -> str:
    """The ``verifiedref describe`` line of a suite in :data:`TORCH_MODULE_CALLS`."""
    return (
        f"torch: a torch.nn.Module class (or instance) is accepted: {TORCH_MODULE_CALLS[suite]} "
        "(float64 CPU tensors in, numpy out; properties.adapters.as_torch_module)"
    )


def is_torch_module(obj: object) -> bool:
    """Whether ``obj`` is a ``torch.nn.Module`` subclass or instance (torch already imported)."""
    torch = sys.modules.get("torch")
    if torch is None:
        return False
    if isinstance(obj, type):
        return issubclass(obj, torch.nn.Module)
    return isinstance(obj, torch.nn.Module)


def _tensor(value: Any) -> Any:
    import torch

    return None if value is None else torch.as_tensor(np.array(value, dtype=np.float64))


def _array(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return type(value)(_array(v) for v in value)
    if hasattr(value, "detach"):
        return value.detach().cpu().numpy()
    return value


def as_torch_module(make: Any, suite: str) -> Callable[..., Any]:
    """Turn an ``nn.Module`` class (built with the call of :data:`TORCH_MODULE_CALLS`) or
    instance into the numpy callable ``suite`` expects.

    Arrays go in as float64 CPU tensors and outputs come back as numpy arrays, so the suite's
    own adapter then reads them as it reads any answer.

    Raises:
        ValueError: ``suite`` takes no module (see :data:`TORCH_MODULE_CALLS`).

    Example:
        >>> import torch
        >>> class Scale(torch.nn.Module):
        ...     def __init__(self, p, q):
        ...         super().__init__()
        ...         self.p = p
        ...     def forward(self, x):
        ...         return self.p[0] * x
        >>> f = as_torch_module(Scale, "activations.rational")
        >>> f(np.array([1.0, 2.0]), np.array([3.0]), np.array([]))
        array([3., 6.])
    """
    if suite not in TORCH_MODULE_CALLS:
        raise ValueError(f"suite: expected one of {sorted(TORCH_MODULE_CALLS)}, got {suite!r}")
    built = None if isinstance(make, type) else make
    name = getattr(make, "__qualname__", type(make).__qualname__)

    if suite == "activations.rational":

        def activation(x: Any, p: Any, q: Any) -> Any:
            module = built if built is not None else make(_tensor(p), _tensor(q))
            return _array(module(_tensor(x)))

        activation.__qualname__ = name
        activation.__module__ = getattr(make, "__module__", __name__)
        return activation

    def solver(Q: Any, q: Any, G: Any, h: Any, A: Any, b: Any) -> Any:
        module = built if built is not None else make()
        return _array(module(*(_tensor(v) for v in (Q, q, G, h, A, b))))

    solver.__qualname__ = name
    solver.__module__ = getattr(make, "__module__", __name__)
    return solver


# ------------------------------------------------------------------ prove --with replacements
class PartialResult:
    """A user's output standing in for a library result type that it fills only in part.

    Reading a field the user's output did not provide raises ``AttributeError`` naming the
    field and what was returned, so a theorem check that needs it fails with that message
    while checks that read only the provided fields run.
    """

    def __init__(self, kind: str, fields: Mapping[str, Any], source: str) -> None:
        self._kind = kind
        self._fields = dict(fields)
        self._source = source

    def __getattr__(self, name: str) -> Any:
        fields = self.__dict__.get("_fields", {})
        if name in fields:
            return fields[name]
        raise AttributeError(
            f"{self.__dict__.get('_source', '?')} returned no {name!r} (this check reads "
            f"{self.__dict__.get('_kind', '?')}.{name}); it returned only "
            f"{', '.join(fields) or 'nothing readable'}"
        )

    def __repr__(self) -> str:
        return f"PartialResult({self._kind}: {', '.join(self._fields)})"


def _is_array_type(tp: object) -> bool:
    return tp is np.ndarray or getattr(tp, "__origin__", None) is np.ndarray


def _output_converter(tp: object, source: str, what: str) -> Callable[[Any], Any] | None:
    """How to read a user's output as the annotated library return type ``tp``;
    ``None`` where the output is passed on unchanged."""
    import dataclasses
    import typing

    origin = typing.get_origin(tp)
    if _is_array_type(tp):
        return lambda value: value if isinstance(value, np.ndarray) else to_numpy(value, what=what)
    if tp is float:
        return lambda value: value if isinstance(value, float) else to_scalar(value, what=what)
    if origin is tuple:
        args = typing.get_args(tp)
        if not args or (len(args) == 2 and args[1] is Ellipsis):
            return None
        parts = [_output_converter(a, source, f"item {i} of {what}") for i, a in enumerate(args)]

        def tuple_of(value: Any) -> Any:
            if isinstance(value, Mapping) or not isinstance(value, tuple | list):
                raise CheckFailure(
                    what, measured=type(value).__name__, allowed=f"a tuple of {len(args)}"
                )
            if len(value) != len(args):
                raise CheckFailure(
                    f"length of {what}", measured=len(value), allowed=f"{len(args)} items"
                )
            return tuple(p(v) if p else v for p, v in zip(parts, value, strict=True))

        return tuple_of
    if isinstance(tp, type) and (dataclasses.is_dataclass(tp) or hasattr(tp, "_fields")):
        return _record_converter(tp, source)
    return None


def _record_converter(cls: type, source: str) -> Callable[[Any], Any]:
    """Read a result object, a mapping or a tuple (fields in order) as the record type
    ``cls`` (a dataclass or NamedTuple); fields are converted by their annotations."""
    import dataclasses
    import typing

    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # unresolvable annotations: fields pass unchanged
        hints = {}
    if dataclasses.is_dataclass(cls):
        names = [f.name for f in dataclasses.fields(cls) if f.init]
        required = {
            f.name
            for f in dataclasses.fields(cls)
            if f.init
            and f.default is dataclasses.MISSING
            and f.default_factory is dataclasses.MISSING
        }
    else:
        names = list(cls._fields)  # type: ignore[attr-defined]
        defaults = getattr(cls, "_field_defaults", {})
        required = {n for n in names if n not in defaults}
    convert = {
        n: _output_converter(hints.get(n), source, f"{n} returned by {source}") for n in names
    }

    def read(value: Any) -> Any:
        if isinstance(value, cls):
            return value
        if isinstance(value, Mapping):
            found = {n: value[n] for n in names if n in value}
        elif isinstance(value, tuple | list) and not hasattr(value, "_fields"):
            if len(value) > len(names):
                raise CheckFailure(
                    f"output of {source}",
                    measured=f"a {type(value).__name__} of {len(value)} items",
                    allowed=f"at most {len(names)} ({', '.join(names)}, in this order)",
                )
            found = dict(zip(names, value, strict=False))
        elif any(hasattr(value, n) for n in names):
            found = {n: getattr(value, n) for n in names if hasattr(value, n)}
        else:
            raise CheckFailure(
                f"output of {source}",
                measured=type(value).__name__,
                allowed=f"a {cls.__name__}, an object or mapping with fields "
                f"{', '.join(names)}, or a tuple of them in this order",
            )
        for n, c in convert.items():
            if c is not None and n in found and found[n] is not None:
                found[n] = c(found[n])
        if required <= set(found):
            try:
                return cls(**found)
            except (TypeError, ValueError):
                pass  # the user's values do not validate as ours: read them as given
        return PartialResult(cls.__name__, found, source)

    return read


def as_replacement(
    original: Callable[..., Any],
    user: Any,
    *,
    overrides: Mapping[str, Any] | None = None,
    source: str = "",
) -> Callable[..., Any]:
    """The user's callable shaped like the library function ``original`` (``prove --with``).

    Accepts what ``crosscheck`` accepts: outputs are read by ``original``'s return annotation
    (a result object, a mapping or a tuple for a record type; any array-protocol object for an
    array; a scalar-like for a float); a torch optimizer class or factory ``(params, **hyper)``
    stands in for an optimizer factory (:func:`as_torch_optimizer`); ``overrides`` are the
    ``--hyper`` keywords fixed on every call.  A record type the output fills only in part is
    a :class:`PartialResult`: checks that read a missing field fail naming it.

    Raises:
        TypeError: ``user`` is not callable.

    Example:
        >>> from reference.games import solve_lp
        >>> fn = as_replacement(solve_lp, lambda a: {"x": [1, 0], "y": [0, 1], "value": 0.0})
        >>> out = fn([[0.0]])
        >>> out.x.dtype, out.value
        (dtype('float64'), 0.0)
    """
    import typing

    if not callable(user):
        raise TypeError(f"expected a callable, got {type(user).__name__}")
    label = source or _name_of(user)
    try:
        returns = typing.get_type_hints(original).get("return")
    except Exception:  # unresolvable annotations: no output conversion
        returns = None
    record = getattr(returns, "__origin__", returns)
    if isinstance(record, type) and record.__name__ == "Optimizer" and is_torch_optimizer(user):
        return as_torch_optimizer(user, overrides=overrides)
    fn: Callable[..., Any] = with_hyper(user, overrides) if overrides else user
    convert = _output_converter(returns, label, f"output of {label}")
    return fn if convert is None else adapt_output(fn, convert)
