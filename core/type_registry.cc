// The type registry: type entries, fields, methods, metadata and attribute columns.
#include "type_registry.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "impl/any.h"
#include "impl/error.h"
#include "impl/string.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace type_registry {

// Still on the older C++ layer (issue 19): its values and string helpers.
using ::tvm::ffi::detail::impl::Any;
using ::tvm::ffi::detail::impl::AnyView;
using ::tvm::ffi::detail::impl::ByteArrayToString;
using ::tvm::ffi::detail::impl::CheckByteArray;
using ::tvm::ffi::detail::impl::TypeIndexToDisplayName;

namespace {

// Capacity of the index space: kNumChunks chunks of kChunkSize entry slots.
constexpr int32_t kChunkBits = 10;
constexpr int32_t kChunkSize = 1 << kChunkBits;
constexpr int32_t kNumChunks = 1024;
constexpr int64_t kMaxTypes = int64_t(kChunkSize) * kNumChunks;

std::string Quote(const std::string& s) { return "`" + s + "`"; }

// An append-only array whose storage may move on growth.  Old storage is
// kept alive (not freed) so that a reader holding the previous pointer never
// touches freed memory; the waste is bounded by the final size.
template <typename T>
class GrowArray {
 public:
  // Appends `value`; returns the (possibly new) data pointer.
  T* Append(const T& value) {
    if (size_ == capacity_) Grow(capacity_ == 0 ? 4 : capacity_ * 2);
    data_[size_++] = value;
    return data_.get();
  }
  // Makes room for `count` entries (zero-filled); returns the data pointer.
  T* Resize(size_t count) {
    if (count > capacity_) Grow(std::max(count, capacity_ * 2));
    size_ = std::max(size_, count);
    return data_.get();
  }
  T* data() const { return data_.get(); }
  size_t size() const { return size_; }

 private:
  // Moves the entries to zero-filled storage of `capacity` entries.
  void Grow(size_t capacity) {
    std::unique_ptr<T[]> grown(new T[capacity]);
    std::memset(static_cast<void*>(grown.get()), 0, sizeof(T) * capacity);
    if (size_ != 0) std::memcpy(static_cast<void*>(grown.get()), data_.get(), sizeof(T) * size_);
    if (data_) retired_.push_back(std::move(data_));
    data_ = std::move(grown);
    capacity_ = capacity;
  }

  std::unique_ptr<T[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
  std::vector<std::unique_ptr<T[]>> retired_;
};

// Publishes a grown array (data pointer and element count) that readers
// take without the lock.  The entries are written before the call; the
// pointer is stored before the count, both with release order, so a reader
// that loads the count first with acquire order (then the pointer) never
// pairs a new count with an old, shorter buffer.  Old buffers stay valid
// (GrowArray retires, never frees, them), so a reader still holding the old
// pointer and count reads consistent data too.
template <typename T, typename Count>
void PublishArray(T** data_field, Count* count_field, T* data, size_t count) {
  __atomic_store_n(data_field, data, __ATOMIC_RELEASE);
  __atomic_store_n(count_field, static_cast<Count>(count), __ATOMIC_RELEASE);
}

// One registered type.  `info` is the first member, so the address of the
// entry is the TVMFFITypeInfo* handed out.  Entries are never freed or moved.
// All members are written under Registry::mu_; `info` is read without a lock.
struct TypeEntry {
  TVMFFITypeInfo info;
  std::string key;                                // owns info.type_key
  std::vector<const TVMFFITypeInfo*> ancestors;   // owns info.type_ancestors
  int32_t num_child_slots = 0;
  bool can_overflow = true;
  int32_t allocated_slots = 1;                    // this type's own index counts
  GrowArray<TVMFFIFieldInfo> fields;              // owns info.fields
  GrowArray<TVMFFIMethodInfo> methods;            // owns info.methods
  std::unique_ptr<TVMFFITypeMetadata> metadata;   // owns info.metadata
  std::deque<std::string> strings;                // names, docs, metadata texts
  std::deque<Any> retained;                       // defaults, setters, methods

