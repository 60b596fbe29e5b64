// ffi.ContainerFindFirstNonCPUDevice: the first non-CPU tensor device in containers.
//
// The Python binding uses it to pick the stream for a call that passes
// tensors inside containers.
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/device.h>

#include <unordered_set>
#include <vector>

#include "container_internal.h"
#include "global_def.h"
#include "map_table.h"
#include "seq_storage.h"
#include "structural.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {
namespace {

// Depth-first, in element (and key, value) order.  `seen` breaks cycles
// through Lists and Dicts that contain themselves; `active` (the containers
// of the current path) bounds the depth as every walk is bounded (TooDeep:
// a RecursionError, not a stack overflow).
bool FindNonCPU(const TVMFFIAny& v, std::unordered_set<const void*>* seen,
                std::vector<const TVMFFIObject*>* active, DLDevice* out);

bool FindNonCPUInContainer(const TVMFFIAny& v, std::unordered_set<const void*>* seen,
                           std::vector<const TVMFFIObject*>* active, DLDevice* out) {
  if (!seen->insert(v.v_obj).second) return false;
  if (TooDeep(active->size())) {
    ThrowTooDeepHeaders("ffi.ContainerFindFirstNonCPUDevice", active->data(), active->size());
  }
  active->push_back(v.v_obj);
  bool found = false;
  if (v.type_index == kTVMFFIArray || v.type_index == kTVMFFIList) {
    const TVMFFISeqCell* cell = SeqCellOf(v.v_obj);
    const TVMFFIAny* elems = SeqData(*cell);
    for (int64_t i = 0; i < cell->size && !found; ++i) {
      found = FindNonCPU(elems[i], seen, active, out);
    }
  } else {
    const MapCell& map = *MapCellOf(v.v_obj);
    for (uint64_t pos = MapBeginPos(map); pos != MapEndPos(map) && !found;
         pos = MapNextPos(map, pos)) {
      found = FindNonCPU(MapPairAt(map, pos).key, seen, active, out) ||
              FindNonCPU(MapPairAt(map, pos).value, seen, active, out);
    }
  }
  active->pop_back();
  return found;
}

bool FindNonCPU(const TVMFFIAny& v, std::unordered_set<const void*>* seen,
                std::vector<const TVMFFIObject*>* active, DLDevice* out) {
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
TVM_FFI_CORE_REGISTER_GLOBAL("ffi.ContainerFindFirstNonCPUDevice", [](AnyView value) {
  std::unordered_set<const void*> seen;
  std::vector<const TVMFFIObject*> active;
  DLDevice found;
  found.device_type = kDLCPU;
  found.device_id = 0;
  FindNonCPU(*ViewRaw(value), &seen, &active, &found);
  return found;
});

}  // namespace
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm
