// The formats each verb writes (run/output_formats.h).
#include "rigscope/run/output_formats.h"

#include <algorithm>

#include "rigscope/core/error.h"
#include "rigscope/io/output.h"

namespace rigscope {

namespace {

const std::vector<VerbFormats>& table() {
    static const std::vector<VerbFormats> t = {
        {"tension", {"csv", "json", "gltf", "usda", "abc"}, "csv"},
        {"deform", {"csv", "json", "usda", "abc"}, "csv"},
        {"volume", {"json", "csv"}, "csv"},
        {"intersect", {"json", "csv"}, "json"},
        {"rivet", {"json", "csv", "gltf"}, "json"},
        {"drive", {"csv", "json", "gltf"}, "csv"},
        {"diff", {"csv", "json", "gltf"}, "csv", true},
        {"regions", {"csv", "json", "usda", "gltf"}, "csv"},
        {"bake", {"png", "exr"}, ""},
    };
    return t;
}

}  // namespace

const VerbFormats& verb_formats(const std::string& verb) {
    for (const VerbFormats& v : table())
        if (verb == v.verb) return v;
    throw internal_error("no output formats for verb '" + verb + "'");
}

std::string verb_output_format(const std::string& verb, const std::string& format, const std::string& out) {
    const VerbFormats& v = verb_formats(verb);
    if (v.optional_output && out.empty()) return "";
    return output_format(format, out, v.fallback);
}

std::string or_list(const std::vector<std::string>& choices) {
    std::string s;
    for (std::size_t i = 0; i < choices.size(); ++i) s += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
    return s;
}

void check_verb_format(const std::string& verb, const std::string& format) {
    const VerbFormats& v = verb_formats(verb);
    if (std::find(v.formats.begin(), v.formats.end(), format) != v.formats.end()) return;
    throw Error(kExitUsage, verb + " writes " + or_list(v.formats) + ", not " + format);
}

}  // namespace rigscope
