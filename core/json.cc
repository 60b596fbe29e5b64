// JSON reader and writer over FFI values (see json.h).
#include "json.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include <tvmffi/array.h>
#include <tvmffi/dict.h>
#include <tvmffi/error.h>
#include <tvmffi/function.h>
#include <tvmffi/list.h>
#include <tvmffi/map.h>
#include <tvmffi/string.h>

namespace tvmffi {
namespace core {
namespace json {
namespace {

// A recursive-descent reader; recursion is bounded by kMaxDepth.
class Reader {
 public:
  explicit Reader(std::string_view text) : s_(text) {}

  Any Document() {
    SkipSpace();
    Any v = Value(0);
    SkipSpace();
    if (pos_ != s_.size()) Fail("Extra data", pos_);
    return v;
  }

 private:
  [[noreturn]] void Fail(const char* what, size_t at) const {
    size_t line = 1, line_start = 0;
    for (size_t i = 0; i < at && i < s_.size(); ++i) {
      if (s_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    TVMFFI_THROW(ValueError) << what << ": line " << line << " column " << (at - line_start + 1)
                             << " (char " << at << ")";
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

  Any Value(int depth) {
    if (pos_ >= s_.size()) Fail("Expecting value", pos_);
    char c = s_[pos_];
    switch (c) {
      case '{':
        return Object(depth + 1);
      case '[':
        return ArrayValue(depth + 1);
      case '"': {
        std::string str = StringBody();
        TVMFFIAny raw;
        MakeStringAny(str.data(), str.size(), false, &raw);
        return Any::Adopt(raw);
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

  void CheckDepth(int depth) const {
    if (depth > kMaxDepth) {
      TVMFFI_THROW(ValueError) << "JSON nests deeper than " << kMaxDepth << " levels at char "
                               << pos_;
    }
  }

  Any Object(int depth) {
    CheckDepth(depth);
    ++pos_;  // '{'
    Map out;
    SkipSpace();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      return Any(std::move(out));
    }
    while (true) {
      SkipSpace();
      if (pos_ >= s_.size() || s_[pos_] != '"') {
        Fail("Expecting property name enclosed in double quotes", pos_);
      }
      std::string key = StringBody();
      SkipSpace();
      if (pos_ >= s_.size() || s_[pos_] != ':') Fail("Expecting ':' delimiter", pos_);
      ++pos_;
      SkipSpace();
      Any value = Value(depth);
      TVMFFIAny raw_key;
      MakeStringAny(key.data(), key.size(), false, &raw_key);
      out.Set(Any::Adopt(raw_key), std::move(value));
      SkipSpace();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == '}') {
        ++pos_;
        return Any(std::move(out));
      }
      Fail("Expecting ',' delimiter", pos_);
    }
  }

  Any ArrayValue(int depth) {
    CheckDepth(depth);
    ++pos_;  // '['
    Array<Any> out;
    SkipSpace();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      return Any(std::move(out));
    }
    while (true) {
      SkipSpace();
      out.push_back(Value(depth));
      SkipSpace();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == ']') {
        ++pos_;
        return Any(std::move(out));
      }
      Fail("Expecting ',' delimiter", pos_);
    }
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
};

class Writer {
 public:
  explicit Writer(int indent) : indent_(indent) {}

  void Value(const TVMFFIAny& v, int depth) {
    if (depth > kMaxDepth) {
      TVMFFI_THROW(ValueError) << "ffi.json.Stringify: value nests deeper than " << kMaxDepth
                               << " levels (or contains a reference cycle)";
    }
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
      case kTVMFFIArray:
      case kTVMFFIList: {
        const SeqObj* seq = static_cast<const SeqObj*>(Object::FromHandle(v.v_obj));
        out_.push_back('[');
        bool first = true;
        for (const TVMFFIAny& item : *seq) {
          if (!first) out_.push_back(',');
          first = false;
          NewLine(depth + 1);
          Value(item, depth + 1);
        }
        if (!first) NewLine(depth);
        out_.push_back(']');
        return;
      }
      case kTVMFFIMap:
      case kTVMFFIDict: {
        const MapBaseObj* map = static_cast<const MapBaseObj*>(Object::FromHandle(v.v_obj));
        out_.push_back('{');
        bool first = true;
        for (uint64_t p = map->BeginPos(); p != map->EndPos(); p = map->NextPos(p)) {
          const auto& kv = map->KVAt(p);
          if (!GetStringView(&kv.key, &data, &size, &is_bytes) || is_bytes) {
            TVMFFI_THROW(TypeError) << "ffi.json.Stringify: object keys must be str, got "
                                    << TypeIndexToDisplayName(kv.key.type_index);
          }
          if (!first) out_.push_back(',');
          first = false;
          NewLine(depth + 1);
          AppendQuoted(std::string_view(data, size), &out_);
          out_ += indent_ >= 0 ? ": " : ":";
          Value(kv.value, depth + 1);
        }
        if (!first) NewLine(depth);
        out_.push_back('}');
        return;
      }
      default:
        break;
    }
    if (GetStringView(&v, &data, &size, &is_bytes) && !is_bytes) {
      AppendQuoted(std::string_view(data, size), &out_);
      return;
    }
    TVMFFI_THROW(TypeError) << "ffi.json.Stringify: a value of type "
                            << TypeIndexToDisplayName(v.type_index) << " has no JSON form";
  }

  std::string Take() { return std::move(out_); }

 private:
  void NewLine(int depth) {
    if (indent_ < 0) return;
    out_.push_back('\n');
    out_.append(static_cast<size_t>(indent_) * static_cast<size_t>(depth), ' ');
  }

  int indent_;
  std::string out_;
};

}  // namespace

void AppendQuoted(std::string_view s, std::string* out) {
  static const char kHex[] = "0123456789abcdef";
  out->push_back('"');
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out->append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
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

Any Parse(std::string_view text) { return Reader(text).Document(); }

std::string Stringify(const AnyView& value, int indent) {
  Writer w(indent);
  w.Value(*value.raw(), 0);
  return w.Take();
}

namespace {

TVMFFI_REGISTER_GLOBAL("ffi.json.Parse",
                       [](String text) { return Parse(std::string_view(text.data(), text.size())); });

TVMFFI_REGISTER_GLOBAL("ffi.json.Stringify", [](AnyView value, std::optional<int64_t> indent) {
  int ind = -1;
  if (indent.has_value()) {
    if (*indent < 0 || *indent > 64) {
      TVMFFI_THROW(ValueError) << "ffi.json.Stringify: indent must be in [0, 64], got " << *indent;
    }
    ind = static_cast<int>(*indent);
  }
  return String(Stringify(value, ind));
});

}  // namespace
}  // namespace json
}  // namespace core
}  // namespace tvmffi
