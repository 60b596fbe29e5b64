"""``embed_cubin``: put a CUDA binary (a ``.cubin``, or any file) into an
object file, as the bytes between the symbols ``__tvm_ffi__cubin_<name>``
and ``__tvm_ffi__cubin_<name>_end`` that ``TVM_FFI_EMBED_CUBIN(<name>)``
code refers to.  No CUDA toolkit is needed: the C compiler assembles the
bytes in (``.incbin``), ``ld -r`` merges them with the object, and
``objcopy`` makes the two symbols local to it, so several objects may embed
data under the same name.  Linux (ELF) only.

Command line: ``python -m tvm_ffi.utils.embed_cubin --cubin k.cubin
--input-obj k.o --output-obj k_with_cubin.o --name my_kernel``.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile


def _tool(env_name: str, default: str) -> str:
    name = os.environ.get(env_name, default)
    path = shutil.which(name)
    if path is None:
        raise RuntimeError(f"embed_cubin needs `{name}` (set {env_name} to another program)")
    return path


def _run(cmd, verbose: bool) -> None:
    if verbose:
        print("embed_cubin:", " ".join(cmd), file=sys.stderr)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(
            f"embed_cubin: `{' '.join(cmd)}` failed (exit code {proc.returncode}):\n"
            f"{proc.stdout}{proc.stderr}"
        )


def embed_cubin(cubin_path, input_obj_path, output_obj_path, name: str,
                verbose: bool = False) -> None:
    """Write ``output_obj_path``: the object ``input_obj_path`` plus the bytes
    of ``cubin_path`` between the local symbols ``__tvm_ffi__cubin_<name>``
    and ``__tvm_ffi__cubin_<name>_end``.

    FileNotFoundError when an input file is missing; ValueError when ``name``
    is not a C identifier; RuntimeError naming the tool when ``cc``, ``ld``
    or ``objcopy`` (or ``$CC``, ``$LD``, ``$OBJCOPY``) is missing or fails.
    """
    cubin_path, input_obj_path = os.fspath(cubin_path), os.fspath(input_obj_path)
    output_obj_path = os.fspath(output_obj_path)
    for what, path in (("CUBIN file", cubin_path), ("input object file", input_obj_path)):
        if not os.path.isfile(path):
            raise FileNotFoundError(f"embed_cubin: {what} not found: {path}")
    if not (isinstance(name, str) and name.isidentifier() and name.isascii()):
        raise ValueError(f"embed_cubin: name must be a C identifier, got {name!r}")
    if sys.platform != "linux":
        raise RuntimeError("embed_cubin supports Linux (ELF object files) only")
    cc, ld, objcopy = _tool("CC", "cc"), _tool("LD", "ld"), _tool("OBJCOPY", "objcopy")
    start, end = f"__tvm_ffi__cubin_{name}", f"__tvm_ffi__cubin_{name}_end"
    quoted = os.path.abspath(cubin_path).replace("\\", "\\\\").replace('"', '\\"')
    assembly = (
        f'\t.section .rodata.{start},"a"\n'
        "\t.balign 16\n"
        f"\t.globl {start}\n\t.globl {end}\n"
        f"{start}:\n"
        f'\t.incbin "{quoted}"\n'
        f"{end}:\n"
        '\t.section .note.GNU-stack,"",@progbits\n'
    )
    with tempfile.TemporaryDirectory(prefix="tvm-ffi-embed-") as tmp:
        asm = os.path.join(tmp, "cubin.S")
        blob = os.path.join(tmp, "cubin.o")
        merged = os.path.join(tmp, "merged.o")
        with open(asm, "w") as f:
            f.write(assembly)
        _run([cc, "-c", asm, "-o", blob], verbose)
        _run([ld, "-r", input_obj_path, blob, "-o", merged], verbose)
        _run([objcopy, f"--localize-symbol={start}", f"--localize-symbol={end}", merged,
              output_obj_path], verbose)


def main(argv=None) -> int:
    import argparse  # noqa: PLC0415

    parser = argparse.ArgumentParser(prog="python -m tvm_ffi.utils.embed_cubin",
                                     description="Embed a CUBIN file into an object file.")
    parser.add_argument("--cubin", required=True, help="the CUBIN (or any binary) file")
    parser.add_argument("--input-obj", required=True, help="the object file to extend")
    parser.add_argument("--output-obj", required=True, help="the object file to write")
    parser.add_argument("--name", required=True, help="the name given to TVM_FFI_EMBED_CUBIN")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each command")
    args = parser.parse_args(argv)
    try:
        embed_cubin(args.cubin, args.input_obj, args.output_obj, args.name, args.verbose)
    except (OSError, RuntimeError, ValueError) as e:
        print(e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
