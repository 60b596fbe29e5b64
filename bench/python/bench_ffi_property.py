"""Field reads through core.FFIProperty against a plain Python dataclass.

An FFI type is defined with the shim primitives (core._alloc_type_index and
ffi.DataclassDefine, as tvm_ffi.dataclasses.py_class does) with an int, a
float and a str field; each read is timed against the same attribute of a
``@dataclasses.dataclass`` instance (and of a ``slots=True`` one), in this
process.  Results are nanoseconds per read (best of several repeats).

    python bench_ffi_property.py [--json out.json]
"""
import argparse
import dataclasses
import json
import timeit


def best_ns(stmt, env, number=2_000_000):
    times = timeit.repeat(stmt, globals=env, number=number, repeat=7)
    return min(times) / number * 1e9


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    args = parser.parse_args()

    import tvm_ffi
    from tvm_ffi import core

    key = "bench.FieldReadPoint"
    index = core._alloc_type_index(key, 64)
    tvm_ffi.get_global_func("ffi.DataclassDefine")(
        index,
        [["x", 1, False, 0, None, None, None],
         ["y", 3, False, 0, None, None, None],
         ["name", 65, False, 0, None, None, None]],
        0,
    )

    @tvm_ffi.register_object(key)
    class FFIPoint(tvm_ffi.Object):
        pass

    @dataclasses.dataclass
    class PyPoint:
        x: int
        y: float
        name: str

    @dataclasses.dataclass(slots=True)
    class SlotPoint:
        x: int
        y: float
        name: str

    # What register_object built before FFIProperty: a Python property whose
    # getter calls core._field_get.
    class OldPoint(tvm_ffi.Object):
        x = property(lambda self: core._field_get(self, index, 0))
        y = property(lambda self: core._field_get(self, index, 1))
        name = property(lambda self: core._field_get(self, index, 2))

    old = OldPoint.__new__(OldPoint)
    ffi, py, sl = FFIPoint(1, 2.0, "a name"), PyPoint(1, 2.0, "a name"), SlotPoint(1, 2.0, "a name")
    old.__init_handle_by_constructor__(tvm_ffi.get_global_func("ffi.ShallowCopy"), ffi)
    rows = []
    for attr in ("x", "y", "name"):
        stmt = f"p.{attr}"
        t_ffi = best_ns(stmt, {"p": ffi})
        t_py = best_ns(stmt, {"p": py})
        t_sl = best_ns(stmt, {"p": sl})
        t_old = best_ns(stmt, {"p": old}, number=500_000)
        rows.append({"field": attr, "ffi_ns": t_ffi, "dataclass_ns": t_py, "slots_ns": t_sl,
                     "old_property_ns": t_old, "ratio": t_ffi / t_py})
    t_set_ffi = best_ns("p.x = 5", {"p": ffi}, number=1_000_000)
    t_set_py = best_ns("p.x = 5", {"p": py}, number=1_000_000)

    print("| field | FFIProperty ns | dataclass ns | slots dataclass ns | Python property ns "
          "| FFI / dataclass |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['field']} | {r['ffi_ns']:.1f} | {r['dataclass_ns']:.1f} | "
              f"{r['slots_ns']:.1f} | {r['old_property_ns']:.1f} | {r['ratio']:.2f}x |")
    print(f"| x = 5 (write) | {t_set_ffi:.1f} | {t_set_py:.1f} | | | {t_set_ffi / t_set_py:.2f}x |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"reads": rows, "write_ns": [t_set_ffi, t_set_py]}, f, indent=1)


if __name__ == "__main__":
    main()