  // A stable copy of `text`; {NULL, 0} when empty.
  TVMFFIByteArray Keep(const TVMFFIByteArray& text) {
    TVMFFIByteArray out{nullptr, 0};
    if (text.size == 0) return out;
    strings.emplace_back(text.data, text.size);
    out.data = strings.back().data();
    out.size = strings.back().size();
    return out;
  }
  // Retains an owned value for the life of the process; returns its view.
  TVMFFIAny Retain(Any value) {
    retained.push_back(std::move(value));
    return *retained.back().raw();
  }
  // Points the name, doc and metadata of a field or method info at stable
  // copies kept by this entry.
  template <typename Info>
  void KeepTexts(Info* info) {
    info->name = Keep(info->name);
    info->doc = Keep(info->doc);
    info->metadata = Keep(info->metadata);
  }
};

// A type-attribute column.  `column` is the first member (its address is
// handed out).  Entries are owning values; storage is the GrowArray.
struct AttrColumn {
  TVMFFITypeAttrColumn column;
  GrowArray<TVMFFIAny> storage;
};

std::string ToStdString(const TVMFFIByteArray& b) { return ByteArrayToString(b, "text"); }

// Checks the texts of a field or method info (`kind` is "field" or "method")
// and returns its name.
template <typename Info>
std::string CheckedName(const Info& info, const std::string& kind) {
  CheckByteArray(info.name, (kind + " name").c_str());
  CheckByteArray(info.doc, (kind + " doc").c_str());
  CheckByteArray(info.metadata, (kind + " metadata").c_str());
  return ToStdString(info.name);
}

void CheckNamespace(const std::string& key) {
  size_t dot = key.rfind('.');
  if (dot == std::string::npos) {
    TVM_FFI_IMPL_THROW(ValueError) << "type key " << Quote(key)
                             << " has no namespace; use a dotted key such as `mylib." << key
                             << "`";
  }
  std::string name = key.substr(dot + 1);
  if (dot == 0) {
    TVM_FFI_IMPL_THROW(ValueError) << "type key " << Quote(key)
                             << " has an empty namespace; use a dotted key such as `mylib."
                             << name << "`";
  }
  if (name.empty()) {
    TVM_FFI_IMPL_THROW(ValueError) << "type key " << Quote(key)
                             << " has an empty name; use a dotted key such as `" << key
                             << "Foo`";
  }
}

class Registry {
 public:
  // Leaked on purpose: entries must outlive every static destructor that may
  // still look up types, and retained functions must not be released after
  // the libraries that made them are gone.
  static Registry& Global() {
    static Registry* registry = new Registry();
    return *registry;
  }

  // Lock-free.
  TypeEntry* Lookup(int32_t index) const noexcept {
    if (index < 0 || index >= kMaxTypes) return nullptr;
    std::atomic<TypeEntry*>* chunk = chunks_[index >> kChunkBits].load(std::memory_order_acquire);
    if (chunk == nullptr) return nullptr;
    return chunk[index & (kChunkSize - 1)].load(std::memory_order_acquire);
  }

  // Throws ValueError for an unknown index.
  TypeEntry* Require(int32_t index) const {
    TypeEntry* e = Lookup(index);
    if (e == nullptr) TVM_FFI_IMPL_THROW(ValueError) << "unknown type index " << index;
    return e;
  }

  int32_t GetOrAllocIndex(const std::string& key, int32_t static_index, int32_t depth,
                          int32_t num_child_slots, bool can_overflow, int32_t parent_index) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = key_to_index_.find(key);
    if (it != key_to_index_.end()) return it->second;
    if (parent_index == -2) return -2;

    if (key.empty()) TVM_FFI_IMPL_THROW(ValueError) << "type key must not be empty";
    if (static_index < -1) {
      TVM_FFI_IMPL_THROW(ValueError) << "invalid static type index " << static_index << " for type "
                               << Quote(key) << "; use -1 to allocate one";
    }
    if (static_index == -1 || static_index >= kTVMFFIStaticObjectBegin) CheckNamespace(key);
    if (num_child_slots < 0) {
      TVM_FFI_IMPL_THROW(ValueError) << "invalid num_child_slots " << num_child_slots << " for type "
                               << Quote(key);
    }

