// JSON graphs (ffi.FromJSONGraphString, what pickle reads) mutated by their
// structure: a custom mutator parses the input as a graph and changes node
// types, data, node indices, fields and the root, so most inputs are
// well-formed JSON and near-valid graphs that reach the decoder's checks
// rather than the JSON parser's.  Each decoded value is then walked the ways
// untrusted values are (repr, hashes, JSON text, a second round trip):
// every step returns a value or raises an ffi.Error, and nothing crashes,
// leaks or stalls.
#include "fuzz_common.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>

using tvm::ffi::Any;
using tvm::ffi::Function;
// JSON arrays and objects as the mutable containers (an ffi.Array or ffi.Map
// converts to these by copying; an ffi.List or ffi.Dict is shared).
using List = tvm::ffi::List<Any>;
using Dict = tvm::ffi::Dict<Any, Any>;

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

// The few globals used, looked up on first use (map entries do not move).
const Function& Global(const char* name) {
  static std::map<std::string, Function> table;
  auto it = table.find(name);
  if (it != table.end()) return it->second;
  std::optional<Function> f = Function::GetGlobal(name);
  if (!f.has_value()) fuzz::Fail(name);
  return table.emplace(name, *f).first->second;
}

// A small deterministic generator seeded by libFuzzer.
class Rng {
 public:
  explicit Rng(unsigned seed) : s_(seed * 0x9e3779b97f4a7c15ULL + 1) {}
  uint64_t Next() {
    s_ ^= s_ << 13;
    s_ ^= s_ >> 7;
    s_ ^= s_ << 17;
    return s_;
  }
  size_t Below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(Next() % n); }

 private:
  uint64_t s_;
};

// The JSON value with arrays as Lists and objects as Dicts (mutable).
Any Thaw(const Any& v, int depth) {
  if (depth > 16) return v;
  if (v.type_index() == kTVMFFIArray || v.type_index() == kTVMFFIList) {
    List out;
    for (const Any& item : v.cast<List>()) out.push_back(Thaw(item, depth + 1));
    return Any(out);
  }
  if (v.type_index() == kTVMFFIMap || v.type_index() == kTVMFFIDict) {
    Dict out;
    for (const auto& kv : v.cast<Dict>()) out.Set(kv.first, Thaw(kv.second, depth + 1));
    return Any(out);
  }
  return v;
}

bool IsList(const Any& v) { return v.type_index() == kTVMFFIList; }
bool IsDict(const Any& v) { return v.type_index() == kTVMFFIDict; }

const char* const kTypeKeys[] = {
    "None", "bool", "int", "float", "ffi.String", "ffi.Bytes", "ffi.BigInt", "DataType",
    "Device", "ffi.Shape", "ffi.Array", "ffi.List", "ffi.Map", "ffi.Dict",
    "ffi.reflection.AccessPath", "ffi.reflection.AccessStep", "ffi.Object", "ffi.Function",
    "ffi.Tensor", "no.such.Type"};

// Values a node's data or a field may be replaced with.
Any OddValue(Rng& r, int64_t n) {
  switch (r.Below(14)) {
    case 0: return Any();
    case 1: return Any(true);
    case 2: return Any(int64_t(-1));
    case 3: return Any(n);
    case 4: return Any(int64_t(1) << 40);
    case 5: return Any(int64_t(INT64_MIN));
    case 6: return Any(1.5);
    case 7: return Any(std::string("float32"));
    case 8: return Any(std::string("123456789012345678901234567890"));
    case 9: return Any(std::string("\xed\xa0\x80"));
    case 10: return Any(std::string("QUJD"));
    case 11: {
      List l;
      l.push_back(Any(int64_t(2)));
      l.push_back(Any(int64_t(r.Below(8)) - 2));
      return Any(l);
    }
    case 12: return Any(Dict());
    default: {
      List l;
      for (int i = 0; i < 3; ++i) l.push_back(Any(static_cast<int64_t>(r.Below(n + 2)) - 1));
      return Any(l);
    }
  }
}

