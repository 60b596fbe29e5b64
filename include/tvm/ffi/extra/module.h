/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/extra/module.h
 * \brief ModuleObj (the ffi.Module base class a library subclasses to offer
 *        functions by name) and Module, its reference.
 *
 * Layout (C++ ABI, x86-64 Itanium): vptr @0, the TVMFFIObject header @8,
 * imports_ @32 (the handle + 24, where the runtime's reflected field
 * `imports_` reads it), import_lookup_cache_ @40.  The twelve virtual
 * functions are in upstream's order; the vtable, the typeinfo, ImportModule,
 * ClearImports, the lookups that search the imports, Module::LoadFromFile and
 * Module::VisitContextSymbols live in libtvm_ffi (core/cxx_api_module.cc),
 * so a subclass compiled against this header or against upstream's runs
 * on either runtime.
 */
#ifndef TVM_FFI_EXTRA_MODULE_H_
#define TVM_FFI_EXTRA_MODULE_H_

#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/function.h>

#include <cstdint>

namespace tvm {
namespace ffi {

/*! \brief The whole symbol names a module library may export. */
namespace symbol {
/*! \brief Modules serialized into the library, loaded with it. */
constexpr const char* tvm_ffi_library_bin = "__tvm_ffi__library_bin";
/*! \brief Pointer slot the loader fills with the library's context. */
constexpr const char* tvm_ffi_library_ctx = "__tvm_ffi__library_ctx";
/*! \brief The function called when a library module is used as a callable. */
constexpr const char* tvm_ffi_main = "__tvm_ffi_main";
}  // namespace symbol

class Module;

/*!
 * \brief A named collection of functions, possibly importing other modules.
 *
 * A subclass gives kind() and GetFunction(name); the rest have defaults.
 * The two-argument lookups search this module first, then its imports
 * depth first.
 */
class TVM_FFI_EXTRA_CXX_API ModuleObj : public Object {
 public:
  /// \cond Doxygen_Suppress
  // The library's own access to the private members (core/cxx_api_module.cc).
  struct InternalUnsafe;
  friend struct InternalUnsafe;
  /// \endcond

  /*! \brief The kind of module ("library", ...): names it in errors. */
  virtual const char* kind() const = 0;
  /*! \brief Module::ModulePropertyMask bits (none by default). */
  virtual int GetPropertyMask() const { return 0; }
  // Each lookup comes in two forms: the virtual one asks this module alone;
  // the one with query_imports also searches the imports, depth first.  The
  // two-argument forms are not virtual, so the vtable order is unchanged.

  /*! \brief The function `name` of this module alone, or nullopt. */
  virtual Optional<Function> GetFunction(const String& name) = 0;
  Optional<Function> GetFunction(const String& name, bool query_imports);
  /*! \brief Whether this module alone has `name` (by default: GetFunction finds it). */
  virtual bool ImplementsFunction(const String& name) {
    Optional<Function> found = GetFunction(name);
    return found.has_value();
  }
  bool ImplementsFunction(const String& name, bool query_imports);
  /*! \brief The documentation of `name` (none by default). */
  virtual Optional<String> GetFunctionDoc(const String& /*name*/) { return std::nullopt; }
  Optional<String> GetFunctionDoc(const String& name, bool query_imports);
  /*! \brief The metadata (JSON) of `name` (none by default). */
  virtual Optional<String> GetFunctionMetadata(const String& /*name*/) { return std::nullopt; }
  Optional<String> GetFunctionMetadata(const String& name, bool query_imports);

  /*! \brief Saves the module; by default a RuntimeError naming the kind. */
  virtual void WriteToFile(const String& /*file_name*/, const String& /*format*/) const {
    TVM_FFI_THROW(RuntimeError) << "Module[" << kind() << "] does not support WriteToFile";
  }
  /*! \brief The formats WriteToFile takes (none by default). */
  virtual Array<String> GetWriteFormats() const { return Array<String>(); }
  /*! \brief The module as bytes; by default a RuntimeError naming the kind. */
  virtual Bytes SaveToBytes() const {
    TVM_FFI_THROW(RuntimeError) << "Module[" << kind() << "] does not support SaveToBytes";
    TVM_FFI_UNREACHABLE();
  }
  /*! \brief Source text in `format` (empty by default). */
  virtual String InspectSource(const String& /*format*/) const { return String(); }
  /*! \brief Adds `other` to the imports; RuntimeError when that makes a cycle. */
  virtual void ImportModule(const Module& other);
  /*! \brief Drops every import. */
  virtual void ClearImports();

  /*! \brief The imported modules (each element a Module). */
  const Array<Any>& imports() const { return imports_; }

  /// \cond Doxygen_Suppress
  static constexpr int32_t _type_index = TypeIndex::kTVMFFIModule;
  static constexpr bool _type_mutable = true;
  static constexpr bool _type_final = true;
  static constexpr int32_t _type_depth = Object::_type_depth + 1;
  static constexpr const char* _type_key = StaticTypeKey::kTVMFFIModule;
  // Out of line in libtvm_ffi: the static local's name is part of an
  // exported symbol both runtimes share.
  TVM_FFI_COLD_CODE static int32_t _GetOrAllocRuntimeTypeIndex() {
    static int32_t tindex = detail::RegisterObjectType<ModuleObj>(
        _type_index, Object::_GetOrAllocRuntimeTypeIndex());
    return tindex;
  }
  TVM_FFI_INLINE static int32_t RuntimeTypeIndex() noexcept { return _type_index; }
  /// \endcond

 protected:
  /*! \brief The imported modules; a subclass may append to it directly. */
  Array<Any> imports_;

 private:
  // TVMFFIEnvModLookupFromImports' cache when this module is a library's
  // context module (filled by the library, under one process-wide lock).
  Map<String, Function> import_lookup_cache_;
};

/*!
 * \brief The names a module library exports (all start with "__tvm_ffi_"):
 *        the prefixes, each followed by a function's name.
 */
namespace symbol {
/*! \brief Start of every exported function name; the rest is the function's name. */
constexpr const char* tvm_ffi_symbol_prefix = "__tvm_ffi_";
/*! \brief Start of the symbol describing function <name> (its type schema). */
constexpr const char* tvm_ffi_metadata_prefix = "__tvm_ffi__metadata_";
/*! \brief Start of the symbol holding function <name>'s doc string. */
constexpr const char* tvm_ffi_doc_prefix = "__tvm_ffi__doc_";
}  // namespace symbol

/*! \brief A reference to a ModuleObj (never null). */
class Module : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Module, ObjectRef, ModuleObj);

  /*! \brief Wraps `ptr`; a null pointer is an InternalError. */
  explicit Module(const ObjectPtr<ModuleObj>& ptr) : ObjectRef(ptr) {
    TVM_FFI_ICHECK(ptr != nullptr);
  }

  /*! \brief Bits of ModuleObj::GetPropertyMask: what a module can do. */
  enum ModulePropertyMask : int {
    kBinarySerializable = 1 << 0,
    kRunnable = 1 << 1,
    kCompilationExportable = 1 << 2,
  };

  /*! \brief Visits each (name, address) context symbol the runtime knows. */
  TVM_FFI_EXTRA_CXX_API static void VisitContextSymbols(
      const ffi::TypedFunction<void(String, void*)>& callback);
  /*! \brief Opens a shared library as a module (through ffi.ModuleLoadFromFile). */
  TVM_FFI_EXTRA_CXX_API static Module LoadFromFile(const String& file_name);
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_MODULE_H_
