// ffi.Map global functions, and the iterator functor Map and Dict share.
#include "impl/map.h"

#include <cstring>
#include <memory>

#include "container_internal.h"
#include "impl/function.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {

Function MakeMapIterFunctor(ObjectPtr<Object> map, const char* what) {
  // `key` is an owned copy of the current key (None at the end): positions
  // move when a Dict grows or erases, so each command first finds the
  // current pair again by its key.
  struct State {
    ObjectPtr<Object> map;
    uint64_t pos;
    Any key;
    bool at_end;
  };
  auto state = std::make_shared<State>();
  const MapBaseObj* obj = static_cast<const MapBaseObj*>(map.get());
  state->pos = obj->BeginPos();
  state->at_end = state->pos == obj->EndPos();
  if (!state->at_end) state->key = CopyStored(obj->KVAt(state->pos).key);
  state->map = std::move(map);
  std::string name = std::string("ffi.") + what + "ForwardIterFunctor";
  return Function::FromTyped(
      [state, what](int64_t command) -> Any {
        if (command < 0 || command > 2) {
          TVM_FFI_IMPL_THROW(ValueError) << what << " iterator: unknown command " << command
                                   << " (0 = key, 1 = value, 2 = advance)";
        }
        const MapBaseObj* m = static_cast<const MapBaseObj*>(state->map.get());
        if (state->at_end) {
          if (command == 2) return Any(false);
          TVM_FFI_IMPL_THROW(IndexError) << what << " iterator is past the end";
        }
        const TVMFFIAny& key = *state->key.raw();
        if (!m->IsLivePos(state->pos) ||
            std::memcmp(&m->KVAt(state->pos).key, &key, sizeof(TVMFFIAny)) != 0) {
          state->pos = m->FindPos(key);
          if (state->pos == m->EndPos()) {
            TVM_FFI_IMPL_THROW(RuntimeError) << what << " changed during iteration: the current key "
                                       << RenderKey(key) << " was removed";
          }
        }
        if (command != 2) {
          const MapBaseObj::KV& kv = m->KVAt(state->pos);
          return CopyStored(command == 0 ? kv.key : kv.value);
        }
        state->pos = m->NextPos(state->pos);
        state->at_end = state->pos == m->EndPos();
        state->key = state->at_end ? Any() : CopyStored(m->KVAt(state->pos).key);
        return Any(!state->at_end);
      },
      name);
}

namespace {

const bool kCommonGlobalsRegistered = RegisterMapCommonGlobals<MapObj>();

}  // namespace
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm
