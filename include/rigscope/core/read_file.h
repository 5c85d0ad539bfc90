// A file a run reads, and how it came to read it: the command line names it, or a file it reads
// names it (a USD sublayer, reference or payload, a glTF's buffer file, a frame of a cache
// sequence). Outputs are never written over one (io/output.h), and a refusal says how the run
// reached the file, since the user may not know that the input reads it.
#pragma once

#include <string>
#include <utility>

namespace rigscope {

struct ReadFile {
    std::string path;  // as opened (a relative path against the working folder)
    std::string how;   // "" for a file the command line names; else "subLayers names @layout.usda@ in shot.usda"
    // From a path alone (implicit: a list of the command's own inputs is built from paths).
    ReadFile(std::string p) : path(std::move(p)) {}  // NOLINT(google-explicit-constructor)
    ReadFile(const char* p) : path(p) {}             // NOLINT(google-explicit-constructor)
    ReadFile(std::string p, std::string h) : path(std::move(p)), how(std::move(h)) {}
};

}  // namespace rigscope
