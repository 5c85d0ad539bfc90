// Files finished (flushed, synced, closed: OutputFile::finish) on threads of their own while the
// run goes on. fsync waits for the disk, not a core: a run that writes many files (bake's image
// per frame and mesh) otherwise spends its threads' time waiting there one file at a time, and
// the disk's journal commits files synced side by side together.
#pragma once

#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

#include "rigscope/io/output.h"

namespace rigscope {

class BackgroundFinish {
public:
    BackgroundFinish() = default;
    BackgroundFinish(const BackgroundFinish&) = delete;
    BackgroundFinish& operator=(const BackgroundFinish&) = delete;
    ~BackgroundFinish();
    // Waits for the files given before (rethrowing the first error one met), then finishes
    // `files` on up to kThreads threads, returning at once. Nothing else may touch them until
    // wait().
    void start(std::vector<OutputFile*> files);
    // Returns once every file given is finished; rethrows the first error one met.
    void wait();

private:
    static constexpr std::size_t kThreads = 16;
    std::vector<OutputFile*> files_;
    std::vector<std::thread> threads_;
    std::vector<std::exception_ptr> errors_;  // per thread
};

}  // namespace rigscope
