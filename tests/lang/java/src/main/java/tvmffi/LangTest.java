// Calling tvm-ffi from Java: opens libtvm_ffi at run time with JNA, calls
// global functions, builds an Array, passes a Java lambda as a callback,
// reads errors, and checks reference counts.
//
//   TVM_FFI_LIB=build/libtvm_ffi.so TVM_FFI_TESTING_LIB=build/libtvm_ffi_testing.so \
//     mvn -q compile exec:exec
package tvmffi;

import tvmffi.TvmFfi.FFIException;
import tvmffi.TvmFfi.Function;
import tvmffi.TvmFfi.Obj;

public final class LangTest {
  private static int passed = 0, failed = 0;

  private static void check(boolean ok, String what) {
    if (ok) {
      passed++;
    } else {
      failed++;
      System.out.println("FAIL: " + what);
    }
  }

  private static Function global(String name) {
    Function f = Function.getGlobal(name);
    if (f == null) throw new IllegalStateException("no global function " + name);
    return f;
  }

  /** The FFIException a call throws, or null. */
  private static FFIException errorOf(Runnable call) {
    try {
      call.run();
      return null;
    } catch (FFIException e) {
      return e;
    }
  }

  private static boolean isError(FFIException e, String kind, String message) {
    return e != null && e.kind.equals(kind) && e.ffiMessage.equals(message);
  }

  public static void main(String[] argv) {
    TvmFfi.load(System.getenv("TVM_FFI_LIB"));
    TvmFfi.loadExtra(System.getenv("TVM_FFI_TESTING_LIB"));

    // int, float and string arguments
    check(Long.valueOf(42).equals(global("testing.add_one").call(41L)), "add_one(41) == 42");
    Function echo = global("testing.echo");
    check(Double.valueOf(2.5).equals(echo.call(2.5)), "echo(2.5)");
    for (String s : new String[] {"hi", "hello from Java, longer than seven bytes"}) {
      Object r = echo.call(s);
      check(s.equals(r), "echo(\"" + s + "\") -> " + r);
    }
    check(Function.getGlobal("testing.no_such_function") == null, "a missing global is null");

    // an Array: built by ffi.Array, read by ffi.ArraySize and ffi.ArrayGetItem
    try (Obj arr = (Obj) global("ffi.Array").call(10L, 20L, 30L)) {
      check(arr.typeIndex() == TvmFfi.K_ARRAY, "ffi.Array returns an Array");
      check(arr.strongCount() == 1, "a new Array has one reference");
      check(Long.valueOf(3).equals(global("ffi.ArraySize").call(arr)), "ArraySize == 3");
      check(Long.valueOf(20).equals(global("ffi.ArrayGetItem").call(arr, 1L)), "ArrayGetItem(1) == 20");
      check(Long.valueOf(60).equals(global("testing.array_sum_int").call(arr)), "array_sum_int == 60");
      FFIException e = errorOf(() -> global("ffi.ArrayGetItem").call(arr, 7L));
      check(isError(e, "IndexError", "index 7 out of range for Array of size 3"), "ArrayGetItem(7): " + e);
      check(Long.valueOf(1).equals(global("testing.object_use_count").call(arr)), "use count seen by the library");
      check(arr.strongCount() == 1, "every call only borrowed the Array");
    }

    // a Java lambda the library calls back, and its error
    int[] calls = {0};
    Function adder = TvmFfi.makeFunction(args -> {
      calls[0]++;
      if (args.length == 2 && args[0] instanceof Long && args[1] instanceof Long) {
        return (Long) args[0] + (Long) args[1];
      }
      throw new FFIException("TypeError", "adder: expected two ints");
    });
    Function apply = global("testing.apply");
    check(Long.valueOf(42).equals(apply.call(adder, 20L, 22L)) && calls[0] == 1, "apply(adder, 20, 22) == 42");
    FFIException e = errorOf(() -> apply.call(adder, 20L, "22"));
    check(isError(e, "TypeError", "adder: expected two ints"), "the callback's error: " + e);
    check(adder.strongCount() == 1, "the library kept no reference to the callback");
    check(TvmFfi.releasedClosures.get() == 0, "callback alive while referenced");
    adder.close();
    check(TvmFfi.releasedClosures.get() == 1, "callback released exactly once with the Function");

    // an error raised by the library
    e = errorOf(() -> global("testing.raise_error").call("ValueError", "the value 7 is not allowed"));
    check(isError(e, "ValueError", "the value 7 is not allowed"), "raise_error: " + e);

    System.out.println(passed + " passed, " + failed + " failed");
    System.exit(failed == 0 ? 0 : 1);
  }

  private LangTest() {}
}
