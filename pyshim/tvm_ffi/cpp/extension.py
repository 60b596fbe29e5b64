"""build/build_inline compile C++ into a shared library; load/load_inline
also load it as a Module.

The compiler is ``$CXX`` (default ``c++``), with ``$CXXFLAGS`` and the
``extra_cflags`` after the defaults ``-std=c++17 -O2 -fPIC -fvisibility=hidden``
(so they win).  The library links the libtvm_ffi this process loaded.
Builds are cached by a hash of everything that goes into them, under
``$TVM_FFI_CACHE_DIR`` (default ``~/.cache/tvm-ffi``) or ``build_directory``.
"""
import fcntl
import hashlib
import os
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Sequence, Union

from .. import libinfo
from ..module import Module, load_module
from ..libinfo import find_dlpack_include_path, find_include_path, find_libtvm_ffi  # noqa: F401
from ._ninja import IS_WINDOWS, build_ninja, logger  # noqa: F401  (upstream's names here)

_StrSeq = Union[str, Sequence[str], None]

_DEFAULT_CFLAGS = ["-std=c++17", "-O2", "-fPIC", "-fvisibility=hidden"]


def _as_list(value: _StrSeq) -> List[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return list(value)


def _function_map(functions: Union[Mapping[str, str], Sequence[str], str, None]) -> Dict[str, str]:
    if functions is None:
        return {}
    if isinstance(functions, str):
        return {functions: ""}
    if isinstance(functions, Mapping):
        return {str(k): str(v or "") for k, v in functions.items()}
    return {str(name): "" for name in functions}


def _cpp_string_literal(text: str) -> str:
    out = []
    for ch in text:
        if ch in "\\\"":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20:
            out.append("\\%03o" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


# What upstream-style inline sources may use without including it themselves
# (tvm::ffi::TensorView, TVM_FFI_ICHECK, ...): apache-tvm-ffi's list.
_INLINE_PROLOGUE = [
    "#include <tvm/ffi/container/tensor.h>",
    "#include <tvm/ffi/dtype.h>",
    "#include <tvm/ffi/error.h>",
    "#include <tvm/ffi/extra/c_env_api.h>",
    "#include <tvm/ffi/function.h>",
]


def _doc_export(name: str, literal: str) -> List[str]:
    """``__tvm_ffi__doc_<name>``, returning the docstring: what
    ``TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC`` emits with metadata on, written out so
    that the docstring is exported without it too.  The string is made by
    libtvm_ffi, so it outlives this library."""
    return [
        f'extern "C" TVM_FFI_DLL_EXPORT int __tvm_ffi__doc_{name}(void*, const TVMFFIAny*, int32_t,',
        "                                                 TVMFFIAny* result) {",
        f"  static const char kDoc[] = {literal};",
        "  TVMFFIByteArray bytes{kDoc, sizeof(kDoc) - 1};",
        "  return TVMFFIStringFromByteArray(&bytes, result);",
        "}",
    ]


def _inline_source(cpp_sources: List[str], functions: Dict[str, str]) -> str:
    """The translation unit of an inline build: the prologue, the sources, and one
    ``TVM_FFI_DLL_EXPORT_TYPED_FUNC`` per function (its type schema is exported only
    with ``-DTVM_FFI_DLL_EXPORT_INCLUDE_METADATA=1``; a docstring always is)."""
    lines = [*_INLINE_PROLOGUE, ""]
    lines += cpp_sources
    lines.append("")
    for name, doc in functions.items():
        if not name.isidentifier():
            raise ValueError(f"function name {name!r} is not a C++ identifier")
        lines.append(f"TVM_FFI_DLL_EXPORT_TYPED_FUNC({name}, {name});")
        if doc:
            literal = _cpp_string_literal(doc)
            lines += [
                "#if TVM_FFI_DLL_EXPORT_INCLUDE_METADATA",
                f"TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC({name}, {literal});",
                "#else",
                *_doc_export(name, literal),
                "#endif",
            ]
    lines.append("")
    return "\n".join(lines)


def _compiler() -> List[str]:
    cxx = shlex.split(os.environ.get("CXX", "") or "c++")
    if shutil.which(cxx[0]) is None:
        raise RuntimeError(
            f"tvm_ffi.cpp: the C++ compiler {cxx[0]!r} was not found; install one or set CXX"
        )
    return cxx


def _build_dir(name: str, build_directory: Optional[str], digest: str) -> Path:
    if build_directory is not None:
        path = Path(build_directory).expanduser().resolve()
    else:
        cache = os.environ.get("TVM_FFI_CACHE_DIR") or "~/.cache/tvm-ffi"
        path = Path(cache).expanduser() / f"{name}_{digest[:16]}"
    path.mkdir(parents=True, exist_ok=True)
    return path


_C_SUFFIXES = (".c",)
_OBJECT_SUFFIXES = (".o", ".a", ".so")
_C_DEFAULT_CFLAGS = ["-O2", "-fPIC", "-fvisibility=hidden"]


def _run(name: str, command: List[str], cwd: Path) -> None:
    proc = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    if proc.returncode != 0:
        raise RuntimeError(
            f"tvm_ffi.cpp: building {name!r} failed (exit code {proc.returncode}).\n"
            f"command: {shlex.join(command)}\n"
            f"{proc.stdout}{proc.stderr}"
        )


def _output_name(name: str, output: Optional[str]) -> str:
    """The file built: ``output`` (a plain file name; ``.o`` means an object file to link
    later) or ``<name>.so``."""
    if output is None:
        return f"{name}.so"
    if not output or "/" in output or output.startswith("."):
        raise ValueError(f"tvm_ffi.cpp: output {output!r} must be a plain file name")
    return output


def _compile(
    name: str,
    sources: List[str],
    source_digests: List[str],
    extra_cflags: _StrSeq,
    extra_ldflags: _StrSeq,
    extra_include_paths: _StrSeq,
    build_directory: Optional[str],
    output: Optional[str] = None,
) -> str:
    if not name or "/" in name or name.startswith("."):
        raise ValueError(f"module name {name!r} must be a plain file name")
    if not sources:
        raise ValueError("no sources to build")
    out_name = _output_name(name, output)
    to_object = out_name.endswith(".o")
    cxx = _compiler()
    lib = libinfo.find_libtvm_ffi()
    include = libinfo.find_include_path()
    includes = [include] + [str(Path(p).resolve()) for p in _as_list(extra_include_paths)]
    user_cflags = shlex.split(os.environ.get("CXXFLAGS", "")) + _as_list(extra_cflags)
    cflags = _DEFAULT_CFLAGS + user_cflags
    ldflags = _as_list(extra_ldflags)
    inc = [f"-I{p}" for p in includes]
    link = [lib, f"-Wl,-rpath,{os.path.dirname(lib)}"] + ldflags
    # One compiler call for C++ sources into a shared library (the common case);
    # C sources, object inputs or an object output go through one object per source.
    simple = not to_object and all(
        not s.endswith(_C_SUFFIXES + _OBJECT_SUFFIXES) for s in sources
    )
    command = cxx + cflags + inc + ["-shared"] + sources + link
    if not simple:
        command = ["staged", *cxx, *cflags, *inc, *sources, *link, out_name]
    # Everything the output depends on: the command (compiler, flags, paths),
    # the sources' contents, and the headers' and library's identity.
    h = hashlib.sha256()
    for part in command + source_digests:
        h.update(part.encode())
        h.update(b"\0")
    for path in (lib, os.path.join(include, "tvm", "ffi")):
        st = os.stat(path)
        h.update(f"{path}:{st.st_mtime_ns}:{st.st_size}".encode())
    digest = h.hexdigest()

    out_dir = _build_dir(name, build_directory, digest)
    target = out_dir / out_name
    stamp = out_dir / f"{out_name}.hash"
    with open(out_dir / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if target.exists() and stamp.exists() and stamp.read_text() == digest:
            return str(target)
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=target.suffix, dir=out_dir)
        os.close(fd)
        try:
            if simple:
                _run(name, command + ["-o", tmp], out_dir)
            else:
                _build_staged(name, sources, cxx, cflags, user_cflags, inc, link,
                              to_object, out_dir, tmp)
            os.replace(tmp, target)
            stamp.write_text(digest)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    return str(target)


def _build_staged(
    name: str,
    sources: List[str],
    cxx: List[str],
    cflags: List[str],
    user_cflags: List[str],
    inc: List[str],
    link: List[str],
    to_object: bool,
    out_dir: Path,
    tmp: str,
) -> None:
    """Each source to an object (C with ``$CC``, C++ with the C++ compiler; objects as
    they are), then one relocatable object (``ld -r``) or a shared library."""
    objects = []
    for i, src in enumerate(sources):
        if src.endswith(_OBJECT_SUFFIXES):
            objects.append(src)
            continue
        obj = str(out_dir / f".{name}.{i}.o")
        if src.endswith(_C_SUFFIXES):
            cc = shlex.split(os.environ.get("CC", "") or "cc")
            flags = _C_DEFAULT_CFLAGS + [f for f in user_cflags if not f.startswith("-std=c++")]
            _run(name, cc + flags + inc + ["-c", src, "-o", obj], out_dir)
        else:
            _run(name, cxx + cflags + inc + ["-c", src, "-o", obj], out_dir)
        objects.append(obj)
    if to_object:
        if len(objects) == 1:
            shutil.copyfile(objects[0], tmp)
        else:
            _run(name, ["ld", "-r", "-o", tmp, *objects], out_dir)
    else:
        _run(name, cxx + ["-shared", *objects, *link, "-o", tmp], out_dir)


def build_inline(
    name: str,
    *,
    cpp_sources: _StrSeq = None,
    cuda_sources: _StrSeq = None,
    functions: Union[Mapping[str, str], Sequence[str], str, None] = None,
    extra_cflags: _StrSeq = None,
    extra_cuda_cflags: _StrSeq = None,
    extra_ldflags: _StrSeq = None,
    extra_include_paths: _StrSeq = None,
    build_directory: Optional[str] = None,
    output: Optional[str] = None,
) -> str:
    """Compiles C++ source text into ``<name>.so`` (or ``output``, a file name in the
    build folder; ``x.o`` is an object file for a later :func:`build`) and returns its path.

    ``functions`` names the functions of ``cpp_sources`` to export: a name,
    a list of names, or a mapping name -> docstring.  Each is exported with
    ``TVM_FFI_DLL_EXPORT_TYPED_FUNC`` (its type schema too with
    ``-DTVM_FFI_DLL_EXPORT_INCLUDE_METADATA=1``; a docstring always).  The
    sources may use ``tvm::ffi`` (tensor, dtype, error and function headers are
    included for them; others they include themselves).
    A compile error raises RuntimeError carrying the compiler's output.
    """
    if cuda_sources or extra_cuda_cflags:
        raise NotImplementedError("tvm_ffi.cpp: CUDA sources are not supported")
    source = _inline_source(_as_list(cpp_sources), _function_map(functions))
    digest = hashlib.sha256(source.encode()).hexdigest()
    # The source file is written where the library goes, so the compiler's
    # messages name a file the user can open.
    src_dir = _build_dir(name, build_directory, digest)
    src = src_dir / f"{name}_{digest[:16]}.cpp"
    if not src.exists() or src.read_text() != source:
        src.write_text(source)
    return _compile(
        name, [str(src)], [digest], extra_cflags, extra_ldflags, extra_include_paths,
        build_directory if build_directory is not None else str(src_dir), output,
    )


def load_inline(
    name: str,
    *,
    cpp_sources: _StrSeq = None,
    cuda_sources: _StrSeq = None,
    functions: Union[Mapping[str, str], Sequence[str], str, None] = None,
    extra_cflags: _StrSeq = None,
    extra_cuda_cflags: _StrSeq = None,
    extra_ldflags: _StrSeq = None,
    extra_include_paths: _StrSeq = None,
    build_directory: Optional[str] = None,
    keep_module_alive: bool = True,
) -> Module:
    """:func:`build_inline`, then :func:`tvm_ffi.load_module` of the result."""
    path = build_inline(
        name,
        cpp_sources=cpp_sources,
        cuda_sources=cuda_sources,
        functions=functions,
        extra_cflags=extra_cflags,
        extra_cuda_cflags=extra_cuda_cflags,
        extra_ldflags=extra_ldflags,
        extra_include_paths=extra_include_paths,
        build_directory=build_directory,
    )
    return load_module(path, keep_module_alive=keep_module_alive)


def build(
    name: str,
    *,
    sources: _StrSeq = None,
    cpp_files: _StrSeq = None,
    cuda_files: _StrSeq = None,
    extra_cflags: _StrSeq = None,
    extra_cuda_cflags: _StrSeq = None,
    extra_ldflags: _StrSeq = None,
    extra_include_paths: _StrSeq = None,
    build_directory: Optional[str] = None,
    output: Optional[str] = None,
) -> str:
    """Compiles source files (which export their functions themselves, e.g. with
    ``TVM_FFI_DLL_EXPORT_TYPED_FUNC``) into ``<name>.so``, or into ``output``
    (``x.o``: one relocatable object); returns its path.  ``.c`` files are
    compiled as C, ``.o``/``.a`` files are linked as they are.  A compile
    error raises RuntimeError with the compiler's output."""
    if cuda_files or extra_cuda_cflags:
        raise NotImplementedError("tvm_ffi.cpp: CUDA sources are not supported")
    files = [str(Path(p).resolve()) for p in _as_list(sources) + _as_list(cpp_files)]
    digests = []
    for path in files:
        if not os.path.isfile(path):
            raise FileNotFoundError(f"tvm_ffi.cpp: source file {path!r} does not exist")
        with open(path, "rb") as f:
            digests.append(hashlib.sha256(f.read()).hexdigest())
    return _compile(
        name, files, digests, extra_cflags, extra_ldflags, extra_include_paths, build_directory,
        output,
    )


def load(
    name: str,
    *,
    sources: _StrSeq = None,
    cpp_files: _StrSeq = None,
    cuda_files: _StrSeq = None,
    extra_cflags: _StrSeq = None,
    extra_cuda_cflags: _StrSeq = None,
    extra_ldflags: _StrSeq = None,
    extra_include_paths: _StrSeq = None,
    build_directory: Optional[str] = None,
    keep_module_alive: bool = True,
) -> Module:
    """:func:`build`, then :func:`tvm_ffi.load_module` of the result."""
    path = build(
        name,
        sources=sources,
        cpp_files=cpp_files,
        cuda_files=cuda_files,
        extra_cflags=extra_cflags,
        extra_cuda_cflags=extra_cuda_cflags,
        extra_ldflags=extra_ldflags,
        extra_include_paths=extra_include_paths,
        build_directory=build_directory,
    )
    return load_module(path, keep_module_alive=keep_module_alive)
