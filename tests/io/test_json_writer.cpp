// The streaming JSON writer (src/io/writers/json_writer.cpp): commas and nesting kept for the caller,
// strings escaped (and, for the report, safe inside a <script> element), numbers that read back
// to the same value. Documents are checked by parsing them with nlohmann::json, an independent
// reader, as well as by their exact text where the text is the point.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>

#include "rigscope/io/json_keys.h"
#include "rigscope/io/json_writer.h"

using namespace rigscope;

TEST_CASE("json writer: commas and nesting", "[json_writer]") {
    std::string s;
    JsonWriter w(s);
    w.begin_object().member("a", 1).key("b").begin_array().value(true).value(false).null().begin_object().end_object();
    w.begin_array().end_array().end_array().member("c", "x").key("d").begin_object().member("e", 2u).end_object().end_object();
    CHECK(s == R"({"a":1,"b":[true,false,null,{},[]],"c":"x","d":{"e":2}})");
    CHECK_NOTHROW(nlohmann::json::parse(s));
}

TEST_CASE("json writer: empty containers and a top-level array", "[json_writer]") {
    std::string s;
    JsonWriter w(s);
    w.begin_array().begin_object().end_object().begin_object().member("k", 0).end_object().end_array();
    CHECK(s == R"([{},{"k":0}])");
}

TEST_CASE("json writer: appends to text already in the string and survives it being emptied", "[json_writer]") {
    // An OutputFile flushes (empties) its buffer between calls: the comma state must not depend
    // on the last byte in the string.
    std::string s = "prefix ";
    JsonWriter w(s);
    w.begin_array().value(1);
    s.clear();
    w.value(2).end_array();
    CHECK(s == ",2]");
}

TEST_CASE("json writer: frames, null members, raw values, number arrays", "[json_writer]") {
    std::string s;
    JsonWriter w(s);
    Frame bind;
    bind.bind = true;
    Frame f7;
    f7.number = 7;
    w.begin_object().key("f").frame(bind).key("g").frame(f7).member_or_null("clip", false, "x").member_or_null("c2", true, "y");
    w.key("raw").raw(R"({"q":[1,2]})");
    const float v[3] = {0.1f, -2.5f, 1e-30f};
    w.number_array("v", 3, [&](std::size_t i) { return v[i]; }).number_array("e", 0, [](std::size_t) { return 0; }).end_object();
    CHECK(s == R"({"f":"bind","g":7,"clip":null,"c2":"y","raw":{"q":[1,2]},"v":[0.1,-2.5,1e-30],"e":[]})");
}

TEST_CASE("json writer: escapes read back to the text written", "[json_writer]") {
    std::string text = "quote\" backslash\\ nl\n cr\r tab\t bell\x07 nul";
    text.push_back('\0');
    text += " <script></script>&amp; \xE2\x80\xA8 \xE2\x80\xA9 \xC3\xA9";
    for (bool html : {false, true}) {
        std::string s;
        JsonWriter w(s, html);
        w.begin_object().member("s", text).key_escaped(text).value(1).end_object();
        const nlohmann::json j = nlohmann::json::parse(s);
        CHECK(j["s"].get<std::string>() == text);
        CHECK(j[text].get<int>() == 1);
        // No raw control byte in the document.
        for (char c : s) CHECK(static_cast<unsigned char>(c) >= 0x20);
        if (html) {
            // Nothing that could end the script element or a JavaScript line.
            CHECK(s.find('<') == std::string::npos);
            CHECK(s.find('>') == std::string::npos);
            CHECK(s.find('&') == std::string::npos);
            CHECK(s.find("\xE2\x80\xA8") == std::string::npos);
            CHECK(s.find("\xE2\x80\xA9") == std::string::npos);
            CHECK(s.find("\\u2028") != std::string::npos);
            CHECK(s.find("\xC3\xA9") != std::string::npos);  // other UTF-8 is left as it is
        } else {
            // Plain JSON keeps them (the files rigscope wrote before stay byte-identical).
            CHECK(s.find("<script>") != std::string::npos);
            CHECK(s.find("\\n") != std::string::npos);
            CHECK(s.find("\\u0007") != std::string::npos);
        }
    }
}

TEST_CASE("json writer: floats and doubles round-trip in their shortest text", "[json_writer]") {
    std::mt19937 rng(28);
    std::uniform_int_distribution<std::uint32_t> bits32;
    std::uniform_int_distribution<std::uint64_t> bits64;
    std::vector<float> fs = {0.0f, -0.0f, 1.0f, 0.1f, 1.0f / 3.0f, std::numeric_limits<float>::min(), std::numeric_limits<float>::max(),
                             std::numeric_limits<float>::denorm_min()};
    std::vector<double> ds = {0.1, 1.0 / 3.0, 1e300, std::numeric_limits<double>::denorm_min()};
    while (fs.size() < 2000) {
        const std::uint32_t u = bits32(rng);
        float f;
        std::memcpy(&f, &u, 4);
        if (std::isfinite(f)) fs.push_back(f);
    }
    while (ds.size() < 2000) {
        const std::uint64_t u = bits64(rng);
        double d;
        std::memcpy(&d, &u, 8);
        if (std::isfinite(d)) ds.push_back(d);
    }
    std::string s;
    JsonWriter w(s);
    w.begin_object().number_array("f", fs.size(), [&](std::size_t i) { return fs[i]; });
    w.number_array("d", ds.size(), [&](std::size_t i) { return ds[i]; }).end_object();
    const nlohmann::json j = nlohmann::json::parse(s);
    for (std::size_t i = 0; i < ds.size(); ++i) CHECK(j["d"][i].get<double>() == ds[i]);
    // Floats are written as the shortest text that reads back as the same float, so read the
    // text with strtof (through a double could round twice).
    const std::size_t open = s.find('[') + 1, close = s.find(']');
    const std::string list = s.substr(open, close - open);
    std::size_t at = 0;
    for (std::size_t i = 0; i < fs.size(); ++i) {
        const std::size_t end = std::min(list.find(',', at), list.size());
        const float back = std::strtof(list.substr(at, end - at).c_str(), nullptr);
        CHECK(std::memcmp(&back, &fs[i], 4) == 0);
        at = end + 1;
    }
    CHECK(s.find("\"f\":[0,-0,1,0.1,") != std::string::npos);  // shortest: 0.1f is "0.1", not 0.100000001
}

TEST_CASE("json writer: the header every output opens with", "[json_writer]") {
    std::string s;
    JsonWriter w(s);
    w.begin_object();
    write_json_header(w, "tension", "a \"b\".glb");
    w.member("x", 1).end_object();
    const nlohmann::json j = nlohmann::json::parse(s);
    CHECK(j[std::string(json_keys::rigscope)].is_string());
    CHECK(j["command"] == "tension");
    CHECK(j["input"] == "a \"b\".glb");
    CHECK(s.rfind(R"({"rigscope":")", 0) == 0);
    std::string d;
    JsonWriter wd(d);
    wd.begin_object();
    write_json_header(wd, "diff", "old.glb", "new.glb");
    wd.end_object();
    const nlohmann::json jd = nlohmann::json::parse(d);
    CHECK(jd["input"]["old"] == "old.glb");
    CHECK(jd["input"]["new"] == "new.glb");
}