    TypeEntry* parent = nullptr;
    if (parent_index == -1) {
      if (depth != 0) {
        TVM_FFI_IMPL_THROW(ValueError) << "type " << Quote(key)
                                 << " has no parent, so its depth must be 0, got " << depth;
      }
    } else {
      parent = Lookup(parent_index);
      if (parent == nullptr) {
        TVM_FFI_IMPL_THROW(ValueError) << "parent type index " << parent_index << " of type "
                                 << Quote(key) << " is not registered";
      }
      if (parent_index < kTVMFFIStaticObjectBegin) {
        TVM_FFI_IMPL_THROW(ValueError) << "parent type index " << parent_index << " ("
                                 << parent->key << ") of type " << Quote(key)
                                 << " is a value type; only object types have subtypes";
      }
      if (depth != parent->info.type_depth + 1) {
        TVM_FFI_IMPL_THROW(ValueError) << "type " << Quote(key) << " has depth " << depth
                                 << " but its parent " << Quote(parent->key) << " has depth "
                                 << parent->info.type_depth << "; expected "
                                 << parent->info.type_depth + 1;
      }
      can_overflow = can_overflow && parent->can_overflow;
    }

    int64_t needed = int64_t(num_child_slots) + 1;
    int32_t index;
    if (static_index >= 0) {
      if (static_index >= kTVMFFIDynObjectBegin) {
        TVM_FFI_IMPL_THROW(ValueError) << "static type index " << static_index << " of type "
                                 << Quote(key) << " is out of the static range [0, "
                                 << int(kTVMFFIDynObjectBegin) << ")";
      }
      index = static_index;
      CheckFree(index, 1, key);
      if (parent != nullptr && index <= parent->info.type_index) {
        TVM_FFI_IMPL_THROW(ValueError) << "static type index " << index << " of type " << Quote(key)
                                 << " must be greater than its parent's index "
                                 << parent->info.type_index;
      }
    } else if (parent != nullptr &&
               parent->allocated_slots + needed <= int64_t(parent->num_child_slots) + 1) {
      index = parent->info.type_index + parent->allocated_slots;
      CheckFree(index, needed, key);
      parent->allocated_slots += static_cast<int32_t>(needed);
    } else {
      if (parent != nullptr && !parent->can_overflow) {
        TVM_FFI_IMPL_THROW(RuntimeError) << "cannot register type " << Quote(key) << ": parent "
                                   << Quote(parent->key)
                                   << " has no child slots left and does not allow overflow";
      }
      if (next_dynamic_ + needed > kMaxTypes) {
        TVM_FFI_IMPL_THROW(RuntimeError) << "cannot register type " << Quote(key)
                                   << ": the type table is full (" << kMaxTypes << " indices)";
      }
      index = static_cast<int32_t>(next_dynamic_);
      next_dynamic_ += needed;
    }

    TypeEntry* e = new TypeEntry();
    e->key = key;
    e->num_child_slots = num_child_slots;
    e->can_overflow = can_overflow;
    if (parent != nullptr) {
      e->ancestors = parent->ancestors;
      e->ancestors.push_back(&parent->info);
    }
    std::memset(&e->info, 0, sizeof(e->info));
    e->info.type_index = index;
    e->info.type_depth = depth;
    e->info.type_key.data = e->key.data();
    e->info.type_key.size = e->key.size();
    e->info.type_ancestors = e->ancestors.empty() ? nullptr : e->ancestors.data();
    e->info.type_key_hash = static_cast<uint64_t>(std::hash<std::string>()(e->key));
    Publish(index, e);
    key_to_index_.emplace(key, index);
    return index;
  }

  std::optional<int32_t> KeyToIndex(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = key_to_index_.find(key);
    if (it == key_to_index_.end()) return std::nullopt;
    return it->second;
  }

  std::vector<std::string> ListTypeKeys() {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::pair<int32_t, std::string>> all;
    for (const auto& kv : key_to_index_) all.emplace_back(kv.second, kv.first);
    std::sort(all.begin(), all.end());
    std::vector<std::string> keys;
    for (auto& p : all) keys.push_back(std::move(p.second));
    return keys;
  }

