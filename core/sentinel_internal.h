// Sentinels: the library-internal makers of the MISSING and KWARGS objects.
#ifndef TVMFFI_CORE_SENTINEL_INTERNAL_H_
#define TVMFFI_CORE_SENTINEL_INTERNAL_H_

#include <tvmffi/sentinel.h>

namespace tvmffi {
namespace core {

// Library-internal (sentinel.cc): the objects themselves, made on first use,
// and MISSING as a value (a new reference).
TVMFFIObjectHandle MakeOrGetMissingObject();
TVMFFIObjectHandle MakeOrGetKwargsObject();
Any MissingValue();

}  // namespace core
}  // namespace tvmffi

#endif  // TVMFFI_CORE_SENTINEL_INTERNAL_H_
