// A small Java wrapper over the C ABI of libtvm_ffi, loaded at run time with JNA.
//
// Values are Java values (null, Long, Double, Boolean, String, Obj); an Obj
// holds one strong reference until close() (it is AutoCloseable).  A failed
// call throws FFIException with the kind and message the callee raised.
// makeFunction turns a Java lambda into a Function the library can call back.
package tvmffi;

import com.sun.jna.Callback;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

public final class TvmFfi {
  // Type indices and sizes of tvm/ffi/c_api.h.
  static final int K_NONE = 0, K_INT = 1, K_BOOL = 2, K_FLOAT = 3, K_RAW_STR = 8, K_SMALL_STR = 11;
  static final int K_OBJECT_BASE = 64, K_STR = 65, K_FUNCTION = 68;
  public static final int K_ARRAY = 71;
  static final int ANY_SIZE = 16; // { i32 type_index, u32 small_str_len, 8-byte payload }
  static final int HEADER_SIZE = 24; // a type's cell follows the object header

  /** The safe-call convention; `self` carries the id of a Java function. */
  public interface SafeCall extends Callback {
    int invoke(Pointer self, Pointer args, int n, Pointer result);
  }

  public interface Deleter extends Callback {
    void invoke(Pointer self);
  }

  /** The C functions this wrapper uses, bound by name. */
  public interface Lib extends Library {
    int TVMFFIObjectIncRef(Pointer obj);
    int TVMFFIObjectDecRef(Pointer obj);
    int TVMFFIFunctionGetGlobal(Pointer name, PointerByReference out);
    int TVMFFIFunctionCreate(Pointer self, SafeCall call, Deleter deleter, PointerByReference out);
    int TVMFFIFunctionCall(Pointer func, Pointer args, int n, Pointer result);
    void TVMFFIErrorMoveFromRaised(PointerByReference out);
    void TVMFFIErrorSetRaisedFromCStr(String kind, String message);
  }

  static Lib lib;
  private static final List<NativeLibrary> keepLoaded = new ArrayList<>();

  public static void load(String path) {
    lib = Native.load(path, Lib.class);
  }

  /** Another library, e.g. one that registers global functions; stays loaded. */
  public static void loadExtra(String path) {
    keepLoaded.add(NativeLibrary.getInstance(path));
  }

  /** An error raised across the ABI. */
  public static final class FFIException extends RuntimeException {
    public final String kind;
    public final String ffiMessage;

    public FFIException(String kind, String message) {
      super(kind + ": " + message);
      this.kind = kind;
      this.ffiMessage = message;
    }
  }

  /** One strong reference to an object. */
  public static class Obj implements AutoCloseable {
    Pointer handle;

    Obj(Pointer handle) {
      this.handle = handle;
    }

    public int typeIndex() {
      return handle.getInt(8);
    }

    /** The low 32 bits of the header's reference-count word. */
    public long strongCount() {
      return handle.getLong(0) & 0xffffffffL;
    }

    @Override
    public void close() {
      if (handle != null) lib.TVMFFIObjectDecRef(handle);
      handle = null;
    }
  }

  /** Reads a TVMFFIByteArray { const char* data; size_t size } at p + offset. */
  static String byteArrayString(Pointer p, long offset) {
    Pointer data = p.getPointer(offset);
    int size = (int) p.getLong(offset + 8);
    return size == 0 ? "" : new String(data.getByteArray(0, size), StandardCharsets.UTF_8);
  }

  /** Reads the value at mem + offset; owned: its reference becomes ours. */
  static Object readAny(Pointer mem, long offset, boolean owned) {
    int type = mem.getInt(offset);
    switch (type) {
      case K_NONE: return null;
      case K_INT: return mem.getLong(offset + 8);
      case K_BOOL: return mem.getLong(offset + 8) != 0;
      case K_FLOAT: return mem.getDouble(offset + 8);
      case K_RAW_STR: return mem.getPointer(offset + 8).getString(0, "UTF-8");
      case K_SMALL_STR: {
        int len = mem.getInt(offset + 4);
        return new String(mem.getByteArray(offset + 8, len), StandardCharsets.UTF_8);
      }
      default: break;
    }
    if (type < K_OBJECT_BASE) return "<value of type index " + type + ">";
    Pointer handle = mem.getPointer(offset + 8);
    if (type == K_STR) {
      String text = byteArrayString(handle, HEADER_SIZE);
      if (owned) lib.TVMFFIObjectDecRef(handle);
      return text;
    }
    if (!owned) lib.TVMFFIObjectIncRef(handle);
    return type == K_FUNCTION ? new Function(handle) : new Obj(handle);
  }

  /** Writes a view of value at buf + offset; strings are kept alive in keep. */
  static void writeAny(Memory buf, long offset, Object value, List<Memory> keep) {
    buf.setInt(offset, K_NONE);
    buf.setInt(offset + 4, 0);
    buf.setLong(offset + 8, 0);
    if (value == null) return;
    if (value instanceof Long || value instanceof Integer) {
      buf.setInt(offset, K_INT);
      buf.setLong(offset + 8, ((Number) value).longValue());
    } else if (value instanceof Double) {
      buf.setInt(offset, K_FLOAT);
      buf.setDouble(offset + 8, (Double) value);
    } else if (value instanceof Boolean) {
      buf.setInt(offset, K_BOOL);
      buf.setLong(offset + 8, (Boolean) value ? 1 : 0);
    } else if (value instanceof String) {
      byte[] bytes = ((String) value).getBytes(StandardCharsets.UTF_8);
      Memory s = new Memory(bytes.length + 1);
      s.write(0, bytes, 0, bytes.length);
      s.setByte(bytes.length, (byte) 0);
      keep.add(s);
      buf.setInt(offset, K_RAW_STR);
      buf.setPointer(offset + 8, s);
    } else if (value instanceof Obj) {
      buf.setInt(offset, ((Obj) value).typeIndex());
      buf.setPointer(offset + 8, ((Obj) value).handle);
    } else {
      throw new IllegalArgumentException("cannot pass a " + value.getClass().getName());
    }
  }

  static FFIException takeRaised() {
    PointerByReference out = new PointerByReference();
    lib.TVMFFIErrorMoveFromRaised(out);
    Pointer err = out.getValue();
    if (err == null) return new FFIException("InternalError", "a call failed without raising an error");
    FFIException e = new FFIException(byteArrayString(err, HEADER_SIZE), byteArrayString(err, HEADER_SIZE + 16));
    lib.TVMFFIObjectDecRef(err);
    return e;
  }

  /** An ffi.Function. */
  public static final class Function extends Obj {
    Function(Pointer handle) {
      super(handle);
    }

    /** Looks up a global function; null when no function has that name. */
    public static Function getGlobal(String name) {
      byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
      Memory data = new Memory(Math.max(1, bytes.length));
      data.write(0, bytes, 0, bytes.length);
      Memory byteArray = new Memory(16); // TVMFFIByteArray
      byteArray.setPointer(0, data);
      byteArray.setLong(8, bytes.length);
      PointerByReference out = new PointerByReference();
      if (lib.TVMFFIFunctionGetGlobal(byteArray, out) != 0) throw takeRaised();
      return out.getValue() == null ? null : new Function(out.getValue());
    }

    /** Calls with Java values as arguments (views, borrowed for the call). */
    public Object call(Object... args) {
      List<Memory> keep = new ArrayList<>();
      Memory buf = new Memory((long) ANY_SIZE * (args.length + 1)); // the last slot is the result
      for (int i = 0; i < args.length; i++) writeAny(buf, (long) i * ANY_SIZE, args[i], keep);
      Pointer result = buf.share((long) args.length * ANY_SIZE);
      writeAny(buf, (long) args.length * ANY_SIZE, null, keep);
      if (lib.TVMFFIFunctionCall(handle, buf, args.length, result) != 0) throw takeRaised();
      return readAny(result, 0, true);
    }
  }

  /** A Java function the library can call; throw FFIException to raise. */
  public interface JavaFunction {
    Object apply(Object[] args);
  }

  // Java functions made into Functions, by id, until the library lets go.
  private static final Map<Long, JavaFunction> closures = new ConcurrentHashMap<>();
  private static final AtomicLong nextId = new AtomicLong(1);
  public static final AtomicLong releasedClosures = new AtomicLong();

  private static int raise(String kind, String message) {
    lib.TVMFFIErrorSetRaisedFromCStr(kind, message);
    return -1;
  }

  // One callback object each, kept reachable for the life of the process.
  private static final SafeCall SAFE_CALL = (self, args, n, result) -> {
    try {
      JavaFunction fn = closures.get(Pointer.nativeValue(self));
      Object[] values = new Object[n];
      for (int i = 0; i < n; i++) values[i] = readAny(args, (long) i * ANY_SIZE, false);
      Object out = fn.apply(values);
      for (Object v : values) if (v instanceof Obj) ((Obj) v).close();
      if (out instanceof Long) {
        result.setInt(0, K_INT);
        result.setLong(8, (Long) out);
      } else if (out instanceof Double) {
        result.setInt(0, K_FLOAT);
        result.setDouble(8, (Double) out);
      } else if (out != null) {
        return raise("TypeError", "a Java callback cannot return a " + out.getClass().getName() + " here");
      }
      return 0;
    } catch (FFIException e) {
      return raise(e.kind, e.ffiMessage);
    } catch (Throwable t) {
      // No Java exception may cross into C: it becomes the raised error.
      return raise("RuntimeError", t.toString());
    }
  };

  private static final Deleter DELETER = self -> {
    closures.remove(Pointer.nativeValue(self));
    releasedClosures.incrementAndGet();
  };

  public static Function makeFunction(JavaFunction fn) {
    long id = nextId.getAndIncrement();
    closures.put(id, fn);
    PointerByReference out = new PointerByReference();
    if (lib.TVMFFIFunctionCreate(new Pointer(id), SAFE_CALL, DELETER, out) != 0) {
      closures.remove(id);
      throw takeRaised();
    }
    return new Function(out.getValue());
  }

  private TvmFfi() {}
}
