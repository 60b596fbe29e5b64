// The library's side of tvm/ffi/extra/structural_mutate.h: the mutate
// hooks of the built-in types, and the globals that run a mutation with
// callbacks chosen at run time.
//
//   __s_mutate__ / __s_maybe_inplace_mutate__ (type_attr::kStructuralMutate,
//   kStructuralMaybeInplaceMutate), native hooks:
//     ffi.Array, ffi.List   each item; a changed item makes a copy (items
//                           before it copied as they are, the rest still
//                           mutated), or, in place, is written into the slot
//     ffi.Map, ffi.Dict     each value (keys are never mutated), the same way
//     ffi.String, ffi.Bytes, ffi.BigInt   never change (no descent)
// (The globals ffi.StructuralMap, ffi.StructuralMutate and
// ffi.StructuralMutatorDefaultMutate that run a mutation are
// core/structural_mutate.cc's.)
//
// Items of a container are mutated in place only when the container itself
// is (InplaceMode::kAllow reached it because nobody else holds it).
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/extra/structural_mutate.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstdint>
#include <optional>
#include <utility>

namespace tvm {
namespace ffi {
namespace {

using detail::ExpectedUnsafe;

TVMFFIAny Unexpected_(const Error& err) noexcept {
  return ExpectedUnsafe::MoveToTVMFFIAny(Expected<Any>(Unexpected(err)));
}

TVMFFIAny Owned(Any value) noexcept { return detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(value)); }

TVMFFIAny ImmutableLeaf(StructuralMutatorObj*, AnyView) noexcept {
  return Unchanged().CopyToTVMFFIAny();
}

// The result of mutating one item: nullopt when it stays, else its replacement.
// An error goes to *error.
std::optional<Any> MutateItem(StructuralMutatorObj* m, AnyView item, InplaceMode mode,
                              std::optional<Error>* error) noexcept {
  Expected<UnchangedOr<Any>> r = m->MutateExpected(item, mode);
  if (r.is_err()) {
    *error = r.error();
    return std::nullopt;
  }
  Any out = ExpectedUnsafe::GetData(r);
  if (out.type_index() == TypeIndex::kTVMFFIUnchanged || AnyView(out).same_as(item)) {
    return std::nullopt;
  }
  return out;
}

// Array and List: Seq is Array<Any> or List<Any> (the copy's type).
template <typename Seq, bool kInplace>
TVMFFIAny MutateSeq(StructuralMutatorObj* m, AnyView value) noexcept {
  try {
    SeqBaseObj* seq = detail::AnyUnsafe::RawObjectPtrFromAnyViewAfterCheck<SeqBaseObj>(value);
    InplaceMode mode = kInplace ? InplaceMode::kAllow : InplaceMode::kDisallow;
    int64_t n = static_cast<int64_t>(seq->size());
    std::optional<Seq> copy;
    bool changed = false;
    for (int64_t i = 0; i < n; ++i) {
      std::optional<Error> error;
      std::optional<Any> next = MutateItem(m, AnyView(seq->at(i)), mode, &error);
      if (error.has_value()) return Unexpected_(*error);
      if (kInplace) {
        if (next.has_value()) {
          seq->SetItemAfterCheck(i, *std::move(next));
          changed = true;
        }
        continue;
      }
      if (next.has_value() && !copy.has_value()) {
        copy.emplace();
        copy->reserve(n);
        for (int64_t j = 0; j < i; ++j) copy->push_back(seq->at(j));
      }
      if (copy.has_value()) copy->push_back(next.has_value() ? *std::move(next) : seq->at(i));
    }
    if (kInplace) return changed ? Owned(Any(value)) : Unchanged().CopyToTVMFFIAny();
    if (!copy.has_value()) return Unchanged().CopyToTVMFFIAny();
    return Owned(Any(*std::move(copy)));
  } catch (const Error& err) {
    return Unexpected_(err);
  }
}

// Map and Dict: the values; M is Map<Any, Any> or Dict<Any, Any> (the copy's type).
template <typename M, bool kInplace>
TVMFFIAny MutateMapValues(StructuralMutatorObj* m, AnyView value) noexcept {
  try {
    MapBaseObj* map = detail::AnyUnsafe::RawObjectPtrFromAnyViewAfterCheck<MapBaseObj>(value);
    InplaceMode mode = kInplace ? InplaceMode::kAllow : InplaceMode::kDisallow;
    std::optional<M> copy;
    bool changed = false;
    for (auto it = map->begin(); it != map->end(); ++it) {
      const MapBaseObj::KVType& kv = *it;
      std::optional<Error> error;
      std::optional<Any> next = MutateItem(m, AnyView(kv.second), mode, &error);
      if (error.has_value()) return Unexpected_(*error);
      if (kInplace) {
        if (next.has_value()) {
          // Values take no part in the hash: the slot is updated where it is.
          const_cast<MapBaseObj::KVType&>(kv).second = *std::move(next);
          changed = true;
        }
        continue;
      }
      if (next.has_value() && !copy.has_value()) {
        copy.emplace();
        for (auto prev = map->begin(); prev != it; ++prev) copy->Set((*prev).first, (*prev).second);
      }
      if (copy.has_value()) copy->Set(kv.first, next.has_value() ? *std::move(next) : kv.second);
    }
    if (kInplace) return changed ? Owned(Any(value)) : Unchanged().CopyToTVMFFIAny();
    if (!copy.has_value()) return Unchanged().CopyToTVMFFIAny();
    return Owned(Any(*std::move(copy)));
  } catch (const Error& err) {
    return Unexpected_(err);
  }
}

void RegisterHook(int32_t type_index, const char* attr, FStructuralMutateABI hook) {
  TVMFFIByteArray name{attr, std::char_traits<char>::length(attr)};
  TVMFFIAny fn;
  fn.type_index = TypeIndex::kTVMFFIOpaquePtr;
  fn.zero_padding = 0;
  fn.v_int64 = 0;
  fn.v_ptr = reinterpret_cast<void*>(hook);
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(type_index, &name, &fn));
}

void RegisterBoth(int32_t type_index, FStructuralMutateABI copying, FStructuralMutateABI inplace) {
  RegisterHook(type_index, type_attr::kStructuralMutate.name, copying);
  RegisterHook(type_index, type_attr::kStructuralMaybeInplaceMutate.name, inplace);
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  RegisterBoth(TypeIndex::kTVMFFIArray, &MutateSeq<Array<Any>, false>,
               &MutateSeq<Array<Any>, true>);
  RegisterBoth(TypeIndex::kTVMFFIList, &MutateSeq<List<Any>, false>, &MutateSeq<List<Any>, true>);
  RegisterBoth(TypeIndex::kTVMFFIMap, &MutateMapValues<Map<Any, Any>, false>,
               &MutateMapValues<Map<Any, Any>, true>);
  RegisterBoth(TypeIndex::kTVMFFIDict, &MutateMapValues<Dict<Any, Any>, false>,
               &MutateMapValues<Dict<Any, Any>, true>);
  for (int32_t leaf : {TypeIndex::kTVMFFIStr, TypeIndex::kTVMFFIBytes, TypeIndex::kTVMFFIBigInt}) {
    RegisterBoth(leaf, &ImmutableLeaf, &ImmutableLeaf);
  }
  // ffi.StructuralMap, ffi.StructuralMutate and
  // ffi.StructuralMutatorDefaultMutate are the core's (core/structural_mutate.cc).
}

}  // namespace ffi
}  // namespace tvm
