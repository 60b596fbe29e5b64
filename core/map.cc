// ffi.Map global functions, and the iterator functor Map and Dict share.
#include <tvmffi/map.h>

#include <memory>

#include "container_internal.h"
#include <tvmffi/function.h>

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
        bool valid = state->pos < table.EndPos() &&
                     table.EntryAt(state->pos).key.type_index != detail::KVTable::kErased;
        switch (command) {
          case 0:
          case 1:
            if (!valid) TVMFFI_THROW(IndexError) << what << " iterator is past the end";
            return CopyStored(command == 0 ? table.EntryAt(state->pos).key
                                           : table.EntryAt(state->pos).value);
          case 2:
            if (state->pos < table.EndPos()) state->pos = table.NextLive(state->pos + 1);
            return Any(state->pos < table.EndPos());
          default:
            TVMFFI_THROW(ValueError) << what << " iterator: unknown command " << command
                                     << " (0 = key, 1 = value, 2 = advance)";
        }
      },
      name);
}

namespace {

const bool kCommonGlobalsRegistered = RegisterMapCommonGlobals<MapObj>();

}  // namespace
}  // namespace core
}  // namespace tvmffi
