// Results as they happen (issue 57 item 3): the pieces run_batch streams with. Private to the
// run layer (batch_run.cpp); docs/farm.md "Streaming and interruption" says what a user sees.
#pragma once

#include <csignal>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "rigscope/core/read_file.h"
#include "rigscope/run/batch.h"

namespace rigscope {

// A CSV or JSONL summary written row by row: made at the start (header only; a temporary renamed
// over any old file, so the old one is replaced whole, never truncated in place), then each
// row appended with one write() and no buffering, so a reader of the file sees whole rows only.
// A JSONL summary ends with its end line (batch_summary_jsonl_end): without it the run did not
// end (killed by SIGKILL, the machine stopped).
class LiveSummary {
public:
    LiveSummary(const std::string& path, const std::vector<ReadFile>& inputs);
    ~LiveSummary();
    LiveSummary(const LiveSummary&) = delete;
    LiveSummary& operator=(const LiveSummary&) = delete;
    // True when `path` is a summary written this way (.csv, .jsonl).
    static bool streams(const std::string& path);
    void row(const BatchFileResult& f);
    // The JSONL end line; the file synced and closed. Throws Error (exit 4).
    void end(const BatchResult& r);

private:
    void put(const std::string& text);
    std::string path_;
    bool jsonl_ = false;
    int fd_ = -1;
};

// SIGINT, SIGTERM and SIGHUP while it lives: `handle(signal)` runs on a thread of its own (a
// signal handler may not allocate or write files; it only wakes that thread through a pipe), and
// is expected to end the process. The handlers before it are restored when it is destroyed.
class BatchSignals {
public:
    explicit BatchSignals(std::function<void(int)> handle);
    ~BatchSignals();
    BatchSignals(const BatchSignals&) = delete;
    BatchSignals& operator=(const BatchSignals&) = delete;

private:
    struct sigaction old_[3] {};
    std::thread watcher_;
};

// "SIGTERM" for SIGTERM, and so on.
std::string signal_name(int sig);

// Removes every temporary, restores the default action and raises `sig` again: the process ends
// by the signal (exit 128 + sig in a shell), as an interrupted single run does.
[[noreturn]] void end_by_signal(int sig);

// Test-only hold point: with RIGSCOPE_TEST_HOLD_BEFORE_FILE=I:MARKER in the environment, a batch
// about to start its file I (0-based, input order) first waits until every file before it is
// done and streamed, then creates MARKER and waits for a signal. tests/cli/batch_stream.sh
// observes the streamed rows and signals the run there, at a known point on a machine of any
// speed. test_hold_file() says which file (false: none); hold_for_test() does the rest.
bool test_hold_file(std::size_t& index);
[[noreturn]] void hold_for_test();

}  // namespace rigscope