  void RegisterField(int32_t type_index, const TVMFFIFieldInfo& info) {
    std::string name = CheckedName(info, "field");
    // Conversions run outside the lock (they may allocate objects).
    Any default_value;
    if (info.flags & kTVMFFIFieldFlagBitMaskHasDefault) {
      default_value = Any(AnyView::FromRaw(info.default_value_or_factory));
    }
    Any setter_fn;
    if (info.flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) {
      if (info.setter == nullptr) {
        TVM_FFI_IMPL_THROW(ValueError) << "field " << Quote(name)
                                 << " says its setter is a Function but the setter is NULL";
      }
      TVMFFIAny view;
      std::memset(&view, 0, sizeof(view));
      view.type_index = static_cast<TVMFFIObject*>(info.setter)->type_index;
      view.v_obj = static_cast<TVMFFIObject*>(info.setter);
      setter_fn = Any(AnyView::FromRaw(view));
    }

    std::lock_guard<std::mutex> lock(mu_);
    TypeEntry* e = Require(type_index);
    if (name.empty()) {
      TVM_FFI_IMPL_THROW(ValueError) << "field of type " << Quote(e->key) << " has an empty name";
    }
    for (size_t i = 0; i < e->fields.size(); ++i) {
      if (ToStdString(e->fields.data()[i].name) == name) {
        TVM_FFI_IMPL_THROW(InternalError) << "type " << Quote(e->key) << " already has a field "
                                    << Quote(name);
      }
    }
    TVMFFIFieldInfo copy = info;
    e->KeepTexts(&copy);
    std::memset(&copy.default_value_or_factory, 0, sizeof(TVMFFIAny));
    if (!default_value.is_none()) {
      copy.default_value_or_factory = e->Retain(std::move(default_value));
    }
    if (info.flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) {
      copy.setter = e->Retain(std::move(setter_fn)).v_obj;
    }
    TVMFFIFieldInfo* fields = e->fields.Append(copy);
    PublishArray(const_cast<TVMFFIFieldInfo**>(&e->info.fields), &e->info.num_fields, fields,
                 e->fields.size());
  }

  void RegisterMethod(int32_t type_index, const TVMFFIMethodInfo& info) {
    std::string name = CheckedName(info, "method");
    if (info.method.type_index != kTVMFFIFunction) {
      TVM_FFI_IMPL_THROW(TypeError) << "method " << Quote(name) << " must be a Function, got "
                              << TypeIndexToDisplayName(info.method.type_index);
    }
    Any method = Any(AnyView::FromRaw(info.method));

    std::lock_guard<std::mutex> lock(mu_);
    TypeEntry* e = Require(type_index);
    if (name.empty()) {
      TVM_FFI_IMPL_THROW(ValueError) << "method of type " << Quote(e->key) << " has an empty name";
    }
    TVMFFIMethodInfo copy = info;
    e->KeepTexts(&copy);
    copy.method = e->Retain(std::move(method));
    TVMFFIMethodInfo* methods = e->methods.Append(copy);
    PublishArray(const_cast<TVMFFIMethodInfo**>(&e->info.methods), &e->info.num_methods, methods,
                 e->methods.size());
  }

  void RegisterMetadata(int32_t type_index, const TVMFFITypeMetadata& metadata) {
    CheckByteArray(metadata.doc, "metadata doc");
    std::lock_guard<std::mutex> lock(mu_);
    TypeEntry* e = Require(type_index);
    if (e->metadata) {
      TVM_FFI_IMPL_THROW(RuntimeError) << "metadata of type " << Quote(e->key)
                                 << " is already registered";
    }
    e->metadata.reset(new TVMFFITypeMetadata(metadata));
    e->metadata->doc = e->Keep(metadata.doc);
    __atomic_store_n(const_cast<TVMFFITypeMetadata**>(&e->info.metadata), e->metadata.get(),
                     __ATOMIC_RELEASE);
  }

  void RegisterAttr(int32_t type_index, const std::string& name, const TVMFFIAny& value) {
    if (name.empty()) TVM_FFI_IMPL_THROW(ValueError) << "type attribute name must not be empty";
    if (type_index < 0) {
      TVM_FFI_IMPL_THROW(ValueError) << "invalid type index " << type_index << " for type attribute "
                               << Quote(name);
    }
    Any owned;
    if (type_index != kTVMFFINone) owned = Any(AnyView::FromRaw(value));
    Any old;  // released after the lock: its deleter may call back in here

    std::lock_guard<std::mutex> lock(mu_);
    TypeEntry* e = Require(type_index);
    AttrColumn* col = EnsureColumn(name);
    if (type_index == kTVMFFINone) return;
    size_t published = static_cast<size_t>(col->column.size);
    TVMFFIAny* data = col->storage.Resize(static_cast<size_t>(type_index) + 1);
    TVMFFIAny& slot = data[type_index];
    if (slot.type_index != kTVMFFINone && !owned.is_none()) {
      TVM_FFI_IMPL_THROW(RuntimeError) << "type attribute " << Quote(name)
                                 << " is already registered for type " << Quote(e->key);
    }
    old = Any::Adopt(slot);
    TVMFFIAny stored = owned.Release();
    if (static_cast<size_t>(type_index) >= published) {
      // A slot no reader can see yet: fill it, then publish.
      slot = stored;
    } else {
      // A published slot: the payload first, then the type index with
      // release order, so a reader that loads the type index with acquire
      // order sees a whole value (or the previous None).
      __atomic_store_n(&slot.v_int64, stored.v_int64, __ATOMIC_RELAXED);
      __atomic_store_n(&slot.zero_padding, stored.zero_padding, __ATOMIC_RELAXED);
      __atomic_store_n(&slot.type_index, stored.type_index, __ATOMIC_RELEASE);
    }
    // The same pointer and size again when nothing grew: harmless.
    PublishArray(const_cast<TVMFFIAny**>(&col->column.data), &col->column.size, data,
                 col->storage.size());
  }

  const TVMFFITypeAttrColumn* GetAttrColumn(const std::string& name) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = columns_.find(name);
    return it == columns_.end() ? nullptr : &it->second->column;
  }

 private:
  Registry() {
    for (auto& c : chunks_) c.store(nullptr, std::memory_order_relaxed);
    static const char* const kPodKeys[] = {
        "None",        "int",           "bool",      "float",
        "void*",       "DataType",      "Device",    "DLTensor*",
        "const char*", "TVMFFIByteArray*", "ObjectRValueRef", "ffi.SmallStr",
        "ffi.SmallBytes", "ffi.Unchanged"};
    for (int32_t i = 0; i <= kTVMFFIUnchanged; ++i) {
      GetOrAllocIndex(kPodKeys[i], i, 0, 0, true, -1);
    }
    GetOrAllocIndex("ffi.Object", kTVMFFIObject, 0, 0, true, -1);
    static const char* const kStaticObjectKeys[] = {
        "ffi.String", "ffi.Bytes",  "ffi.Error",          "ffi.Function",
        "ffi.Shape",  "ffi.Tensor", "ffi.Array",          "ffi.Map",
        "ffi.Module", "ffi.OpaquePyObject", "ffi.List",   "ffi.Dict",
        "ffi.VisitInterrupt", "ffi.BigInt"};
    for (int32_t i = kTVMFFIStr; i <= kTVMFFIBigInt; ++i) {
      GetOrAllocIndex(kStaticObjectKeys[i - kTVMFFIStr], i, 1, 0, false, kTVMFFIObject);
    }
    TVMFFITypeMetadata object_meta;
    std::memset(&object_meta, 0, sizeof(object_meta));
    object_meta.total_size = sizeof(TVMFFIObject);
    object_meta.structural_eq_hash_kind = kTVMFFISEqHashKindUnsupported;
    RegisterMetadata(kTVMFFIObject, object_meta);
    for (const char* name : {"__any_hash__", "__any_equal__", "__ffi_enum__"}) {
      std::lock_guard<std::mutex> lock(mu_);
      EnsureColumn(name);
    }
  }

  // Requires mu_.  Throws RuntimeError if any of [index, index + count) is taken.
  void CheckFree(int32_t index, int64_t count, const std::string& key) const {
    for (int64_t i = index; i < index + count; ++i) {
      TypeEntry* other = Lookup(static_cast<int32_t>(i));
      if (other != nullptr) {
        TVM_FFI_IMPL_THROW(RuntimeError) << "cannot register type " << Quote(key) << ": type index "
                                   << i << " is already taken by " << Quote(other->key);
      }
    }
  }

