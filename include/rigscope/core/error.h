// Errors that end a run, each with the documented exit code it maps to.
#pragma once

#include <stdexcept>
#include <string>

namespace rigscope {

// Exit codes, documented in docs/exit_codes.md (a summary in the README).
enum Exit : int {
    kExitOk = 0,
    kExitCheckFailed = 1,   // `check` found a vertex past a limit
    kExitUsage = 2,         // bad command line or rig description
    kExitBadInput = 3,      // unreadable or invalid input file
    kExitCannotWrite = 4,   // output cannot be written
    kExitMismatch = 5,      // inputs that do not fit together
    kExitInternal = 6,      // a broken invariant: a bug in rigscope, not the input's fault
};

// A one-line, user-facing failure: the message names the file and the problem.
class Error : public std::runtime_error {
public:
    Error(int exit_code, const std::string& message) : std::runtime_error(message), code_(exit_code) {}
    int code() const { return code_; }

private:
    int code_;
};

inline Error bad_input(const std::string& path, const std::string& problem) {
    return Error(kExitBadInput, path + ": " + problem);
}

// A broken invariant: says "internal error" instead of blaming the input.
inline Error internal_error(const std::string& what) { return Error(kExitInternal, "internal error: " + what); }

}  // namespace rigscope
