// Strict reading of a rig file: every problem is reported with its JSON path, because a rig is
// written by hand and a silently ignored typo ("travle") would leave a control undriven.
#include <cmath>
#include <fstream>
#include <sys/stat.h>
#include <nlohmann/json.hpp>
#include <sstream>

#include "rigscope/core/error.h"
#include "rigscope/io/rig_reader.h"

namespace rigscope {

namespace {

using nlohmann::json;

class Reader {
public:
    explicit Reader(std::string source) : source_(std::move(source)) {}

    [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
        throw Error(kExitUsage, source_ + ": " + path + ": " + problem);
    }

    // Rejects keys outside `allowed` and reports missing `required` ones, in a fixed order so
    // the message does not depend on the file's key order.
    void keys(const json& j, const std::string& path, std::initializer_list<const char*> allowed,
              std::initializer_list<const char*> required) const {
        if (!j.is_object()) fail(path, std::string("expected an object, got ") + j.type_name());
        for (auto it = j.begin(); it != j.end(); ++it) {
            bool ok = false;
            for (const char* a : allowed) ok = ok || it.key() == a;
            if (!ok) {
                std::string list;
                for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
                fail(join(path, it.key()), "unknown key (allowed here: " + list + ")");
            }
        }
        for (const char* r : required)
            if (!j.contains(r)) fail(join(path, r), "missing");
    }

    std::string string(const json& j, const std::string& path) const {
        if (!j.is_string()) fail(path, std::string("expected a string, got ") + j.type_name());
        std::string s = j.get<std::string>();
        if (s.empty()) fail(path, "expected a non-empty string");
        return s;
    }

    SignedAxis axis(const json& j, const std::string& path) const {
        const char* expected = "expected a string like \"+x\" or \"-z\"";
        if (!j.is_string()) fail(path, expected);
        const std::string s = j.get<std::string>();
        if (s.size() != 2 || (s[0] != '+' && s[0] != '-') || s[1] < 'x' || s[1] > 'z') fail(path, expected + (", got \"" + s + "\""));
        return SignedAxis{s[1] - 'x', s[0] == '+' ? 1 : -1};
    }

    double number(const json& j, const std::string& path, int sign) const {
        const char* what = sign > 0 ? "expected a positive number" : "expected a negative number";
        if (!j.is_number()) fail(path, std::string(what) + ", got " + j.type_name());
        const double v = j.get<double>();
        if (!(sign > 0 ? v > 0 : v < 0) || !std::isfinite(v)) fail(path, what);
        return v;
    }

    Travel travel(const json& j, const std::string& path) const {
        if (j.is_number()) {
            const double h = number(j, path, +1);
            return Travel{-h, h};
        }
        if (!j.is_object()) fail(path, std::string("expected a half-travel (positive number) or {\"min\", \"max\"}, got ") + j.type_name());
        keys(j, path, {"min", "max"}, {"min", "max"});
        return Travel{number(j["min"], path + ".min", -1), number(j["max"], path + ".max", +1)};
    }

    RigControl control(const json& j, const std::string& path) const {
        keys(j, path, {"name", "node", "axes", "travel", "mesh", "targets"}, {"node", "axes", "travel", "mesh", "targets"});
        RigControl c;
        c.node = string(j["node"], path + ".node");
        c.name = j.contains("name") ? string(j["name"], path + ".name") : c.node;
        c.mesh = string(j["mesh"], path + ".mesh");

        const json& axes = j["axes"];
        keys(axes, path + ".axes", {"x", "y"}, {"x", "y"});
        c.axes[0] = axis(axes["x"], path + ".axes.x");
        c.axes[1] = axis(axes["y"], path + ".axes.y");
        if (c.axes[0].index == c.axes[1].index) fail(path + ".axes", "x and y must be different axes of the node");

        const json& travel = j["travel"];
        if (travel.is_object() && !travel.contains("min") && !travel.contains("max")) {
            keys(travel, path + ".travel", {"x", "y"}, {"x", "y"});
            c.travel[0] = this->travel(travel["x"], path + ".travel.x");
            c.travel[1] = this->travel(travel["y"], path + ".travel.y");
        } else if (travel.is_number()) {
            c.travel[0] = c.travel[1] = this->travel(travel, path + ".travel");
        } else if (travel.is_object()) {
            fail(path + ".travel", "expected {\"x\": ..., \"y\": ...} per axis or one half-travel number for both");
        } else {
            fail(path + ".travel", std::string("expected a half-travel (positive number) or {\"x\", \"y\"}, got ") + travel.type_name());
        }

        const json& targets = j["targets"];
        keys(targets, path + ".targets", {kCornerNames[0], kCornerNames[1], kCornerNames[2], kCornerNames[3]}, {});
        bool any = false;
        for (int k = 0; k < 4; ++k)
            if (targets.contains(kCornerNames[k])) {
                c.targets[k] = string(targets[kCornerNames[k]], path + ".targets." + kCornerNames[k]);
                any = true;
            }
        if (!any) fail(path + ".targets", "names no target (give at least one of up_left, up_right, down_left, down_right)");
        return c;
    }

    Rig rig(const json& j) const {
        keys(j, "", {"$schema", "version", "controls"}, {"controls"});
        if (j.contains("$schema") && !j["$schema"].is_string()) fail("$schema", "expected a string");
        if (j.contains("version") && !(j["version"].is_number_integer() && j["version"].get<long>() == 1))
            fail("version", "expected 1 (the only version there is)");
        const json& controls = j["controls"];
        if (!controls.is_array()) fail("controls", std::string("expected an array, got ") + controls.type_name());
        if (controls.empty()) fail("controls", "expected at least one control");
        Rig rig;
        rig.source = source_;
        for (std::size_t i = 0; i < controls.size(); ++i)
            rig.controls.push_back(control(controls[i], "controls[" + std::to_string(i) + "]"));
        return rig;
    }

private:
    static std::string join(const std::string& path, const std::string& key) {
        return path.empty() ? key : path + "." + key;
    }
    std::string source_;
};

}  // namespace

Rig parse_rig(const std::string& text, const std::string& source) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        // nlohmann's text starts with "[json.exception.parse_error.101] "; the rest is the news.
        std::string what = e.what();
        if (auto close = what.find("] "); close != std::string::npos) what = what.substr(close + 2);
        throw Error(kExitUsage, source + ": not valid JSON: " + what);
    }
    if (!j.is_object()) throw Error(kExitUsage, source + ": expected a JSON object with \"controls\"");
    return Reader(source).rig(j);
}

Rig read_rig(const std::string& path) {
    // An ifstream opens a folder and reads nothing from it, which parsed as "not valid JSON".
    struct stat st {};
    if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        throw Error(kExitUsage, path + ": is a directory, not a rig file (--rig RIG.json, docs/rig.md)");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(kExitUsage, path + ": cannot read the rig file");
    std::ostringstream ss;
    ss << in.rdbuf();
    return parse_rig(ss.str(), path);
}

}  // namespace rigscope
