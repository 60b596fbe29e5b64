// ffi.Map global functions, and the iterator functor Map and Dict share.
#include "map.h"

#include <memory>

#include "container_internal.h"
#include "function.h"

namespace tvmffi {
namespace core {

Function MakeMapIterFunctor(ObjectPtr<Object> map, const char* what) {
  struct State {
    ObjectPtr<Object> map;
    int64_t pos;
  };
  auto state = std::make_shared<State>();
  state->pos = static_cast<MapBaseObj*>(map.get())->table.NextLive(0);
  state->map = std::move(map);
  std::string name = std::string("ffi.") + what + "ForwardIterFunctor";
  return Function::FromTyped(
      [state, what](int64_t command) -> Any {
        const detail::KVTable& table = static_cast<MapBaseObj*>(state->map.get())->table;
        // Positions are checked each time: the Dict may have changed since.
        bool valid = state->pos < table.end_pos() &&
                     table.EntryAt(state->pos).key.type_index != detail::KVTable::kErased;
        switch (command) {
          case 0:
          case 1:
            if (!valid) TVMFFI_THROW(IndexError) << what << " iterator is past the end";
            return CopyStored(command == 0 ? table.EntryAt(state->pos).key
                                           : table.EntryAt(state->pos).value);
          case 2:
            if (state->pos < table.end_pos()) state->pos = table.NextLive(state->pos + 1);
            return Any(state->pos < table.end_pos());
          default:
            TVMFFI_THROW(ValueError) << what << " iterator: unknown command " << command
                                     << " (0 = key, 1 = value, 2 = advance)";
        }
      },
      name);
}

namespace {

const MapObj* MapArg(const AnyView& arg, const char* func) {
  return ExactObjectArg<MapObj>(arg, func, 0);
}

// ffi.Map(k0, v0, k1, v1, ...); a repeated key keeps its last value.
TVMFFI_REGISTER_GLOBAL_PACKED("ffi.Map", [](const AnyView* args, int32_t n, Any* rv) {
  CheckKeyValueArgs("ffi.Map", n);
  ObjectPtr<MapObj> map = MapObj::Make();
  map->table.Reserve(n / 2);
  for (int32_t i = 0; i < n; i += 2) map->table.Set(Any(args[i]).Release(), Any(args[i + 1]).Release());
  *rv = ObjectPtrToAny(std::move(map));
});

TVMFFI_REGISTER_GLOBAL("ffi.MapSize", [](AnyView m) { return MapArg(m, "ffi.MapSize")->size(); });

TVMFFI_REGISTER_GLOBAL("ffi.MapCount", [](AnyView m, AnyView key) {
  return static_cast<int64_t>(MapArg(m, "ffi.MapCount")->FindValue(*key.raw()) != nullptr);
});

TVMFFI_REGISTER_GLOBAL("ffi.MapGetItem", [](AnyView m, AnyView key) {
  const TVMFFIAny* v = MapArg(m, "ffi.MapGetItem")->FindValue(*key.raw());
  if (v == nullptr) ThrowKeyNotFound(*key.raw(), "Map");
  return CopyStored(*v);
});

TVMFFI_REGISTER_GLOBAL("ffi.MapGetItemOrMissing", [](AnyView m, AnyView key) {
  const TVMFFIAny* v = MapArg(m, "ffi.MapGetItemOrMissing")->FindValue(*key.raw());
  if (v == nullptr) return MissingValue();
  return CopyStored(*v);
});

TVMFFI_REGISTER_GLOBAL("ffi.MapForwardIterFunctor", [](AnyView m) {
  MapArg(m, "ffi.MapForwardIterFunctor");
  return MakeMapIterFunctor(ObjectPtr<Object>::BorrowHandle(m.raw()->v_obj), "Map");
});

}  // namespace
}  // namespace core
}  // namespace tvmffi
