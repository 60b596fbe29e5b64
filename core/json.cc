// JSON reader and writer over FFI values (see json.h).
#include "json.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include "error_internal.h"
#include "global_def.h"
#include "object_internal.h"
#include "string_internal.h"
#include "structural.h"

namespace tvm {
namespace ffi {
namespace detail {
namespace core {

namespace json {
namespace {

const TVMFFIAny* RawOf(const AnyView& v) { return reinterpret_cast<const TVMFFIAny*>(&v); }
const TVMFFIAny* RawOf(const Any& v) { return AnyUnsafe::TVMFFIAnyPtrFromAny(v); }
AnyView ViewOf(const TVMFFIAny& v) { return AnyView::CopyFromTVMFFIAny(v); }
const Object* ObjectOf(const TVMFFIAny& v) { return reinterpret_cast<const Object*>(v.v_obj); }

// A Map of (key0, value0, key1, value1, ...), a repeated key keeping its
// last value: one call of the runtime's constructor, which reads the owned
// values in place as its arguments (Any and AnyView share one layout).
Any MakeMap(const std::vector<Any>& flat) {
  static const Function* const make = new Function(Function::GetGlobalRequired("ffi.Map"));
  Any out;
  make->CallPacked(reinterpret_cast<const AnyView*>(flat.data()),
                   static_cast<int32_t>(flat.size()), &out);
  return out;
}

// The reader keeps the open arrays and objects on an explicit stack (no
// recursion), so nesting costs heap, not the calling thread's stack; the
// depth is still bounded by kMaxDepth.
class Reader {
 public:
  Reader(std::string_view text, const ParseOptions& options) : s_(text), options_(options) {}

  Any Document() {
    SkipSpace();
    Any v = Value();
    SkipSpace();
    if (pos_ != s_.size()) Fail("Extra data", pos_);
    return v;
  }

 private:
  // An array or object being read.
  struct Open {
    bool is_object;
    Array<Any> items{UnsafeInit{}};  // arrays (null until the first item)
    std::vector<Any> fields;  // objects: key0, value0, key1, ... (one Map at the end)
    Any key;           // objects: the key whose value is being read
    int64_t num_keys = 0;
  };

  [[noreturn]] void Fail(const char* what, size_t at) const {
    size_t line = 1, line_start = 0;
    for (size_t i = 0; i < at && i < s_.size(); ++i) {
      if (s_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    TVM_FFI_THROW(ValueError) << what << ": line " << line << " column " << (at - line_start + 1)
                              << " (char " << at << ")";
    TVM_FFI_UNREACHABLE();
  }

  void SkipSpace() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) {
      ++pos_;
    }
  }

  bool Literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) == word) {
      pos_ += word.size();
      return true;
    }
    return false;
  }

  // At an object key (after '{' or ','): reads `"key":` into top.key.
  void Key(Open* top) {
    SkipSpace();
    if (pos_ >= s_.size() || s_[pos_] != '"') {
      Fail("Expecting property name enclosed in double quotes", pos_);
    }
    if (options_.max_object_keys >= 0 && top->num_keys >= options_.max_object_keys) {
      TVM_FFI_THROW(ValueError) << "JSON object has more than " << options_.max_object_keys
                                << " keys (max_object_keys) at char " << pos_;
    }
    ++top->num_keys;
    std::string key = StringBody();
    SkipSpace();
    if (pos_ >= s_.size() || s_[pos_] != ':') Fail("Expecting ':' delimiter", pos_);
    ++pos_;
    SkipSpace();
    top->key = Any(String(key.data(), key.size()));  // one block, bytes inline
  }

  // The value of a container that ends here.
  static Any Close(Open* top) {
    if (top->is_object) return MakeMap(top->fields);
    if (top->items.get() == nullptr) return Any(Array<Any>());
    return Any(std::move(top->items));
  }

