// ffi.Map global functions, and the globals and iterator functor Map and
// Dict share.
#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "container_internal.h"
#include "global_def.h"
#include "map_table.h"
#include "sentinel_internal.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

// The iterator functor of a Map or Dict: f(0) -> current key, f(1) ->
// current value, f(2) -> advance, returning whether an element is left.
// Keeps the map alive.  `kind` names the container in errors.  It follows
// its current key across mutation of a Dict (growth moves pairs); erasing
// that key makes the next command a RuntimeError.
Function MakeMapIterFunctor(Any map, const char* kind) {
  // `key` is an owned copy of the current key (None at the end): positions
  // move when a Dict grows or erases, so each command first finds the
  // current pair again by its key.
  struct State {
    Any map;
    uint64_t pos;
    Any key;
    bool at_end;
  };
  auto state = std::make_shared<State>();
  const MapCell& cell = *MapCellOf(AnyUnsafe::TVMFFIAnyPtrFromAny(map)->v_obj);
  state->pos = MapBeginPos(cell);
  state->at_end = state->pos == MapEndPos(cell);
  if (!state->at_end) state->key = AsAny(MapPairAt(cell, state->pos).key);
  state->map = std::move(map);
  std::string name = std::string("ffi.") + kind + "ForwardIterFunctor";
  return Function::FromTyped(
      [state, kind](int64_t command) -> Any {
        if (command < 0 || command > 2) {
          TVM_FFI_CORE_THROW(ValueError) << kind << " iterator: unknown command " << command
                                         << " (0 = key, 1 = value, 2 = advance)";
        }
        const MapCell& m = *MapCellOf(AnyUnsafe::TVMFFIAnyPtrFromAny(state->map)->v_obj);
        if (state->at_end) {
          if (command == 2) return Any(false);
          TVM_FFI_CORE_THROW(IndexError) << kind << " iterator is past the end";
        }
        const TVMFFIAny& key = *AnyUnsafe::TVMFFIAnyPtrFromAny(state->key);
        if (!MapIsLivePos(m, state->pos) ||
            std::memcmp(&MapPairAt(m, state->pos).key, &key, sizeof(TVMFFIAny)) != 0) {
          state->pos = MapFindPos(m, key);
          if (state->pos == MapEndPos(m)) {
            TVM_FFI_CORE_THROW(RuntimeError) << kind << " changed during iteration: the current key "
                                             << RenderKey(key) << " was removed";
          }
        }
        if (command != 2) {
          const MapPair& kv = MapPairAt(m, state->pos);
          return AsAny(command == 0 ? kv.key : kv.value);
        }
        state->pos = MapNextPos(m, state->pos);
        state->at_end = state->pos == MapEndPos(m);
        state->key = state->at_end ? Any() : AsAny(MapPairAt(m, state->pos).key);
        return Any(!state->at_end);
      },
      name);
}

// ffi.<kind> requires key/value pairs.
void CheckKeyValueArgs(const std::string& func, int32_t n) {
  if (n % 2 != 0) {
    TVM_FFI_CORE_THROW(ValueError) << func
                                   << " expects an even number of arguments (key0, value0, key1, "
                                      "value1, ...), got "
                                   << n;
  }
}

}  // namespace

void RegisterMapCommonGlobals(int32_t type_index, const char* type_key, const char* kind) {
  auto name_of = [kind](const char* suffix) { return std::string("ffi.") + kind + suffix; };
  // The map argument of `func`, exactly of this kind.
  auto map_arg = [type_index, type_key](const AnyView& m, const std::string& func) {
    return MapCellOf(ExactObjectArg(m, type_index, type_key, func.c_str(), 0));
  };
  reflection::GlobalDef def;
  std::string make = name_of("");
  def.def_packed(make.c_str(), [make, type_index](const AnyView* args, int32_t n, Any* rv) {
    CheckKeyValueArgs(make, n);
    *rv = AdoptObject(MapMakeFromViews(type_index, reinterpret_cast<const TVMFFIAny*>(args), n));
  });
  std::string size = name_of("Size");
  def.def(size.c_str(), [size, map_arg](AnyView m) {
    return static_cast<int64_t>(map_arg(m, size)->size);
  });
  std::string count = name_of("Count");
  def.def(count.c_str(), [count, map_arg](AnyView m, AnyView key) {
    return static_cast<int64_t>(MapFindValue(*map_arg(m, count), *ViewRaw(key)) != nullptr);
  });
  std::string get = name_of("GetItem");
  def.def(get.c_str(), [get, map_arg, kind](AnyView m, AnyView key) {
    const TVMFFIAny* v = MapFindValue(*map_arg(m, get), *ViewRaw(key));
    if (v == nullptr) ThrowMapKeyNotFound(*ViewRaw(key), kind);
    return Any(AsAny(*v));
  });
  std::string get_or_missing = name_of("GetItemOrMissing");
  def.def(get_or_missing.c_str(), [get_or_missing, map_arg](AnyView m, AnyView key) {
    const TVMFFIAny* v = MapFindValue(*map_arg(m, get_or_missing), *ViewRaw(key));
    return v == nullptr ? MissingValue() : Any(AsAny(*v));
  });
  std::string iter = name_of("ForwardIterFunctor");
  def.def(iter.c_str(), [iter, map_arg, kind](AnyView m) {
    map_arg(m, iter);
    return MakeMapIterFunctor(Any(m), kind);
  });
}

namespace {

const bool kMapGlobalsRegistered =
    RegisterAtLoad([] { RegisterMapCommonGlobals(kTVMFFIMap, "ffi.Map", "Map"); });

}  // namespace
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm
