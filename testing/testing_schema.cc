// testing.schema_*: typed global functions whose metadata records their type
// schema (the names upstream's testing library uses for the same purpose).
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/device.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <string>

#include "testing_util.h"

namespace tvm {
namespace ffi {
namespace testing {
namespace {

namespace refl = tvm::ffi::reflection;

TVM_FFI_STATIC_INIT_BLOCK() {
  // schema_id_int's metadata also carries attributes of each JSON kind
  // (bool_attr, int_attr, str_attr), as upstream's does.
  refl::GlobalDef()
      .def("testing.schema_id_int", [](int64_t x) { return x; },
           refl::Metadata({{"bool_attr", true}, {"int_attr", 1}, {"str_attr", "hello"}}))
      .def("testing.schema_id_float", [](double x) { return x; })
      .def("testing.schema_id_bool", [](bool x) { return x; })
      .def("testing.schema_id_device", [](DLDevice x) { return x; })
      .def("testing.schema_id_dtype", [](DLDataType x) { return x; })
      .def("testing.schema_id_string", [](String x) { return x; })
      .def("testing.schema_id_bytes", [](Bytes x) { return x; })
      .def("testing.schema_id_func", [](Function x) { return x; })
      .def("testing.schema_id_any", [](Any x) { return x; })
      .def("testing.schema_id_object", [](ObjectRef x) { return x; })
      // A DLTensor* result cannot be owned by the caller (calling this is a
      // RuntimeError); the function is here for its schema, as upstream's is.
      .def("testing.schema_id_dltensor", [](DLTensor* x) { return x; })
      .def("testing.schema_id_tensor", [](Tensor x) { return x; })
      .def("testing.schema_id_opt_int", [](Optional<int64_t> x) { return x; })
      .def("testing.schema_id_opt_str", [](Optional<String> x) { return x; })
      .def("testing.schema_id_opt_obj", [](Optional<ObjectRef> x) { return x; })
      .def("testing.schema_id_arr_int", [](Array<int64_t> x) { return x; })
      .def("testing.schema_id_arr_obj", [](Array<ObjectRef> x) { return x; })
      .def("testing.schema_id_arr_str", [](Array<String> x) { return x; });
  DefGlobalWithBareContainers("testing.schema_id_arr", [](Array<Any> x) { return x; });
  DefGlobalWithBareContainers("testing.schema_id_list", [](List<Any> x) { return x; });
  DefGlobalWithBareContainers("testing.schema_id_map", [](Map<Any, Any> x) { return x; });
  DefGlobalWithBareContainers("testing.schema_id_dict", [](Dict<Any, Any> x) { return x; });
  // Upstream's typed fixtures of the same names (containers of given element
  // types, Variant, a typed function, a tensor view): identities unless noted.
  refl::GlobalDef()
      .def("testing.schema_id_func_typed",
           [](TypedFunction<void(int64_t, double, Function)> f) { return f; })
      .def("testing.schema_tensor_view_input", [](TensorView) {})
      .def("testing.schema_id_list_int", [](List<int64_t> x) { return x; })
      .def("testing.schema_id_list_str", [](List<String> x) { return x; })
      .def("testing.schema_id_list_obj", [](List<ObjectRef> x) { return x; })
      .def("testing.schema_id_map_str_int", [](Map<String, int64_t> x) { return x; })
      .def("testing.schema_id_map_str_str", [](Map<String, String> x) { return x; })
      .def("testing.schema_id_map_str_obj", [](Map<String, ObjectRef> x) { return x; })
      .def("testing.schema_id_dict_str_int", [](Dict<String, int64_t> x) { return x; })
      .def("testing.schema_id_dict_str_str", [](Dict<String, String> x) { return x; })
      .def("testing.schema_id_variant_int_str", [](Variant<int64_t, String> x) { return x; })
      .def("testing.schema_variant_mix",
           [](Variant<int64_t, String, Array<int64_t>> x) { return x; })
      // The pairs of `m`, and when `key` is given, key -> the ints of `arr`
      // that are not None: ([1, None], {"k": [1, 2]}, "s") -> {"k": [1, 2], "s": [1]}.
      .def("testing.schema_arr_map_opt",
           [](Array<Optional<int64_t>> arr, Map<String, Array<int64_t>> m, Optional<String> key) {
             Map<String, Array<int64_t>> out;
             for (const auto& kv : m) out.Set(kv.first, kv.second);
             if (key.has_value()) {
               Array<int64_t> present;
               for (const Optional<int64_t>& v : arr) {
                 if (v.has_value()) present.push_back(*v);
               }
               out.Set(*key, present);
             }
             return out;
           });
  refl::GlobalDef()
      .def("testing.schema_arr_opt",
           [](Array<Optional<int64_t>> x, const std::string& s) {
             return static_cast<int64_t>(x.size() + s.size());
           })
      .def("testing.schema_no_args", []() { return int64_t(1); })
      .def("testing.schema_no_return", [](int64_t) {})
      .def("testing.schema_no_args_no_return", []() {})
      .def_packed("testing.schema_packed", [](PackedArgs, Any*) {})
      // The metadata text of field or method `name` of the type `type_key`
      // (its own members only); KeyError when there is no such member.
      .def("testing.reflected_member_metadata",
           [](const std::string& type_key, const std::string& name) -> String {
             TVMFFIByteArray key{type_key.data(), type_key.size()};
             int32_t index = -1;
             TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeKeyToIndex(&key, &index));
             const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
             if (info == nullptr) ThrowRaised();
             auto text = [](const TVMFFIByteArray& b) {
               return String(std::string(b.data, b.size));
             };
             for (int32_t i = 0; i < info->num_fields; ++i) {
               const TVMFFIFieldInfo& f = info->fields[i];
               if (std::string(f.name.data, f.name.size) == name) return text(f.metadata);
             }
             for (int32_t i = 0; i < info->num_methods; ++i) {
               const TVMFFIMethodInfo& m = info->methods[i];
               if (std::string(m.name.data, m.name.size) == name) return text(m.metadata);
             }
             TVM_FFI_THROW(KeyError) << type_key << " has no member " << name;
             TVM_FFI_UNREACHABLE();
           });
}

}  // namespace
}  // namespace testing
}  // namespace ffi
}  // namespace tvm
