// testing.schema_*: typed global functions whose metadata records their type
// schema (the names upstream's testing library uses for the same purpose).
#include <optional>
#include <string>

#include <tvmffi/array.h>
#include <tvmffi/dict.h>
#include <tvmffi/list.h>
#include <tvmffi/map.h>
#include <tvmffi/reflection.h>
#include <tvmffi/tensor.h>

namespace tvmffi {
namespace core {
namespace {

// schema_id_int's metadata also carries attributes of each JSON kind
// (bool_attr, int_attr, str_attr), as upstream's does.
int64_t SchemaIdInt(int64_t x) { return x; }
const bool kSchemaIdIntRegistered = RunAtLoad([] {
  std::string metadata = detail::TypedMetadata<decltype(&SchemaIdInt)>();
  metadata.pop_back();  // the closing brace of the JSON object
  metadata += ",\"bool_attr\":true,\"int_attr\":1,\"str_attr\":\"hello\"}";
  Function::SetGlobal("testing.schema_id_int",
                      Function::FromTyped(&SchemaIdInt, "testing.schema_id_int"), false, "",
                      metadata);
});
TVMFFI_REGISTER_GLOBAL("testing.schema_id_float", [](double x) { return x; });
TVMFFI_REGISTER_GLOBAL("testing.schema_id_bool", [](bool x) { return x; });
TVMFFI_REGISTER_GLOBAL("testing.schema_id_device", [](DLDevice x) { return x; });
TVMFFI_REGISTER_GLOBAL("testing.schema_id_dtype", [](DLDataType x) { return x; });
TVMFFI_REGISTER_GLOBAL("testing.schema_id_string", [](String x) { return x; });
TVMFFI_REGISTER_GLOBAL("testing.schema_id_bytes", [](Bytes x) { return x; });
TVMFFI_REGISTER_GLOBAL("testing.schema_id_func", [](Function x) { return x; });
TVMFFI_REGISTER_GLOBAL("testing.schema_id_any", [](Any x) { return x; });
TVMFFI_REGISTER_GLOBAL("testing.schema_id_object", [](ObjectRef x) { return x; });
TVMFFI_REGISTER_GLOBAL("testing.schema_id_dltensor", [](DLTensor* x) { return int64_t(x->ndim); });
TVMFFI_REGISTER_GLOBAL("testing.schema_id_tensor", [](Tensor x) { return x; });
TVMFFI_REGISTER_GLOBAL("testing.schema_id_opt_int",
                       [](std::optional<int64_t> x) { return x; });
TVMFFI_REGISTER_GLOBAL("testing.schema_id_opt_str", [](std::optional<String> x) { return x; });
TVMFFI_REGISTER_GLOBAL("testing.schema_id_opt_obj",
                       [](std::optional<ObjectRef> x) { return x; });
TVMFFI_REGISTER_GLOBAL("testing.schema_id_arr_int", [](Array<int64_t> x) { return x; });
TVMFFI_REGISTER_GLOBAL("testing.schema_id_arr_obj", [](Array<ObjectRef> x) { return x; });
TVMFFI_REGISTER_GLOBAL("testing.schema_id_arr_str", [](Array<String> x) { return x; });
TVMFFI_REGISTER_GLOBAL("testing.schema_id_arr", [](Array<Any> x) { return x; });
TVMFFI_REGISTER_GLOBAL("testing.schema_id_list", [](List x) { return x; });
TVMFFI_REGISTER_GLOBAL("testing.schema_id_map", [](Map x) { return x; });
TVMFFI_REGISTER_GLOBAL("testing.schema_id_dict", [](Dict x) { return x; });
TVMFFI_REGISTER_GLOBAL("testing.schema_arr_opt", [](Array<std::optional<int64_t>> x,
                                                    const std::string& s) {
  return static_cast<int64_t>(x.size() + s.size());
});
TVMFFI_REGISTER_GLOBAL("testing.schema_no_args", []() { return int64_t(1); });
TVMFFI_REGISTER_GLOBAL("testing.schema_no_return", [](int64_t) {});
TVMFFI_REGISTER_GLOBAL("testing.schema_no_args_no_return", []() {});
TVMFFI_REGISTER_GLOBAL_PACKED("testing.schema_packed",
                              [](const AnyView*, int32_t, Any*) {});

// The metadata text of field or method `name` of the type `type_key` (its own
// members only); KeyError when there is no such member.
TVMFFI_REGISTER_GLOBAL("testing.reflected_member_metadata",
                       [](const std::string& type_key, const std::string& name) -> String {
                         TVMFFIByteArray key = ToByteArray(type_key);
                         int32_t index = -1;
                         if (TVMFFITypeKeyToIndex(&key, &index) != 0) ThrowRaised(-1);
                         const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
                         if (info == nullptr) ThrowRaised(-1);
                         auto text = [](const TVMFFIByteArray& b) {
                           return String(std::string(b.data, b.size));
                         };
                         for (int32_t i = 0; i < info->num_fields; ++i) {
                           const TVMFFIFieldInfo& f = info->fields[i];
                           if (std::string(f.name.data, f.name.size) == name) {
                             return text(f.metadata);
                           }
                         }
                         for (int32_t i = 0; i < info->num_methods; ++i) {
                           const TVMFFIMethodInfo& m = info->methods[i];
                           if (std::string(m.name.data, m.name.size) == name) {
                             return text(m.metadata);
                           }
                         }
                         TVMFFI_THROW(KeyError) << type_key << " has no member " << name;
                         return String();  // not reached: the builder throws
                       });

}  // namespace
}  // namespace core
}  // namespace tvmffi
