// What an output's name promises, checked before any work (issue 57 item 5): a JUnit report
// named x.json, a summary merged into m.xml or a page named p.csv would put one format under
// another's extension, which the next tool (a CI server, a spreadsheet) then misreads.
#pragma once

#include <string>

namespace rigscope {

// The format a file name's extension names, lower case: "csv", "json", "xml", "html", "gltf"
// (.glb, .gltf), "usd" (.usd, .usda, .usdc, .usdz), or the extension itself for the other
// formats rigscope reads (fbx, dae, obj, ply, pc2, mdd); "" for no extension or one that names
// no machine format (.txt, .out: the user's choice).
std::string named_format(const std::string& path);

// Throws Error (exit 2) when `path`'s extension names a format other than `format` (one of the
// names above), naming the option, both formats and the extension to use. No extension, or one
// rigscope gives no meaning (report.out), is taken as the user's choice. "-" and descriptors pass.
void refuse_other_format_extension(const std::string& option, const std::string& path, const std::string& format);

// The same for the options every verb names alike: --junit (xml), --json (json), --html (html).
// Other options pass (their verb decides their format).
void refuse_misnamed_output(const std::string& option, const std::string& path);

// Throws Error (exit 4), before any work, when `path` cannot be made: its folder is missing (and
// not made by a placeholder rule), not a folder, or refuses a new file (a probe file is made and
// removed at once, so read-only mounts and permissions are both seen). Descriptors, stdout and
// an existing device or FIFO pass.
void refuse_unwritable_output(const std::string& option, const std::string& path);

}  // namespace rigscope
