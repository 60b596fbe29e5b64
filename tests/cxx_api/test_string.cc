// string.h: String and Bytes, their two storage forms, their conversions,
// and strings shared with the runtime.
#include <tvm/ffi/string.h>

#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <unordered_set>

using namespace tvm::ffi;

namespace {

TVMFFIAny AsView(const String& s) {
  TVMFFIAny v;
  TypeTraits<String>::CopyToAnyView(s, &v);
  return v;
}

int UseCountOf(const TVMFFIAny& v) {
  return static_cast<int>(reinterpret_cast<Object*>(v.v_obj)->use_count());
}

}  // namespace

TEST_CASE("string: layout and the small form", "[string]") {
  STATIC_REQUIRE(sizeof(String) == sizeof(TVMFFIAny));
  STATIC_REQUIRE(sizeof(Bytes) == sizeof(TVMFFIAny));
  String empty;
  TVMFFIAny v = AsView(empty);
  CHECK(v.type_index == kTVMFFISmallStr);
  CHECK(v.small_str_len == 0);
  CHECK(v.v_int64 == 0);
  CHECK(empty.empty());
  CHECK(std::string(empty.c_str()) == "");

  String seven("1234567");
  v = AsView(seven);
  CHECK(v.type_index == kTVMFFISmallStr);
  CHECK(v.small_str_len == 7);
  CHECK(std::memcmp(v.v_bytes, "1234567", 8) == 0);  // with the NUL

  String eight("12345678");
  v = AsView(eight);
  CHECK(v.type_index == kTVMFFIStr);
  CHECK(eight.size() == 8);
  CHECK(eight.c_str()[8] == '\0');
  CHECK(UseCountOf(v) == 1);
  String copy = eight;
  CHECK(UseCountOf(v) == 2);
  CHECK(copy.data() == eight.data());  // shared, not copied

  String with_nul(std::string("a\0b", 3));
  CHECK(with_nul.size() == 3);
  CHECK(with_nul.data()[1] == '\0');

  Bytes small("ab", 2);
  CHECK(small.size() == 2);
  TVMFFIAny b;
  TypeTraits<Bytes>::CopyToAnyView(small, &b);
  CHECK(b.type_index == kTVMFFISmallBytes);
  Bytes large(std::string(20, 'z'));
  TypeTraits<Bytes>::CopyToAnyView(large, &b);
  CHECK(b.type_index == kTVMFFIBytes);
  CHECK(std::string(large) == std::string(20, 'z'));
  CHECK(Bytes().size() == 0);
}

TEST_CASE("string: the runtime reads our strings and we read its", "[string]") {
  // Same bytes, same Any as the runtime makes.
  for (const char* text : {"", "short", "exactly8", "a much longer string than eight"}) {
    TVMFFIByteArray bytes{text, std::strlen(text)};
    TVMFFIAny runtime_made;
    REQUIRE(TVMFFIStringFromByteArray(&bytes, &runtime_made) == 0);
    String ours(text);
    TVMFFIAny inline_made = AsView(ours);
    CHECK(runtime_made.type_index == inline_made.type_index);
    if (runtime_made.type_index == kTVMFFISmallStr) {
      CHECK(std::memcmp(&runtime_made, &inline_made, sizeof(TVMFFIAny)) == 0);
    }
    String back = TypeTraits<String>::MoveFromAnyAfterCheck(&runtime_made);
    CHECK(runtime_made.type_index == kTVMFFINone);
    CHECK(back == ours);
    CHECK(back.c_str()[back.size()] == '\0');
  }
  // The runtime copies our long string into an owned Any, and frees it.
  String long_one(std::string(100, 'q'));
  TVMFFIAny view = AsView(long_one);
  TVMFFIAny owned;
  REQUIRE(TVMFFIAnyViewToOwnedAny(&view, &owned) == 0);
  CHECK(owned.v_obj == view.v_obj);
  CHECK(UseCountOf(view) == 2);
  REQUIRE(TVMFFIObjectDecRef(owned.v_obj) == 0);
  CHECK(UseCountOf(view) == 1);
}

