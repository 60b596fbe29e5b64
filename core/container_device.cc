// ffi.ContainerFindFirstNonCPUDevice: the first non-CPU tensor device in containers.
//
// The Python binding uses it to pick the stream for a call that passes
// tensors inside containers.
#include <unordered_set>

#include <tvmffi/array.h>
#include <tvmffi/function.h>
#include <tvmffi/map.h>

namespace tvmffi {
namespace core {
namespace {

// Depth-first, in element (and key, value) order.  `seen` breaks cycles
// through Lists and Dicts that contain themselves.
bool FindNonCPU(const TVMFFIAny& v, std::unordered_set<const void*>* seen, DLDevice* out) {
  const DLTensor* tensor = nullptr;
  switch (v.type_index) {
    case kTVMFFIDLTensorPtr:
      tensor = static_cast<const DLTensor*>(v.v_ptr);
      break;
    case kTVMFFITensor:
      tensor = TVMFFITensorGetDLTensorPtr(v.v_obj);
      break;
    case kTVMFFIArray:
    case kTVMFFIList: {
      if (!seen->insert(v.v_obj).second) return false;
      const TVMFFISeqCell* cell = TVMFFISeqGetCellPtr(v.v_obj);
      const TVMFFIAny* elems = static_cast<const TVMFFIAny*>(cell->data);
      for (int64_t i = 0; i < cell->size; ++i) {
        if (FindNonCPU(elems[i], seen, out)) return true;
      }
      return false;
    }
    case kTVMFFIMap:
    case kTVMFFIDict: {
      if (!seen->insert(v.v_obj).second) return false;
      const MapBaseObj* map = static_cast<const MapBaseObj*>(Object::FromHandle(v.v_obj));
      for (uint64_t pos = map->BeginPos(); pos != map->EndPos(); pos = map->NextPos(pos)) {
        if (FindNonCPU(map->KVAt(pos).key, seen, out) ||
            FindNonCPU(map->KVAt(pos).value, seen, out)) {
          return true;
        }
      }
      return false;
    }
    default:
      return false;
  }
  if (tensor == nullptr || tensor->device.device_type == kDLCPU) return false;
  *out = tensor->device;
  return true;
}

// Returns Device(cpu, 0) when no tensor off the CPU is found.
TVMFFI_REGISTER_GLOBAL("ffi.ContainerFindFirstNonCPUDevice", [](AnyView value) {
  std::unordered_set<const void*> seen;
  DLDevice found;
  found.device_type = kDLCPU;
  found.device_id = 0;
  FindNonCPU(*value.raw(), &seen, &found);
  return found;
});

}  // namespace
}  // namespace core
}  // namespace tvmffi