// One structural change of `graph` (a Dict with a List of nodes); false when
// the value is not such a graph.
bool MutateGraph(Dict graph, Rng& r) {
  std::optional<Any> nodes_any = graph.Get(Any(std::string("nodes")));
  if (!nodes_any.has_value() || !IsList(*nodes_any)) return false;
  List nodes = nodes_any->cast<List>();
  int64_t n = nodes.size();
  if (n == 0) return false;
  int64_t i = static_cast<int64_t>(r.Below(n));
  Any node_any = nodes[i];
  auto pick_index = [&]() { return Any(static_cast<int64_t>(r.Below(n))); };
  switch (r.Below(10)) {
    case 0: {  // another type key
      if (!IsDict(node_any)) return false;
      const char* key = kTypeKeys[r.Below(sizeof(kTypeKeys) / sizeof(kTypeKeys[0]))];
      node_any.cast<Dict>().Set(Any(std::string("type")), Any(std::string(key)));
      return true;
    }
    case 1: {  // another index (or value) inside the node's data
      if (!IsDict(node_any)) return false;
      Dict node = node_any.cast<Dict>();
      std::optional<Any> data = node.Get(Any(std::string("data")));
      if (!data.has_value()) return false;
      if (IsList(*data)) {
        List d = data->cast<List>();
        if (d.size() == 0) return false;
        d.Set(static_cast<int64_t>(r.Below(d.size())), r.Below(4) ? pick_index() : OddValue(r, n));
        return true;
      }
      if (IsDict(*data)) {
        Dict d = data->cast<Dict>();
        if (d.size() == 0) return false;
        size_t k = r.Below(static_cast<size_t>(d.size()));
        Any key;
        for (const auto& kv : d) {
          if (k-- == 0) key = kv.first;
        }
        d.Set(key, r.Below(4) ? pick_index() : OddValue(r, n));
        return true;
      }
      node.Set(Any(std::string("data")), OddValue(r, n));
      return true;
    }
    case 2: {  // share: one more reference to an existing node
      if (!IsDict(node_any)) return false;
      std::optional<Any> data = node_any.cast<Dict>().Get(Any(std::string("data")));
      if (!data.has_value() || !IsList(*data)) return false;
      List d = data->cast<List>();
      d.push_back(pick_index());
      if (r.Below(2)) d.push_back(pick_index());
      return true;
    }
    case 3: {  // replace the data
      if (!IsDict(node_any)) return false;
      node_any.cast<Dict>().Set(Any(std::string("data")), OddValue(r, n));
      return true;
    }
    case 4: {  // a copy of a node at the end (and maybe the root)
      nodes.push_back(Thaw(Global("ffi.json.Parse")(Global("ffi.json.Stringify")(node_any)), 0));
      if (r.Below(2)) graph.Set(Any(std::string("root_index")), Any(n));
      return true;
    }
    case 5:
      graph.Set(Any(std::string("root_index")), r.Below(8) ? pick_index() : OddValue(r, n));
      return true;
    case 6: {  // add or drop a field of an object node
      if (!IsDict(node_any)) return false;
      std::optional<Any> data = node_any.cast<Dict>().Get(Any(std::string("data")));
      if (!data.has_value() || !IsDict(*data)) return false;
      Dict d = data->cast<Dict>();
      static const char* const kNames[] = {"parent", "step", "depth", "kind", "key", "x"};
      Any name = Any(std::string(kNames[r.Below(6)]));
      if (d.count(name) != 0 && r.Below(2)) {
        d.erase(name);
      } else {
        d.Set(name, r.Below(2) ? pick_index() : OddValue(r, n));
      }
      return true;
    }
    case 7: {  // a new root holding the old one twice: a DAG one level deeper
      std::optional<Any> root = graph.Get(Any(std::string("root_index")));
      if (!root.has_value()) return false;
      Dict wrap;
      wrap.Set(Any(std::string("type")), Any(std::string(r.Below(2) ? "ffi.Array" : "ffi.List")));
      List items;
      items.push_back(*root);
      items.push_back(*root);
      wrap.Set(Any(std::string("data")), Any(items));
      nodes.push_back(Any(wrap));
      graph.Set(Any(std::string("root_index")), Any(n));
      return true;
    }
    case 8: {  // swap two nodes (forward references, cycles)
      int64_t j = static_cast<int64_t>(r.Below(n));
      Any a = nodes[i], b = nodes[j];
      nodes.Set(i, b);
      nodes.Set(j, a);
      return true;
    }
    default: {  // a bad "metadata" or a missing key
      if (r.Below(2)) {
        graph.Set(Any(std::string("metadata")), OddValue(r, n));
      } else if (r.Below(4) == 0) {
        graph.erase(Any(std::string(r.Below(2) ? "nodes" : "root_index")));
      } else {
        graph.Set(Any(std::string("nodes")), Any(nodes));
      }
      return true;
    }
  }
}

// Calls `fn(args...)`: a result or an ffi.Error, nothing else.
template <typename... Args>
std::optional<Any> Try(const char* name, Args&&... args) {
  try {
    return Global(name)(std::forward<Args>(args)...);
  } catch (const tvm::ffi::Error& e) {
    fuzz::Require(!e.kind().empty(), "an error without a kind");
    return std::nullopt;
  }
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  Rng r(seed);
  if (r.Below(8) != 0) {
    try {
      Any parsed = Global("ffi.json.Parse")(std::string(reinterpret_cast<const char*>(data), size));
      Any graph = Thaw(parsed, 0);
      if (IsDict(graph)) {
        Dict g = graph.cast<Dict>();
        bool changed = false;
        for (size_t k = 1 + r.Below(3); k > 0; --k) changed = MutateGraph(g, r) || changed;
        if (changed) {
          std::string text = Global("ffi.json.Stringify")(graph).cast<std::string>();
          if (text.size() <= max_size) {
            std::memcpy(data, text.data(), text.size());
            return text.size();
          }
        }
      }
    } catch (const tvm::ffi::Error&) {
      // Not a graph (or a mutation made it unprintable): mutate the bytes.
    }
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::optional<Any> value = Try("ffi.FromJSONGraphString", text);
  if (!value.has_value()) return 0;
  Try("ffi.ReprPrint", *value);
  Try("ffi.RecursiveHash", *value);
  Try("ffi.RecursiveEq", *value, *value);
  Try("ffi.StructuralHash", *value, false, false);
  Try("ffi.json.Stringify", *value);
  Try("ffi.ContainerFindFirstNonCPUDevice", *value);
  // What was decoded can be written and read back.
  std::optional<Any> again = Try("ffi.ToJSONGraphString", *value, Any());
  if (again.has_value()) {
    std::optional<Any> reread = Try("ffi.FromJSONGraphString", *again);
    fuzz::Require(reread.has_value(), "a graph written from a decoded value does not read back");
  }
  return 0;
}