TEST_CASE("string: moving in and out of an Any", "[string]") {
  String s(std::string(30, 'm'));  // adopts the std::string buffer
  TVMFFIAny owned;
  TypeTraits<String>::MoveToAny(s, &owned);  // a copy of s moves in
  CHECK(owned.type_index == kTVMFFIStr);
  CHECK(UseCountOf(owned) == 2);
  CHECK(TypeTraits<String>::CheckAnyStrict(&owned));
  CHECK_FALSE(TypeTraits<Bytes>::CheckAnyStrict(&owned));
  String out = TypeTraits<String>::MoveFromAnyAfterCheck(&owned);
  CHECK(owned.type_index == kTVMFFINone);
  CHECK(out.data() == s.data());
  TVMFFIAny view = AsView(s);
  CHECK(UseCountOf(view) == 2);

  // Views of C strings, std::string and byte arrays; conversions back.
  TVMFFIAny raw;
  TypeTraits<const char*>::CopyToAnyView("lit", &raw);
  CHECK(raw.type_index == kTVMFFIRawStr);
  CHECK(TypeTraits<String>::TryCastFromAnyView(&raw).value() == "lit");
  CHECK_FALSE(TypeTraits<String>::CheckAnyStrict(&raw));
  CHECK(TypeTraits<std::string>::TryCastFromAnyView(&raw).value() == "lit");
  std::string std_text = "from std";
  TypeTraits<std::string>::CopyToAnyView(std_text, &raw);
  CHECK(raw.v_c_str == std_text.c_str());
  TVMFFIByteArray array{"b\0c", 3};
  TVMFFIAny arr;
  TypeTraits<TVMFFIByteArray*>::CopyToAnyView(&array, &arr);
  CHECK(arr.type_index == kTVMFFIByteArrayPtr);
  CHECK(std::string(TypeTraits<Bytes>::TryCastFromAnyView(&arr).value()) ==
        std::string("b\0c", 3));
  CHECK(TypeTraits<std::string>::TryCastFromAnyView(&arr).value() == std::string("b\0c", 3));
  CHECK_FALSE(TypeTraits<String>::TryCastFromAnyView(&arr).has_value());
  CHECK(TypeTraits<std::string>::TryCastFromAnyView(&view).value() == std::string(30, 'm'));

  TVMFFIAny moved_std;
  TypeTraits<std::string>::MoveToAny(std::string(12, 'k'), &moved_std);
  CHECK(moved_std.type_index == kTVMFFIStr);
  CHECK(TypeTraits<String>::MoveFromAnyAfterCheck(&moved_std) == std::string(12, 'k'));

  TVMFFIAny num;
  TypeTraits<int>::CopyToAnyView(3, &num);
  CHECK_FALSE(TypeTraits<String>::TryCastFromAnyView(&num).has_value());
  CHECK_FALSE(TypeTraits<std::string>::TryCastFromAnyView(&num).has_value());
  CHECK(TypeTraits<String>::TypeStr() == "str");
  CHECK(TypeTraits<Bytes>::TypeStr() == "bytes");
  CHECK(TypeTraits<String>::TypeSchema() == R"({"type":"ffi.String"})");
  CHECK_THROWS_WITH(TypeTraits<const char*>::CopyToAnyView(nullptr, &raw),
                    "Check not null: src ");
}

TEST_CASE("string: comparison, search and slicing", "[string]") {
  String abc("abc");
  CHECK(abc == "abc");
  CHECK(abc == std::string("abc"));
  CHECK(std::string("abc") == abc);
  CHECK(abc != "abd");
  CHECK(abc < "abd");
  CHECK("abb" < abc);
  CHECK(abc < String("abcd"));
  CHECK(String("abcd") > abc);
  CHECK(abc <= "abc");
  CHECK(abc >= std::string("abc"));
  CHECK(abc.compare("ab") == 1);
  CHECK(abc.compare("abcd") == -1);
  CHECK(abc.compare(TVMFFIByteArray{"abc", 3}) == 0);
  CHECK(Bytes::memncmp("a", "b", 1, 1) == -1);
  CHECK(Bytes::memequal("xy", "xz", 1, 1));

  String text("hello, world");
  CHECK(text.find("o") == 4);
  CHECK(text.find("o", 5) == 8);
  CHECK(text.find(String("zz")) == String::npos);
  CHECK(text.substr(7) == "world");
  CHECK(text.substr(0, 5) == "hello");
  CHECK(text.substr(12) == "");
  CHECK_THROWS_AS(text.substr(13), std::out_of_range);
  CHECK(text.at(1) == 'e');
  CHECK_THROWS_WITH(text.at(12), "tvm::String index out of bounds");
  CHECK(text.starts_with("hello"));
  CHECK(text.ends_with(std::string_view("world")));
  CHECK_FALSE(text.ends_with("hello, world!"));

  String joined = String("ab") + "cdefghij";
  CHECK(joined == "abcdefghij");
  CHECK(joined.c_str()[10] == '\0');
  CHECK(std::string("x") + String("y") == "xy");
  CHECK("x" + String("y") + std::string("z") == "xyz");

  String csv("a,,b");  // the pieces are views into it (for a short string, into csv itself)
  auto pieces = csv.Split(',');
  REQUIRE(pieces.size() == 3);
  CHECK(pieces[0] == "a");
  CHECK(pieces[1] == "");
  CHECK(pieces[2] == "b");
  CHECK(String("").Split(',').size() == 1);

  String assigned;
  assigned = "now long enough to be an object";
  CHECK(assigned.size() == 31);
  assigned = std::string("s");
  CHECK(assigned == "s");

  std::unordered_set<String> set{String("k"), String("k"), String("long key value")};
  CHECK(set.size() == 2);
  std::ostringstream os;
  os << String("printed");
  CHECK(os.str() == "printed");
}

TEST_CASE("string: JSON and Python escapes", "[string]") {
  CHECK(EscapeStringJSON(String("a\"b\\c/d\n\t\x01\x7f\xc3\xa9")) ==
        "\"a\\\"b\\\\c\\/d\\n\\t\\u0001\\u007f\xc3\xa9\"");
  CHECK(EscapedStringPy(String("q\"\\\n\r\t\x02")) == "\"q\\\"\\\\\\n\\r\\t\\x02\"");
  // 2-, 3- and 4-byte UTF-8, then a stray continuation byte and a cut sequence.
  CHECK(EscapedStringPy(String("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80")) ==
        "\"\\u00e9\\u20ac\\U0001f600\"");
  CHECK(EscapedStringPy(String("\x80x\xe2\x82")) == "\"\\x80x\\xe2\\x82\"");
  // A terminal colour sequence stays readable.
  CHECK(EscapedStringPy(String("\x1b[31mred\x1b[0m")) == "\"\\x1b[31mred\\x1b[0m\"");
  CHECK(EscapedStringPy(String("\x1b[x")) == "\"\\x1b[x\"");
}
