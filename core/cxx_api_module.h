// tvm::ffi::ModuleObj and tvm::ffi::Module as upstream's
// tvm/ffi/extra/module.h lays them out, for the symbols libtvm_ffi.so
// exports under their names (vtable, typeinfo, the out-of-line members).
// Library-internal.
//
// INTERIM: upstream's ModuleObj holds an Array<Any> and a
// Map<String, Function>, and tvm/ffi/container/array.h, map.h are not in
// this tree yet, so the public header tvm/ffi/extra/module.h cannot be
// written.  Until it is, this class stands in for it with the same binary
// shape: both members are one object pointer (ObjectRef here), the virtual
// functions are upstream's in upstream's order, and no return type that
// differs (GetWriteFormats' Array<String>) changes how the call is made.
// When the containers land, tvm/ffi/extra/module.h replaces this file and
// core/cxx_api_module.cc includes it instead.
//
// Layout (x86-64 Itanium ABI): vptr @0, the TVMFFIObject header @8,
// imports_ @32 (the handle + 24, where the runtime's reflected field
// `imports_` reads it), import_lookup_cache_ @40.
#ifndef TVMFFI_CORE_CXX_API_MODULE_H_
#define TVMFFI_CORE_CXX_API_MODULE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <cstdint>

namespace tvm {
namespace ffi {

class Module;

class TVM_FFI_EXTRA_CXX_API ModuleObj : public Object {
 public:
  virtual const char* kind() const = 0;
  virtual int GetPropertyMask() const;
  virtual Optional<Function> GetFunction(const String& name) = 0;
  virtual bool ImplementsFunction(const String& name);
  virtual Optional<String> GetFunctionDoc(const String& name);
  virtual Optional<String> GetFunctionMetadata(const String& name);
  virtual void WriteToFile(const String& file_name, const String& format) const;
  // Upstream: Array<String>.
  virtual ObjectRef GetWriteFormats() const;
  virtual Bytes SaveToBytes() const;
  virtual String InspectSource(const String& format) const;
  virtual void ImportModule(const Module& other);
  virtual void ClearImports();

  Optional<Function> GetFunction(const String& name, bool query_imports);
  bool ImplementsFunction(const String& name, bool query_imports);
  Optional<String> GetFunctionDoc(const String& name, bool query_imports);
  Optional<String> GetFunctionMetadata(const String& name, bool query_imports);

  static constexpr int32_t _type_index = TypeIndex::kTVMFFIModule;
  static constexpr bool _type_mutable = true;
  static constexpr bool _type_final = true;
  static constexpr int32_t _type_depth = Object::_type_depth + 1;
  static constexpr const char* _type_key = StaticTypeKey::kTVMFFIModule;
  // The static local's name is part of the exported symbol.
  TVM_FFI_COLD_CODE static int32_t _GetOrAllocRuntimeTypeIndex() {
    static int32_t tindex = detail::RegisterObjectType<ModuleObj>(
        _type_index, Object::_GetOrAllocRuntimeTypeIndex());
    return tindex;
  }
  TVM_FFI_INLINE static int32_t RuntimeTypeIndex() noexcept { return _type_index; }

 protected:
  // Upstream: Array<Any>; elements are Module references.  May be null (no imports).
  ObjectRef imports_;

 private:
  // Upstream: Map<String, Function>, a cache of import lookups.  Unused here.
  ObjectRef import_lookup_cache_;
};

class Module : public ObjectRef {
 public:
  explicit Module(ObjectPtr<ModuleObj> ptr) : ObjectRef(std::move(ptr)) {}
  TVM_FFI_EXTRA_CXX_API static Module LoadFromFile(const String& file_name);
  TVM_FFI_EXTRA_CXX_API static void VisitContextSymbols(
      const TypedFunction<void(String, void*)>& callback);
  ModuleObj* operator->() const { return static_cast<ModuleObj*>(data_.get()); }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVMFFI_CORE_CXX_API_MODULE_H_
