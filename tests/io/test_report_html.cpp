// HTML report page (src/io/writers/report_html.cpp): the encodings read back to the values written,
// within the precision the page states, and no text can end the data's script element.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

#include "rigscope/core/error.h"
#include "rigscope/io/report_html.h"

namespace fs = std::filesystem;
using namespace rigscope;

namespace {

std::string b64(const std::string& s) {
    std::string out;
    append_base64(out, reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
    return out;
}

// An independent decoder, as the page's atob does it.
std::vector<std::uint8_t> unb64(const std::string& s) {
    std::vector<std::uint8_t> out;
    std::uint32_t acc = 0;
    int bits = 0;
    for (char c : s) {
        int v = c >= 'A' && c <= 'Z' ? c - 'A' : c >= 'a' && c <= 'z' ? c - 'a' + 26 : c >= '0' && c <= '9' ? c - '0' + 52
              : c == '+' ? 62 : c == '/' ? 63 : -1;
        if (v < 0) continue;
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<std::uint8_t>(acc >> bits));
        }
    }
    return out;
}

std::string temp_path(const std::string& name) {
    return (fs::temp_directory_path() / ("rigscope_report_" + std::to_string(getpid()) + "_" + name)).string();
}

std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("base64 gives RFC 4648's test vectors", "[report]") {
    CHECK(b64("") == "");
    CHECK(b64("f") == "Zg==");
    CHECK(b64("fo") == "Zm8=");
    CHECK(b64("foo") == "Zm9v");
    CHECK(b64("foob") == "Zm9vYg==");
    CHECK(b64("fooba") == "Zm9vYmE=");
    CHECK(b64("foobar") == "Zm9vYmFy");
}

TEST_CASE("report page: positions and T read back within the stated precision", "[report]") {
    ReportData d;
    d.run.version = "test";
    d.run.input = "a</script><b>&.glb";  // must not end the data's script element
    d.frames = {Frame{false, 1, 1 / 24.0}, Frame{false, 2, 2 / 24.0}};
    d.shown = {0, 1};
    ReportMesh m;
    m.name = "m\"</SCRIPT>";
    m.vertex_count = 3;
    m.triangles = {0, 1, 2};
    m.motion = ReportMotion::Baked;
    m.rest = {0, 0, 0, 1, 0, 0, 0, 2, 0};
    m.positions = {0, 0, 0, 1.5f, 0, 0, 0, 2, 0.25f, 0.1f, 0, 0, 1, 0.3f, 0, 0, 1.9f, -0.5f};
    m.t = {1.0f, 0.5f, 1.9f, 1.25f, 0.8f, 1.0f};
    d.meshes.push_back(m);

    for (int bits : {8, 16}) {
        d.t_bits = bits;
        const std::string viewer = "<html><script type=\"application/json\">__RIGSCOPE_REPORT_DATA__</script></html>";
        const std::string path = temp_path("page.html");
        {
            OutputFile out(path);
            write_report_html(d, viewer, out);
            out.commit();
        }
        const std::string page = read(path);
        fs::remove(path);
        const std::string open = "<script type=\"application/json\">";
        const auto a = page.find(open) + open.size(), b = page.find("</script>", a);
        REQUIRE(b != std::string::npos);
        CHECK(b == page.size() - std::string("</script></html>").size());  // no earlier end of script
        const auto j = nlohmann::json::parse(page.substr(a, b - a));
        CHECK(j["input"] == d.run.input);
        CHECK(j["meshes"][0]["name"] == m.name);

        // T: steps of log T; the page states the worst relative error.
        const auto& e = j["t_encoding"];
        CHECK(e["bits"] == bits);
        const double err = e["relative_error"];
        CHECK(err < (bits == 8 ? 3e-3 : 1.2e-5));  // log range ln(1.9/0.5) = 1.335 over 255 or 65535 steps, halved
        const auto tb = unb64(j["meshes"][0]["t"]);
        REQUIRE(tb.size() == m.t.size() * bits / 8);
        for (std::size_t i = 0; i < m.t.size(); ++i) {
            const double q = bits == 8 ? tb[i] : tb[2 * i] | (tb[2 * i + 1] << 8);
            const double t = std::exp(double(e["log_lo"]) + q * double(e["log_step"]));
            CHECK(std::abs(t / m.t[i] - 1) <= err * (1 + 1e-6) + 1e-7);
        }

        // Positions: 16-bit steps of the mesh's box, within half a step per axis.
        const auto& jm = j["meshes"][0];
        const auto pb = unb64(jm["positions"]);
        REQUIRE(pb.size() == m.positions.size() * 2);
        for (std::size_t i = 0; i < m.positions.size(); ++i) {
            const double q = pb[2 * i] | (pb[2 * i + 1] << 8);
            const double step = jm["step"][i % 3], x = double(jm["origin"][i % 3]) + q * step;
            CHECK(std::abs(x - m.positions[i]) <= step / 2 + 1e-6);
        }
        const auto ib = unb64(jm["triangles"]);
        REQUIRE(ib.size() == 6);
        CHECK((ib[0] | ib[1] << 8) == 0);
        CHECK((ib[4] | ib[5] << 8) == 2);
    }
}

TEST_CASE("report viewer: a missing or foreign bundle is exit 3 naming it", "[report]") {
    const std::string missing = temp_path("no_such_viewer.html");
    ::unsetenv("RIGSCOPE_REPORT_BUNDLE");
    try {
        load_report_viewer(missing);
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.code() == kExitBadInput);
        CHECK(std::string(e.what()).find(missing) != std::string::npos);
    }
    const std::string two = temp_path("two_markers.html");
    std::ofstream(two) << "__RIGSCOPE_REPORT_DATA__ __RIGSCOPE_REPORT_DATA__";
    ::setenv("RIGSCOPE_REPORT_BUNDLE", two.c_str(), 1);  // the override wins over the build path
    CHECK_THROWS_AS(load_report_viewer(missing), Error);
    std::ofstream(two) << "<p>__RIGSCOPE_REPORT_DATA__</p>";
    CHECK(load_report_viewer(missing) == "<p>__RIGSCOPE_REPORT_DATA__</p>");
    ::unsetenv("RIGSCOPE_REPORT_BUNDLE");
    fs::remove(two);
}