  // One value, arrays and objects included.
  Any Value() {
    std::vector<Open> stack;
    while (true) {
      // Start a value: open containers until a scalar (or an empty one) is read.
      Any v;
      bool have = false;
      while (!have) {
        if (pos_ >= s_.size()) Fail("Expecting value", pos_);
        char c = s_[pos_];
        if (c != '[' && c != '{') {
          v = Scalar();
          have = true;
          break;
        }
        if (stack.size() >= static_cast<size_t>(kMaxDepth)) {
          TVM_FFI_THROW(ValueError) << "JSON nests deeper than " << kMaxDepth
                                    << " levels at char " << pos_;
        }
        ++pos_;
        SkipSpace();
        stack.emplace_back();
        Open& top = stack.back();
        top.is_object = c == '{';
        char close = top.is_object ? '}' : ']';
        if (pos_ < s_.size() && s_[pos_] == close) {
          ++pos_;
          v = Close(&top);
          stack.pop_back();
          have = true;
          break;
        }
        if (top.is_object) Key(&top);
      }
      // Deliver it to the innermost open container; close containers that end.
      while (true) {
        if (stack.empty()) return v;
        Open& top = stack.back();
        if (top.is_object) {
          top.fields.push_back(std::move(top.key));
          top.fields.push_back(std::move(v));
        } else {
          top.items.push_back(std::move(v));
        }
        SkipSpace();
        if (pos_ < s_.size() && s_[pos_] == ',') {
          ++pos_;
          SkipSpace();
          if (top.is_object) Key(&top);
          break;  // read the next item
        }
        char close = top.is_object ? '}' : ']';
        if (pos_ < s_.size() && s_[pos_] == close) {
          ++pos_;
          v = Close(&top);
          stack.pop_back();
          continue;
        }
        Fail("Expecting ',' delimiter", pos_);
      }
    }
  }

  // A value other than an array or object.
  Any Scalar() {
    char c = s_[pos_];
    switch (c) {
      case '"': {
        std::string str = StringBody();
        return Any(String(str.data(), str.size()));
      }
      case 'n':
        if (Literal("null")) return Any();
        break;
      case 't':
        if (Literal("true")) return Any(true);
        break;
      case 'f':
        if (Literal("false")) return Any(false);
        break;
      case 'N':
        if (Literal("NaN")) return Any(std::numeric_limits<double>::quiet_NaN());
        break;
      case 'I':
        if (Literal("Infinity")) return Any(std::numeric_limits<double>::infinity());
        break;
      default:
        break;
    }
    if (c == '-' && s_.substr(pos_, 9) == "-Infinity") {
      pos_ += 9;
      return Any(-std::numeric_limits<double>::infinity());
    }
    if (c == '-' || (c >= '0' && c <= '9')) return Number();
    Fail("Expecting value", pos_);
  }

  Any Number() {
    size_t start = pos_;
    bool is_float = false;
    if (s_[pos_] == '-') ++pos_;
    auto digits = [&]() {
      size_t d0 = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
      return pos_ - d0;
    };
    size_t int_digits = digits();
    if (int_digits == 0) Fail("Expecting value", start);
    if (int_digits > 1 && s_[pos_ - int_digits] == '0') Fail("Leading zero in number", start);
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      is_float = true;
      if (digits() == 0) Fail("Expecting digits after '.'", pos_);
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      is_float = true;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (digits() == 0) Fail("Expecting digits in exponent", pos_);
    }
    const char* first = s_.data() + start;
    const char* last = s_.data() + pos_;
    if (!is_float) {
      int64_t v = 0;
      auto r = std::from_chars(first, last, v);
      if (r.ec == std::errc() && r.ptr == last) return Any(v);
      // Out of int64_t range: a float, as upstream does.
    }
    std::string text(first, last);
    char* end = nullptr;
    double d = std::strtod(text.c_str(), &end);
    if (std::isinf(d)) Fail("Number out of range", start);
    return Any(d);
  }

  static void AppendUtf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  uint32_t Hex4(size_t at) const {
    if (at + 4 > s_.size()) Fail("Invalid \\uXXXX escape", at - 1);
    uint32_t v = 0;
    for (size_t i = at; i < at + 4; ++i) {
      char c = s_[i];
      v <<= 4;
      if (c >= '0' && c <= '9') {
        v |= static_cast<uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        v |= static_cast<uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        v |= static_cast<uint32_t>(c - 'A' + 10);
      } else {
        Fail("Invalid \\uXXXX escape", at - 1);
      }
    }
    return v;
  }