  // Requires mu_.
  void Publish(int32_t index, TypeEntry* e) {
    std::atomic<std::atomic<TypeEntry*>*>& slot = chunks_[index >> kChunkBits];
    std::atomic<TypeEntry*>* chunk = slot.load(std::memory_order_relaxed);
    if (chunk == nullptr) {
      chunk = new std::atomic<TypeEntry*>[kChunkSize];
      for (int32_t i = 0; i < kChunkSize; ++i) chunk[i].store(nullptr, std::memory_order_relaxed);
      slot.store(chunk, std::memory_order_release);
    }
    chunk[index & (kChunkSize - 1)].store(e, std::memory_order_release);
  }

  // Requires mu_.
  AttrColumn* EnsureColumn(const std::string& name) {
    std::unique_ptr<AttrColumn>& col = columns_[name];
    if (!col) {
      col.reset(new AttrColumn());
      col->column.data = nullptr;
      col->column.size = 0;
      col->column.begin_index = 0;
    }
    return col.get();
  }

  std::mutex mu_;
  // Lock-free reads; writes under mu_.  Chunks are allocated on first use and
  // never freed.
  std::atomic<std::atomic<TypeEntry*>*> chunks_[kNumChunks];
  std::unordered_map<std::string, int32_t> key_to_index_;          // under mu_
  std::unordered_map<std::string, std::unique_ptr<AttrColumn>> columns_;  // under mu_
  int64_t next_dynamic_ = kTVMFFIDynObjectBegin;                     // under mu_
};

}  // namespace

int32_t GetOrAllocIndex(const std::string& key, int32_t static_index, int32_t depth,
                        int32_t num_child_slots, bool can_overflow, int32_t parent_index) {
  return Registry::Global().GetOrAllocIndex(key, static_index, depth, num_child_slots,
                                            can_overflow, parent_index);
}

const TVMFFITypeInfo* GetTypeInfo(int32_t type_index) noexcept {
  TypeEntry* e = Registry::Global().Lookup(type_index);
  return e == nullptr ? nullptr : &e->info;
}

std::optional<int32_t> KeyToIndex(const std::string& key) {
  return Registry::Global().KeyToIndex(key);
}

bool IsUsableDynamicValue(const TVMFFIAny& v) noexcept {
  if (GetTypeInfo(v.type_index) == nullptr) return false;
  return v.type_index < kTVMFFIStaticObjectBegin || v.v_obj != nullptr;
}

void ThrowUnusableValue(const TVMFFIAny& v, const std::string& what) {
  const TVMFFITypeInfo* info = GetTypeInfo(v.type_index);
  if (info == nullptr) {
    TVM_FFI_IMPL_THROW(ValueError) << what << " has unknown type index " << v.type_index;
  }
  TVM_FFI_IMPL_THROW(ValueError) << what << " is a value of type index " << v.type_index << " ("
                           << ToStdString(info->type_key) << ") with a NULL object pointer";
}

std::vector<std::string> ListTypeKeys() { return Registry::Global().ListTypeKeys(); }

void RegisterField(int32_t type_index, const TVMFFIFieldInfo& info) {
  Registry::Global().RegisterField(type_index, info);
}

void RegisterMethod(int32_t type_index, const TVMFFIMethodInfo& info) {
  Registry::Global().RegisterMethod(type_index, info);
}

void RegisterMetadata(int32_t type_index, const TVMFFITypeMetadata& metadata) {
  Registry::Global().RegisterMetadata(type_index, metadata);
}

void RegisterAttr(int32_t type_index, const std::string& name, const TVMFFIAny& value) {
  Registry::Global().RegisterAttr(type_index, name, value);
}

const TVMFFITypeAttrColumn* GetAttrColumn(const std::string& name) noexcept {
  try {
    return Registry::Global().GetAttrColumn(name);
  } catch (...) {
    return nullptr;
  }
}

}  // namespace type_registry
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm
