"""Upstream apache-tvm-ffi's public Python names that our tvm_ffi lacks (issue 20).

    python public_names.py collect OUT.json   # run where `import tvm_ffi` is upstream's
    python public_names.py check IN.json      # run where `import tvm_ffi` is ours

``collect`` imports every module of the installed tvm_ffi package (its
compiled Cython sources excepted) and records, per module, each public name
(no leading underscore) that is part of its API:

- a submodule of tvm_ffi;
- a class or function defined in tvm_ffi (whatever module of tvm_ffi defines
  it: a re-export counts), or any other callable whose module is tvm_ffi's;
- any other value (constants, tables, dtype instances) except module
  plumbing: ``from __future__`` features, ``typing.TYPE_CHECKING``, TypeVars
  and loggers.

``check`` imports each of those modules from our package and prints every
recorded name it lacks (a submodule counts when it imports) that the
ALLOWED list below does not excuse; it exits 1 if there is any.  An
allow-list entry that is no longer needed (ours has the name, or upstream
no longer does) is printed as a note so the list can shrink.
"""
import importlib
import inspect
import json
import logging
import pkgutil
import sys
import typing

# Why some of upstream's names are intentionally absent from ours.  Keys are
# "<module>.<name>" (or "<module>" for a whole module).
REEXPORT = ("an import upstream's module makes for its own use (not API; the object "
            "itself is public elsewhere in tvm_ffi)")
CYTHON = "a name the Cython build of upstream's core exposes; our core is a C extension"
GENERATOR_INTERNAL = ("an internal of upstream's stub generator, which ours structures differently; "
        "upstream's tests do not import it from here")
ALLOWED = {
    # Imports of upstream's private modules.
    "tvm_ffi._convert.container": REEXPORT,
    "tvm_ffi._dunder.Object": REEXPORT,
    "tvm_ffi._dunder.TypeInfo": REEXPORT,
    "tvm_ffi._dunder.core": REEXPORT,
    "tvm_ffi._dunder.object_repr": REEXPORT,
    "tvm_ffi._tensor.DLDeviceType": REEXPORT,
    "tvm_ffi._tensor.Device": REEXPORT,
    "tvm_ffi._tensor.PyNativeObject": REEXPORT,
    "tvm_ffi._tensor.Shape": REEXPORT,
    "tvm_ffi._tensor.core": REEXPORT,
    "tvm_ffi._tensor.device": REEXPORT,
    "tvm_ffi._tensor.registry": REEXPORT,
    "tvm_ffi.registry.Function": REEXPORT,
    "tvm_ffi.stream.device": REEXPORT,
    "tvm_ffi.structural.Object": REEXPORT,
    "tvm_ffi.cpp.extension.FileLock": REEXPORT,
    "tvm_ffi.testing._locking.FileLock": REEXPORT,
    "tvm_ffi.testing.testing.add_one": REEXPORT,
    "tvm_ffi.testing.testing.get_global_func": REEXPORT,
    "tvm_ffi.testing.testing.make_unregistered_object": REEXPORT,
    "tvm_ffi.testing.testing.tvm_ffi_core": REEXPORT,
    "tvm_ffi.utils.kwargs_wrapper.MISSING": REEXPORT,
    "tvm_ffi.utils.kwargs_wrapper.unpack_dataclass_to_tuple": REEXPORT,
    "tvm_ffi.dataclasses.common.Array": REEXPORT,
    "tvm_ffi.dataclasses.common.Dict": REEXPORT,
    "tvm_ffi.dataclasses.common.Field": REEXPORT,
    "tvm_ffi.dataclasses.common.List": REEXPORT,
    "tvm_ffi.dataclasses.common.Map": REEXPORT,
    "tvm_ffi.dataclasses.field.TypeSchema": REEXPORT,
    "tvm_ffi.dataclasses.gen_abi_cpp.TypeField": REEXPORT,
    "tvm_ffi.dataclasses.gen_abi_cpp.TypeInfo": REEXPORT,
    "tvm_ffi.dataclasses.gen_abi_cpp.TypeSchema": REEXPORT,
    "tvm_ffi.dataclasses.gen_abi_cpp.get_registered_type_keys": REEXPORT,
    "tvm_ffi.dataclasses.py_class.TypeSchema": REEXPORT,
    # Optional third-party modules upstream's modules import into their namespace
    # (collect records them only when installed where it ran).
    "tvm_ffi._convert.torch": "an optional import of torch, not API",
    "tvm_ffi.core.torch": CYTHON + " (its optional torch import)",
    "tvm_ffi.core.ml_dtypes": CYTHON + " (its optional ml_dtypes import)",
    "tvm_ffi.core.cuda_driver": CYTHON + " (its optional cuda-python import)",
    # Upstream's staged registration of py_class fields; ours resolves a
    # class's fields in one step (dataclasses/py_class.py).  Nothing in
    # upstream's tests imports these.
    "tvm_ffi.dataclasses._resolve_fields": (
        "upstream's internal two-phase field registration; ours registers fields in one "
        "step, and upstream's tests import nothing from it"),
    "tvm_ffi.dataclasses.py_class.on_fields_resolved": (
        "a hook of upstream's two-phase field registration (see _resolve_fields)"),
    # Stub generator internals.
    **{f"tvm_ffi.stub.{name}": GENERATOR_INTERNAL for name in (
        "consts.DOC_URL", "consts.FN_NAME_MAP", "consts.TERM_BLACK", "consts.TERM_BLUE",
        "consts.TERM_BOLD", "consts.TERM_MAGENTA", "consts.TERM_WHITE",
        "file_utils.path_walk", "layout.align_up",
        "generator.C", "generator.Generator", "generator.PythonGenerator",
        "generator.RustGenerator",
        "lib_state.C", "lib_state.get_global_func_metadata", "lib_state.list_global_func_names",
        "python_generator.codegen.PC", "python_generator.generator.G",
        "python_generator.generator.PC", "python_generator.generator.PythonImports",
        "python_generator.utils.C", "python_generator.utils.FuncInfo",
        "python_generator.utils.ObjectInfo", "python_generator.utils.PythonImports",
        "python_generator.utils.render_func_signature",
        "python_generator.utils.render_object_ffi_init",
        "python_generator.utils.render_object_fields",
        "python_generator.utils.render_object_init",
        "python_generator.utils.render_object_methods",
        "rust_generator.codegen.C_RUST", "rust_generator.codegen.builtin_mirror_name",
        "rust_generator.codegen.is_crate_type_key",
        "rust_generator.generator.C_RUST", "rust_generator.generator.finalize_rust_module_tree",
        "rust_generator.generator.generate_rust_api_file",
        "rust_generator.generator.generate_rust_import_section",
        "rust_generator.generator.generate_rust_object",
        "rust_generator.generator.is_crate_type_key",
        "rust_generator.utils.C", "rust_generator.utils.builtin_mirror_name",
        "rust_generator.utils.is_crate_type_key",
        "utils.C", "utils.TypeInfo",
    )},
    **{f"tvm_ffi.stub.rust_generator.consts.{name}": GENERATOR_INTERNAL for name in (
        "RUST_ANY_BACKED_OPTIONAL_PAYLOADS", "RUST_DIRECTIVE_KINDS", "RUST_EXACT_PARAMS",
        "RUST_MAX_WIDTH", "RUST_MOD_MAP", "RUST_NOT_RAW_IDENTIFIERS",
        "RUST_OBJECT_OPTIONAL_FIELD_SIZE", "RUST_OPTIONAL_FIELD_SIZE", "RUST_OPTIONAL_PATH",
        "RUST_POINTER_SIZE", "RUST_RESERVED_MEMBERS", "RUST_ROOT_TYPE_KEY",
        "RUST_SCALAR_BY_SIZE", "RUST_SCALAR_WIDTHS", "RUST_UNSUPPORTED_ORIGINS",
    )},
}


def _is_plumbing(name, value):
    if type(value).__name__ == "_Feature" and type(value).__module__ == "__future__":
        return True
    if name == "TYPE_CHECKING" and isinstance(value, bool):
        return True
    return isinstance(value, (typing.TypeVar, logging.Logger))


def _api_names(module):
    names = []
    for name in dir(module):
        if name.startswith("_"):
            continue
        value = getattr(module, name)
        if inspect.ismodule(value):
            if value.__name__.startswith("tvm_ffi"):
                names.append(name)
            continue
        if callable(value):
            if (getattr(value, "__module__", None) or "").startswith("tvm_ffi"):
                names.append(name)
            continue
        if not _is_plumbing(name, value):
            names.append(name)
    return sorted(names)


def collect(out_path):
    import tvm_ffi

    modules = ["tvm_ffi"] + sorted(
        info.name for info in pkgutil.walk_packages(tvm_ffi.__path__, "tvm_ffi.")
        if ".cython" not in info.name)
    found, failed = {}, {}
    for name in modules:
        try:
            found[name] = _api_names(importlib.import_module(name))
        except Exception as err:  # noqa: BLE001  recorded and reported
            failed[name] = f"{type(err).__name__}: {err}"
    for name, why in failed.items():
        print(f"public-names: upstream's {name} does not import here ({why}); not compared")
    with open(out_path, "w") as f:
        json.dump({"version": tvm_ffi.__version__, "modules": found}, f, indent=1, sort_keys=True)
    print(f"public-names: {sum(map(len, found.values()))} names in {len(found)} modules "
          f"of upstream's tvm_ffi {tvm_ffi.__version__}")


def _has(module_name, module, name):
    if hasattr(module, name):
        return True
    try:  # a submodule is an attribute once imported, as upstream's is
        importlib.import_module(f"{module_name}.{name}")
    except ImportError:
        return False
    return hasattr(module, name)


def check(in_path):
    with open(in_path) as f:
        upstream = json.load(f)["modules"]
    missing, unneeded, compared = [], [], 0
    for module_name, names in sorted(upstream.items()):
        try:
            module = importlib.import_module(module_name)
        except ImportError as err:
            if module_name not in ALLOWED:
                missing.append(f"{module_name} (the module: {err})")
            continue
        if module_name in ALLOWED:
            unneeded.append(module_name)
        for name in names:
            compared += 1
            key = f"{module_name}.{name}"
            present = _has(module_name, module, name)
            if present and key in ALLOWED:
                unneeded.append(key)
            elif not present and key not in ALLOWED:
                missing.append(key)
    recorded = set(upstream) | {f"{m}.{n}" for m, names in upstream.items() for n in names}
    unneeded += [key for key in ALLOWED if key not in recorded]
    for key in sorted(set(unneeded)):
        print(f"public-names: note: {key} is allow-listed but needs no excuse here "
              "(ours has it, or upstream's package as collected does not)")
    for key in missing:
        print(f"public-names: MISSING {key}")
    print(f"public-names: {compared} of upstream's names compared, {len(missing)} missing, "
          f"{len(ALLOWED)} allow-listed")
    return 1 if missing else 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("collect", "check"):
        sys.exit(__doc__)
    if sys.argv[1] == "collect":
        collect(sys.argv[2])
    else:
        sys.exit(check(sys.argv[2]))
