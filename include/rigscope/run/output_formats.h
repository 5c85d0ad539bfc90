// The formats each verb writes, in one table, and the one function that picks a run's format from
// --format and its output's path (issue 61 item 3): the CLI, a batch (each file's name by
// placeholder) and Python decide by it, and validate() refuses a format by the same table.
#pragma once

#include <string>
#include <vector>

namespace rigscope {

// How a verb's output names its format when --format does not (verb_output_format).
enum class FormatByName {
    checked,    // output_format's rule (io/output.h): a known extension, refused when it disagrees
    extension,  // regions: --format, else the extension as named (".xyz" too: validate() refuses it by the table), else the fallback
    image,      // bake: --format, else .png or .exr, else "" (validate() asks for one)
    text,       // lint: text or json; a .txt or .log name is text, .json json, and one that disagrees is refused
    json_flag,  // info: --json (format "json") or a .json name; --json with another extension is refused
};

struct VerbFormats {
    const char* verb;
    std::vector<std::string> formats;  // in the order its refusal lists them
    // Written when neither --format nor -o's extension says ("" for bake, which needs one).
    const char* fallback;
    // The output is optional: without -o the verb writes its report only (diff), format "".
    bool optional_output = false;
    FormatByName by_name = FormatByName::checked;
};

// The row of `verb` (tension, deform, volume, intersect, rivet, drive, diff, regions, bake, lint, info).
// Throws internal_error for another.
const VerbFormats& verb_formats(const std::string& verb);

// --format, else -o's extension, else the verb's fallback, by the verb's rule (FormatByName):
// for tension, deform, volume, intersect, rivet, drive and diff output_format's (a known
// extension that disagrees with --format, an unknown one alone and a .gltf name are refused,
// exit 2; diff without -o: ""); regions, bake, lint and info as their rows say. info's --json
// is format "json" here; it writes "json" or "text".
std::string verb_output_format(const std::string& verb, const std::string& format, const std::string& out);

// "a, b or c": choices as messages and --help list them.
std::string or_list(const std::vector<std::string>& choices);

// Throws Error (usage) "VERB writes a, b or c, not FORMAT" when `verb` does not write `format`.
void check_verb_format(const std::string& verb, const std::string& format);

}  // namespace rigscope