  // At the opening quote; returns the decoded string and moves past the
  // closing quote.
  std::string StringBody() {
    size_t start = pos_;
    ++pos_;
    std::string out;
    while (true) {
      size_t run = pos_;
      while (pos_ < s_.size() && s_[pos_] != '"' && s_[pos_] != '\\' &&
             static_cast<unsigned char>(s_[pos_]) >= 0x20) {
        ++pos_;
      }
      out.append(s_.data() + run, pos_ - run);
      if (pos_ >= s_.size()) Fail("Unterminated string starting at", start);
      char c = s_[pos_];
      if (c == '"') {
        ++pos_;
        return out;
      }
      if (c != '\\') Fail("Invalid control character at", pos_);
      if (pos_ + 1 >= s_.size()) Fail("Unterminated string starting at", start);
      char e = s_[pos_ + 1];
      pos_ += 2;
      switch (e) {
        case '"': out.push_back('"'); break;
        case '\\': out.push_back('\\'); break;
        case '/': out.push_back('/'); break;
        case 'b': out.push_back('\b'); break;
        case 'f': out.push_back('\f'); break;
        case 'n': out.push_back('\n'); break;
        case 'r': out.push_back('\r'); break;
        case 't': out.push_back('\t'); break;
        case 'u': {
          size_t esc = pos_ - 2;
          uint32_t cp = Hex4(pos_);
          pos_ += 4;
          if (cp >= 0xD800 && cp < 0xDC00 && pos_ + 1 < s_.size() && s_[pos_] == '\\' &&
              s_[pos_ + 1] == 'u') {
            uint32_t low = Hex4(pos_ + 2);
            if (low >= 0xDC00 && low < 0xE000) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
              pos_ += 6;
            }
          }
          // A surrogate left unpaired has no UTF-8 form (str holds UTF-8).
          if (cp >= 0xD800 && cp < 0xE000) Fail("Unpaired surrogate in \\uXXXX escape", esc);
          AppendUtf8(cp, &out);
          break;
        }
        default:
          Fail("Invalid \\escape", pos_ - 2);
      }
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
  ParseOptions options_;
};

// The writer walks with an explicit stack too, holding each open container
// (so nothing it visits can go away under it).  A value that shares
// containers (a DAG) is written once per reference, so a few shared nodes can
// describe an exponential amount of text: after kExpansionCheckAfter items the
// writer counts, once, how many items the whole value expands to (shared
// containers counted once each) and refuses more than options.max_items.
class Writer {
 public:
  Writer(int indent, const StringifyOptions& options) : indent_(indent), options_(options) {}

  void Run(const TVMFFIAny& root) {
    std::vector<Frame> stack;
    TVMFFIAny v = root;
    while (true) {
      // Write `v`; a container opens a frame and its first item comes next.
      if (++items_ == kExpansionCheckAfter) CheckExpansion(root);
      if (v.type_index == kTVMFFIArray || v.type_index == kTVMFFIList ||
          v.type_index == kTVMFFIMap || v.type_index == kTVMFFIDict) {
        if (stack.size() >= static_cast<size_t>(kMaxDepth)) {
          TVM_FFI_THROW(ValueError) << "ffi.json.Stringify: value nests deeper than " << kMaxDepth
                                    << " levels (or contains a reference cycle)";
        }
        stack.emplace_back(v);
        out_.push_back(stack.back().is_map ? '{' : '[');
      } else {
        Scalar(v);
      }
      // Find the next item to write, closing the containers that are done.
      bool next = false;
      while (!stack.empty() && !next) {
        Frame& top = stack.back();
        size_t depth = stack.size();
        if (top.is_map) {
          if (top.pos < top.entries.size()) {
            const auto& kv = top.entries[top.pos++];
            const char* data;
            size_t size;
            bool is_bytes;
            if (!GetStringView(RawOf(kv.first), &data, &size, &is_bytes) || is_bytes) {
              TVM_FFI_THROW(TypeError) << "ffi.json.Stringify: object keys must be str, got "
                                       << TypeIndexToDisplayName(kv.first.type_index());
            }
            if (top.pos > 1) out_.push_back(',');
            NewLine(depth);
            AppendQuoted(std::string_view(data, size), &out_);
            out_ += indent_ >= 0 ? ": " : ":";
            v = *RawOf(kv.second);
            top.current = kv.second;
            next = true;
            break;
          }
        } else {
          const SeqBaseObj* seq = static_cast<const SeqBaseObj*>(top.obj());
          if (top.pos < seq->size()) {
            if (top.pos > 0) out_.push_back(',');
            NewLine(depth);
            top.current = seq->at(static_cast<int64_t>(top.pos++));
            v = *RawOf(top.current);
            next = true;
            break;
          }
        }
        bool empty = top.pos == 0;
        bool is_map = top.is_map;
        stack.pop_back();
        if (!empty) NewLine(stack.size());
        out_.push_back(is_map ? '}' : ']');
      }
      if (!next) return;
    }
  }

