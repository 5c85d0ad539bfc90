#include "batch_stream.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

#include "rigscope/core/error.h"
#include "rigscope/io/output.h"

namespace rigscope {

namespace {

std::string lower_extension(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

// The self-pipe a signal handler wakes the watcher through: write() is async-signal-safe.
int g_pipe[2] = {-1, -1};
std::atomic<int> g_signal{0};
constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};

void on_batch_signal(int sig) {
    g_signal.store(sig);
    const int saved = errno;
    const char c = 's';
    [[maybe_unused]] const ssize_t n = write(g_pipe[1], &c, 1);
    errno = saved;
}

}  // namespace

bool LiveSummary::streams(const std::string& path) {
    const std::string ext = lower_extension(path);
    return ext == ".csv" || ext == ".jsonl";
}

LiveSummary::LiveSummary(const std::string& path, const std::vector<ReadFile>& inputs) : path_(path) {
    jsonl_ = lower_extension(path) == ".jsonl";
    {
        // The old summary replaced whole, at once, by the new one's header.
        OutputFile first(path, inputs);
        if (!jsonl_) first.write(batch_summary_csv_header());
        first.commit();
    }
    fd_ = open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd_ < 0) throw Error(kExitCannotWrite, path + ": cannot write: " + std::strerror(errno));
}

LiveSummary::~LiveSummary() {
    if (fd_ >= 0) close(fd_);
}

void LiveSummary::put(const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw Error(kExitCannotWrite, path_ + ": write failed: " + std::strerror(n < 0 ? errno : ENOSPC));
        done += static_cast<std::size_t>(n);
    }
}

void LiveSummary::row(const BatchFileResult& f) { put(jsonl_ ? batch_summary_jsonl_row(f) : batch_summary_csv_row(f)); }

void LiveSummary::end(const BatchResult& r) {
    if (fd_ < 0) return;
    if (jsonl_) put(batch_summary_jsonl_end(r));
    if (fsync(fd_) != 0 && errno != EINVAL) throw Error(kExitCannotWrite, path_ + ": write failed: " + std::strerror(errno));
    const int rc = close(fd_);
    fd_ = -1;
    if (rc != 0) throw Error(kExitCannotWrite, path_ + ": write failed: " + std::strerror(errno));
}

BatchSignals::BatchSignals(std::function<void(int)> handle) {
    if (pipe2(g_pipe, O_CLOEXEC) != 0) throw Error(kExitInternal, std::string("batch: cannot make the signal pipe: ") + std::strerror(errno));
    struct sigaction sa {};
    sa.sa_handler = on_batch_signal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &sa, &old_[i]);
    watcher_ = std::thread([handle = std::move(handle)] {
        for (;;) {
            char c = 0;
            const ssize_t n = read(g_pipe[0], &c, 1);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0 || c == 'q') return;
            handle(g_signal.load());
        }
    });
}

BatchSignals::~BatchSignals() {
    // The handlers before (temporaries removed, the process ended) take over first: a signal
    // from here on finds the batch done.
    for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &old_[i], nullptr);
    const char c = 'q';
    [[maybe_unused]] const ssize_t n = write(g_pipe[1], &c, 1);
    watcher_.join();
    close(g_pipe[0]);
    close(g_pipe[1]);
    g_pipe[0] = g_pipe[1] = -1;
}

std::string signal_name(int sig) {
    switch (sig) {
        case SIGINT: return "SIGINT";
        case SIGTERM: return "SIGTERM";
        case SIGHUP: return "SIGHUP";
        default: return "signal " + std::to_string(sig);
    }
}

void end_by_signal(int sig) {
    OutputFile::remove_temporaries();
    signal(sig, SIG_DFL);
    raise(sig);
    _exit(128 + sig);  // raise() returns only if the signal is blocked in this thread
}

bool test_hold_file(std::size_t& index) {
    const char* spec = std::getenv("RIGSCOPE_TEST_HOLD_BEFORE_FILE");
    if (spec == nullptr || *spec == '\0') return false;
    char* end = nullptr;
    const unsigned long at = std::strtoul(spec, &end, 10);
    if (end == spec || *end != ':') return false;
    index = at;
    return true;
}

void hold_for_test() {
    const char* spec = std::getenv("RIGSCOPE_TEST_HOLD_BEFORE_FILE");
    const char* marker = spec ? std::strchr(spec, ':') : nullptr;
    if (marker) {
        const int fd = open(marker + 1, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0) close(fd);
    }
    for (;;) pause();
}

}  // namespace rigscope
