"""Python signatures (keywords, defaults, keyword-only parameters) over a
function that takes positional arguments only, such as an FFI function.

``make_kwargs_wrapper(f, ["a", "b", "c"], arg_defaults=(10,))`` returns
``def wrapper(a, b, c=10): return f(a, b, c)``: a real Python function,
compiled once, so a call costs one extra Python frame and Python itself
checks missing, repeated and unknown arguments.
"""
from __future__ import annotations

import functools
import keyword

_PREFIX = "__i_"  # the generated code's own names start with this
_TARGET = _PREFIX + "target_func"
_UNPACK = _PREFIX + "unpack"


def _check_names(names, what):
    seen = set()
    dups = []
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"{what} name must be a string, got {type(name).__name__}: {name!r}")
        if keyword.iskeyword(name):
            raise ValueError(
                f"Invalid {what.lower()} name: {name!r} is a Python keyword and cannot be used "
                "as a parameter name"
            )
        if not name.isidentifier():
            raise ValueError(f"Invalid {what.lower()} name: {name!r} is not a valid Python identifier")
        if name in seen:
            dups.append(name)
        seen.add(name)
    if dups:
        raise ValueError(f"Duplicate {what.lower()} names found in: {list(names)} (repeated: {dups})")


def make_kwargs_wrapper(
    target_func,
    arg_names,
    arg_defaults=(),
    kwonly_names=None,
    kwonly_defaults=None,
    prototype=None,
    map_dataclass_to_tuple=None,
):
    """A function with parameters ``arg_names`` (the last ``len(arg_defaults)``
    of them defaulting to ``arg_defaults``, right-aligned), then keyword-only
    ``kwonly_names`` (defaults in ``kwonly_defaults``; the others required),
    that calls ``target_func`` with all of them positionally, in that order.

    Parameters named in ``map_dataclass_to_tuple`` go through
    :func:`tvm_ffi.utils.unpack_dataclass.unpack_dataclass_to_tuple` first.
    With ``prototype``, the wrapper takes its ``__name__``, ``__doc__``,
    ``__annotations__`` ... (``functools.update_wrapper``).
    """
    arg_names = list(arg_names)
    kwonly_names = list(kwonly_names or ())
    kwonly_defaults = dict(kwonly_defaults or {})
    _check_names(arg_names, "Argument")
    _check_names(kwonly_names, "Keyword-only argument")
    if not isinstance(arg_defaults, tuple):
        raise TypeError(f"arg_defaults must be a tuple, got {type(arg_defaults).__name__}")
    if len(arg_defaults) > len(arg_names):
        raise ValueError(
            f"arg_defaults has {len(arg_defaults)} values but only {len(arg_names)} "
            "positional arguments"
        )
    for key in kwonly_defaults:
        if key not in kwonly_names:
            raise ValueError(f"Default provided for '{key}' which is not in kwonly_names: {kwonly_names}")
    both = sorted(set(arg_names) & set(kwonly_names))
    if both:
        raise ValueError(f"Arguments cannot be both positional and keyword-only: {both}")
    internal = sorted(n for n in arg_names + kwonly_names if n.startswith(_PREFIX))
    if internal:
        raise ValueError(
            f"Argument names conflict with internal names: {internal}. "
            f"Names starting with {_PREFIX!r} are reserved."
        )
    if not callable(target_func):
        raise TypeError(f"target_func must be callable, got {target_func!r}")
    unpack = set(map_dataclass_to_tuple or ())

    namespace = {_TARGET: target_func}
    params = []
    first_default = len(arg_names) - len(arg_defaults)
    for i, name in enumerate(arg_names):
        if i >= first_default:
            namespace[f"{_PREFIX}d_{name}"] = arg_defaults[i - first_default]
            params.append(f"{name}={_PREFIX}d_{name}")
        else:
            params.append(name)
    if kwonly_names:
        params.append("*")
        for name in kwonly_names:
            if name in kwonly_defaults:
                namespace[f"{_PREFIX}d_{name}"] = kwonly_defaults[name]
                params.append(f"{name}={_PREFIX}d_{name}")
            else:
                params.append(name)
    if unpack:
        from .unpack_dataclass import unpack_dataclass_to_tuple  # noqa: PLC0415

        namespace[_UNPACK] = unpack_dataclass_to_tuple
    call_args = [f"{_UNPACK}({n})" if n in unpack else n for n in arg_names + kwonly_names]
    source = f"def wrapper({', '.join(params)}):\n    return {_TARGET}({', '.join(call_args)})\n"
    exec(compile(source, f"<kwargs wrapper of {getattr(target_func, '__name__', 'function')}>",
                 "exec"), namespace)
    wrapper = namespace["wrapper"]
    if prototype is not None:
        functools.update_wrapper(wrapper, prototype)
    return wrapper


def make_kwargs_wrapper_from_signature(
    target_func,
    signature,
    prototype=None,
    exclude_arg_names=None,
    map_dataclass_to_tuple=None,
):
    """:func:`make_kwargs_wrapper` with the parameters of ``signature`` (an
    ``inspect.Signature``), leaving out those in ``exclude_arg_names`` (names
    the signature does not have are ignored).  ``*args`` and ``**kwargs``
    are refused (ValueError)."""
    import inspect  # noqa: PLC0415

    exclude = set(exclude_arg_names or ())
    arg_names, arg_defaults, kwonly_names, kwonly_defaults = [], [], [], {}
    for param in signature.parameters.values():
        if param.kind is inspect.Parameter.VAR_POSITIONAL:
            raise ValueError("*args not supported in wrapper generation")
        if param.kind is inspect.Parameter.VAR_KEYWORD:
            raise ValueError("**kwargs not supported in wrapper generation")
        if param.name in exclude:
            continue
        has_default = param.default is not inspect.Parameter.empty
        if param.kind is inspect.Parameter.KEYWORD_ONLY:
            kwonly_names.append(param.name)
            if has_default:
                kwonly_defaults[param.name] = param.default
            continue
        if has_default:
            arg_defaults.append(param.default)
        elif arg_defaults:
            raise ValueError(
                f"Required positional parameter '{param.name}' cannot follow parameters with "
                "defaults"
            )
        arg_names.append(param.name)
    return make_kwargs_wrapper(
        target_func,
        arg_names,
        tuple(arg_defaults),
        kwonly_names,
        kwonly_defaults,
        prototype=prototype,
        map_dataclass_to_tuple=map_dataclass_to_tuple,
    )