  std::string Take() { return std::move(out_); }

 private:
  static constexpr uint64_t kExpansionCheckAfter = uint64_t(1) << 16;

  struct Frame {
    explicit Frame(const TVMFFIAny& v)
        : hold(ViewOf(v)),
          is_map(v.type_index == kTVMFFIMap || v.type_index == kTVMFFIDict) {
      if (is_map) {
        // A snapshot of the entries: the map cannot change under the walk.
        const MapBaseObj* map = static_cast<const MapBaseObj*>(obj());
        entries.reserve(map->size());
        for (const auto& kv : *map) entries.emplace_back(kv.first, kv.second);
      }
    }
    const Object* obj() const { return ObjectOf(*RawOf(hold)); }
    Any hold;
    bool is_map;
    size_t pos = 0;
    std::vector<std::pair<Any, Any>> entries;
    Any current;  // the item being written (held while it is)
  };

  void Scalar(const TVMFFIAny& v) {
    const char* data;
    size_t size;
    bool is_bytes;
    switch (v.type_index) {
      case kTVMFFINone:
        out_ += "null";
        return;
      case kTVMFFIBool:
        out_ += v.v_int64 ? "true" : "false";
        return;
      case kTVMFFIInt: {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof(buf), v.v_int64);
        out_.append(buf, r.ptr);
        return;
      }
      case kTVMFFIFloat:
        AppendDouble(v.v_float64, &out_);
        return;
      default:
        break;
    }
    if (GetStringView(&v, &data, &size, &is_bytes) && !is_bytes) {
      AppendQuoted(std::string_view(data, size), &out_);
      return;
    }
    TVM_FFI_THROW(TypeError) << "ffi.json.Stringify: a value of type "
                             << TypeIndexToDisplayName(v.type_index) << " has no JSON form";
  }

  // The number of items `v` is written as (itself and everything below it),
  // saturating at `cap`; each shared container is counted once (memo), a
  // cycle or a value deeper than kMaxDepth counts as `cap` (the writer
  // refuses those anyway).
  uint64_t Expansion(const TVMFFIAny& v, uint64_t cap, int depth,
                     std::unordered_map<const Object*, uint64_t>* memo) {
    bool is_seq = v.type_index == kTVMFFIArray || v.type_index == kTVMFFIList;
    bool is_map = v.type_index == kTVMFFIMap || v.type_index == kTVMFFIDict;
    if (!is_seq && !is_map) return 1;
    // The stack probe is structural.h's.
    if (depth > kMaxDepth || StackNearlyFull()) return cap;
    const Object* obj = ObjectOf(v);
    auto found = memo->find(obj);
    if (found != memo->end()) return found->second;
    (*memo)[obj] = cap;  // in progress: a cycle through it saturates
    Any hold(ViewOf(v));
    uint64_t total = 1;
    auto add = [&](const TVMFFIAny& item) {
      uint64_t n = Expansion(item, cap, depth + 1, memo);
      total = n >= cap - total ? cap : total + n;
    };
    if (is_seq) {
      const SeqBaseObj* seq = static_cast<const SeqBaseObj*>(obj);
      for (size_t i = 0; i < seq->size() && total < cap; ++i) {
        Any item = seq->at(static_cast<int64_t>(i));
        add(*RawOf(item));
      }
    } else {
      const MapBaseObj* map = static_cast<const MapBaseObj*>(obj);
      for (auto it = map->begin(); it != map->end() && total < cap; ++it) {
        total = total + 1 >= cap ? cap : total + 1;  // the key
        Any item = it->second;
        add(*RawOf(item));
      }
    }
    (*memo)[obj] = total;
    return total;
  }

