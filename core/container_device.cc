// ffi.ContainerFindFirstNonCPUDevice: the first non-CPU tensor device in containers.
//
// The Python binding uses it to pick the stream for a call that passes
// tensors inside containers.
#include <unordered_set>
#include <vector>

#include "impl/array.h"
#include "impl/function.h"
#include "impl/map.h"
#include "structural.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace impl {
namespace {

// Depth-first, in element (and key, value) order.  `seen` breaks cycles
// through Lists and Dicts that contain themselves; `active` (the containers
// of the current path) bounds the depth as every walk is bounded (TooDeep:
// a RecursionError, not a stack overflow).
bool FindNonCPU(const TVMFFIAny& v, std::unordered_set<const void*>* seen,
                std::vector<const Object*>* active, DLDevice* out);

bool FindNonCPUInContainer(const TVMFFIAny& v, std::unordered_set<const void*>* seen,
                           std::vector<const Object*>* active, DLDevice* out) {
  if (!seen->insert(v.v_obj).second) return false;
  if (TooDeep(active->size())) {
    ThrowTooDeep("ffi.ContainerFindFirstNonCPUDevice", active->data(), active->size());
  }
  active->push_back(Object::FromHandle(v.v_obj));
  bool found = false;
  if (v.type_index == kTVMFFIArray || v.type_index == kTVMFFIList) {
    const TVMFFISeqCell* cell = TVMFFISeqGetCellPtr(v.v_obj);
    const TVMFFIAny* elems = static_cast<const TVMFFIAny*>(cell->data);
    for (int64_t i = 0; i < cell->size && !found; ++i) {
      found = FindNonCPU(elems[i], seen, active, out);
    }
  } else {
    const MapBaseObj* map = static_cast<const MapBaseObj*>(Object::FromHandle(v.v_obj));
    for (uint64_t pos = map->BeginPos(); pos != map->EndPos() && !found; pos = map->NextPos(pos)) {
      found = FindNonCPU(map->KVAt(pos).key, seen, active, out) ||
              FindNonCPU(map->KVAt(pos).value, seen, active, out);
    }
  }
  active->pop_back();
  return found;
}

bool FindNonCPU(const TVMFFIAny& v, std::unordered_set<const void*>* seen,
                std::vector<const Object*>* active, DLDevice* out) {
  const DLTensor* tensor = nullptr;
  switch (v.type_index) {
    case kTVMFFIDLTensorPtr:
      tensor = static_cast<const DLTensor*>(v.v_ptr);
      break;
    case kTVMFFITensor:
      tensor = TVMFFITensorGetDLTensorPtr(v.v_obj);
      break;
    case kTVMFFIArray:
    case kTVMFFIList:
    case kTVMFFIMap:
    case kTVMFFIDict:
      return FindNonCPUInContainer(v, seen, active, out);
    default:
      return false;
  }
  if (tensor == nullptr || tensor->device.device_type == kDLCPU) return false;
  *out = tensor->device;
  return true;
}

// Returns Device(cpu, 0) when no tensor off the CPU is found.
TVM_FFI_IMPL_REGISTER_GLOBAL("ffi.ContainerFindFirstNonCPUDevice", [](AnyView value) {
  std::unordered_set<const void*> seen;
  std::vector<const Object*> active;
  DLDevice found;
  found.device_type = kDLCPU;
  found.device_id = 0;
  FindNonCPU(*value.raw(), &seen, &active, &found);
  return found;
});

}  // namespace
}  // namespace impl
}  // namespace detail
}  // namespace ffi
}  // namespace tvm
