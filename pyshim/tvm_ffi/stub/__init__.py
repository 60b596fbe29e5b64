"""tvm_ffi.stub: writes Python type stubs for FFI functions and types into marked blocks.

A source file asks for stubs with comment markers; ``tvm-ffi-stubgen`` (see
:mod:`tvm_ffi.stub.cli`) fills each block from what the loaded libraries
registered and leaves every line outside the blocks alone::

    # tvm-ffi-stubgen(begin): global/mylib@mypkg
    # tvm-ffi-stubgen(end)

Block kinds: ``global/<prefix>[@<module>]`` (global functions under a
prefix), ``object/<type key>`` (fields and methods of a reflected type, inside
its class body), ``import-section``, ``__all__`` and ``export/<module>``.
One-line directives: ``ty-map: A -> B`` (render type ``A`` as ``B``),
``import-object: <name>;<type_checking_only>;<alias>``, ``skip: <type key>``
and ``skip-file``.
"""