  void CheckExpansion(const TVMFFIAny& root) {
    uint64_t limit = options_.max_items;
    if (limit == 0) return;
    std::unordered_map<const Object*, uint64_t> memo;
    uint64_t n = Expansion(root, limit + 1, 0, &memo);
    if (n > limit) {
      TVM_FFI_THROW(ValueError) << "ffi.json.Stringify: the value would be written as more than "
                                << limit << " items (a container referenced more than once is "
                                   "written once per reference)";
    }
  }

  void NewLine(size_t depth) {
    if (indent_ < 0) return;
    out_.push_back('\n');
    out_.append(static_cast<size_t>(indent_) * depth, ' ');
  }

  int indent_;
  StringifyOptions options_;
  uint64_t items_ = 0;
  std::string out_;
};

}  // namespace

void AppendQuoted(std::string_view s, std::string* out) {
  static const char kHex[] = "0123456789abcdef";
  out->push_back('"');
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    // '/' is escaped too, as upstream's writer does ("a\/b").
    if (c >= 0x20 && c != '"' && c != '\\' && c != '/') continue;
    out->append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '/': *out += "\\/"; break;
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\r': *out += "\\r"; break;
      case '\t': *out += "\\t"; break;
      case '\b': *out += "\\b"; break;
      case '\f': *out += "\\f"; break;
      default: {
        char esc[7] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15], 0};
        out->append(esc, 6);
      }
    }
  }
  out->append(s.data() + run, s.size() - run);
  out->push_back('"');
}

void AppendDouble(double v, std::string* out) {
  if (std::isnan(v)) {
    *out += "NaN";
    return;
  }
  if (std::isinf(v)) {
    *out += v > 0 ? "Infinity" : "-Infinity";
    return;
  }
  char buf[40];
  auto r = std::to_chars(buf, buf + sizeof(buf), v);
  std::string_view text(buf, static_cast<size_t>(r.ptr - buf));
  out->append(text);
  if (text.find_first_of(".eEn") == std::string_view::npos) *out += ".0";
}

Any Parse(std::string_view text, const ParseOptions& options) {
  return Reader(text, options).Document();
}

std::string Stringify(const AnyView& value, int indent, const StringifyOptions& options) {
  Writer w(indent, options);
  w.Run(*RawOf(value));
  return w.Take();
}

namespace {

// ffi.json.Parse(text[, max_object_keys]): a negative or missing limit is none.
TVM_FFI_CORE_REGISTER_GLOBAL_PACKED("ffi.json.Parse", [](PackedArgs args, Any* rv) {
  if (args.size() < 1 || args.size() > 2) {
    TVM_FFI_THROW(TypeError) << "ffi.json.Parse takes 1 or 2 arguments (text, max_object_keys), "
                                "got "
                             << args.size();
  }
  String text = args[0].cast<String>();
  ParseOptions options;
  if (args.size() == 2 && args[1] != nullptr) options.max_object_keys = args[1].cast<int64_t>();
  *rv = Parse(std::string_view(text.data(), text.size()), options);
});

TVM_FFI_CORE_REGISTER_GLOBAL("ffi.json.Stringify", [](AnyView value, Optional<int64_t> indent) {
  int ind = -1;
  if (indent.has_value()) {
    if (*indent < 0 || *indent > 64) {
      TVM_FFI_THROW(ValueError) << "ffi.json.Stringify: indent must be in [0, 64], got " << *indent;
    }
    ind = static_cast<int>(*indent);
  }
  return String(Stringify(value, ind));
});

}  // namespace
}  // namespace json
}  // namespace core
}  // namespace detail
}  // namespace ffi
}  // namespace tvm
