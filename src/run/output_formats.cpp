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
        {"regions", {"csv", "json", "usda", "gltf"}, "csv", false, FormatByName::extension},
        {"bake", {"png", "exr"}, "", false, FormatByName::image},
        {"lint", {"text", "json"}, "text", false, FormatByName::text},
        {"info", {"text", "json"}, "text", false, FormatByName::json_flag},
    };
    return t;
}

}  // namespace

const VerbFormats& verb_formats(const std::string& verb) {
    for (const VerbFormats& v : table())
        if (verb == v.verb) return v;
    throw internal_error("no output formats for verb '" + verb + "'");
}

namespace {

// An extension as a message says it: "txt" for extension_format's ".txt".
std::string said(const std::string& ext) { return ext[0] == '.' ? ext.substr(1) : ext; }

// lint: a text report under a .json name (or JSON under .txt) is a slip, refused with the name.
std::string text_or_json(const std::string& format, const std::string& out) {
    const std::string ext = extension_format(out);  // "" for none or stdout
    const bool text_name = ext.empty() || ext == ".txt" || ext == ".log", json_name = ext.empty() || ext == "json";
    const std::string chosen = !format.empty() ? format : ext == "json" ? "json" : "text";
    if (chosen == "json" ? !json_name : !text_name)
        throw Error(kExitUsage, out + ": the extension says " + said(ext) + " but lint writes " + chosen +
                                    (format.empty() ? " (name it .txt or .json)" : " as --format says (rename the output or drop --format)"));
    return chosen;
}

}  // namespace

std::string verb_output_format(const std::string& verb, const std::string& format, const std::string& out) {
    const VerbFormats& v = verb_formats(verb);
    if (v.optional_output && out.empty()) return "";
    switch (v.by_name) {
        case FormatByName::checked: return output_format(format, out, v.fallback);
        case FormatByName::extension: {
            if (!format.empty()) return format;
            const std::string f = extension_format(out);
            return f.empty() ? v.fallback : f;
        }
        case FormatByName::image: {
            if (!format.empty()) return format;
            const std::string e = extension_format(out);
            return e == ".png" ? "png" : e == ".exr" ? "exr" : "";
        }
        case FormatByName::text: return text_or_json(format, out);
        case FormatByName::json_flag: {
            // -o info.json asks for JSON as plainly as --json does.
            const std::string ext = extension_format(out);
            if (format == "json" && !ext.empty() && ext != "json")
                throw Error(kExitUsage, out + ": the extension says " + said(ext) + " but --json says json");
            return format == "json" || ext == "json" ? "json" : "text";
        }
    }
    throw internal_error("verb_output_format: no rule for " + verb);
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
