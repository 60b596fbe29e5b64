/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/device.h
 * \brief DLDevice in an Any (kTVMFFIDevice), and parsing "cuda:1"-style names.
 *
 * The DLPack types come from tvm/ffi/c_api.h, which defines them unless the
 * official dlpack/dlpack.h was included first.
 */
#ifndef TVM_FFI_DEVICE_H_
#define TVM_FFI_DEVICE_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/type_traits.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace tvm {
namespace ffi {
namespace detail {

/*! \brief The device type a name stands for ("cpu", "cuda", "metal" or "mps", ...). */
TVM_FFI_INLINE std::optional<DLDeviceType> TryParseDLDeviceType(std::string_view name) {
  struct Entry {
    const char* name;
    DLDeviceType type;
  };
  static constexpr Entry kNames[] = {
      {"cpu", kDLCPU},         {"cuda", kDLCUDA},     {"opencl", kDLOpenCL},
      {"vulkan", kDLVulkan},   {"metal", kDLMetal},   {"mps", kDLMetal},
      {"vpi", kDLVPI},         {"rocm", kDLROCM},     {"ext_dev", kDLExtDev},
      {"hexagon", kDLHexagon}, {"wgpu", kDLWebGPU},   {"webgpu", kDLWebGPU},
      {"maia", kDLMAIA},       {"trn", kDLTrn},
  };
  for (const Entry& entry : kNames) {
    if (name == entry.name) return entry.type;
  }
  return std::nullopt;
}

/*! \brief A device index: decimal digits only, at most INT32_MAX. */
TVM_FFI_INLINE std::optional<int32_t> TryParseDLDeviceIndex(std::string_view text) {
  if (text.empty()) return std::nullopt;
  int64_t value = 0;
  for (char ch : text) {
    if (ch < '0' || ch > '9') return std::nullopt;
    value = value * 10 + (ch - '0');
    if (value > std::numeric_limits<int32_t>::max()) return std::nullopt;
  }
  return static_cast<int32_t>(value);
}

/*!
 * \brief "name" or "name:index" (index 0 when omitted); anything after the
 *        first space is ignored.  Unknown names, empty or non-numeric
 *        indices and a second ':' give std::nullopt.
 */
TVM_FFI_INLINE std::optional<DLDevice> TryStringViewToDLDevice(std::string_view str) {
  str = str.substr(0, str.find(' '));
  size_t colon = str.find(':');
  std::optional<DLDeviceType> type = TryParseDLDeviceType(str.substr(0, colon));
  if (!type.has_value()) return std::nullopt;
  if (colon == std::string_view::npos) return DLDevice{*type, 0};
  std::optional<int32_t> index = TryParseDLDeviceIndex(str.substr(colon + 1));
  if (!index.has_value()) return std::nullopt;
  return DLDevice{*type, *index};
}

}  // namespace detail

/*! \brief DLDevice: kTVMFFIDevice; a string such as "cuda:1" converts. */
template <>
struct TypeTraits<DLDevice>
    : public detail::PodTraitsBase<TypeTraits<DLDevice>, DLDevice, TypeIndex::kTVMFFIDevice,
                                   &StaticTypeKey::kTVMFFIDevice> {
  TVM_FFI_INLINE static void CopyToAnyView(const DLDevice& src, TVMFFIAny* result) {
    detail::ResetAnyPod(result, TypeIndex::kTVMFFIDevice);
    result->v_device = src;
  }
  TVM_FFI_INLINE static DLDevice CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return src->v_device;
  }
  TVM_FFI_INLINE static std::optional<DLDevice> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIDevice) return src->v_device;
    std::optional<String> text = TypeTraits<String>::TryCastFromAnyView(src);
    if (!text.has_value()) return std::nullopt;
    return detail::TryStringViewToDLDevice(std::string_view(text->data(), text->size()));
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_DEVICE_H_
