#include "rigscope/io/output.h"

#include <cctype>
#include <cerrno>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <charconv>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/un.h>
#include <unistd.h>

#include <vector>

#include "rigscope/core/error.h"

namespace rigscope {

namespace {

// Temporaries live in fixed buffers so the signal handler can unlink them without allocating.
// A slot is claimed with a compare-and-swap: batch runs (--jobs) open outputs on several threads
// at once, and two of them must never take one slot. Lock-free atomics are safe to read in a
// signal handler; a slot is unlinked there only once its path is whole (kUsed).
constexpr int kSlots = 1024;
char g_temp_paths[kSlots][1024];
enum : int { kFree = 0, kClaiming = 1, kUsed = 2 };
std::atomic<int> g_slot_state[kSlots];
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads the slots");

int claim_slot(const std::string& path) {
    if (path.size() >= sizeof g_temp_paths[0]) return -1;
    for (int i = 0; i < kSlots; ++i) {
        int expected = kFree;
        if (g_slot_state[i].compare_exchange_strong(expected, kClaiming)) {
            std::memcpy(g_temp_paths[i], path.c_str(), path.size() + 1);
            g_slot_state[i].store(kUsed);
            return i;
        }
    }
    return -1;
}

void release_slot(int slot) {
    if (slot >= 0) g_slot_state[slot].store(kFree);
}

void on_signal(int sig) {
    for (int i = 0; i < kSlots; ++i)
        if (g_slot_state[i].load() == kUsed) unlink(g_temp_paths[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

// Test-only pause point: with RIGSCOPE_TEST_HOLD_AT_COMMIT=MARKER in the environment, the first
// commit of the process creates MARKER and waits for a signal with every temporary written and
// none renamed. tests/cli/batch/interrupt.sh signals the run there, at a known point whatever the
// machine's speed (a timed wait would let a fast machine finish first).
void hold_for_test_signal() {
    static bool held = false;
    const char* marker = std::getenv("RIGSCOPE_TEST_HOLD_AT_COMMIT");
    if (held || marker == nullptr || *marker == '\0') return;
    held = true;
    const int fd = open(marker, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) close(fd);
    for (;;) pause();
}

std::string describe_errno(int err) {
    if (err == EFBIG) return "file size limit reached";
    if (err == ENOSPC) return "no space left on device";
    return std::strerror(err);
}

}  // namespace

void OutputFile::remove_temporaries() {
    for (int i = 0; i < kSlots; ++i)
        if (g_slot_state[i].load() == kUsed) unlink(g_temp_paths[i]);
}

void OutputFile::install_signal_cleanup() {
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &sa, nullptr);
    // Past `ulimit -f` the kernel would kill us with SIGXFSZ mid-write; as EFBIG it is an
    // ordinary write error that removes the temporary and exits 4.
    signal(SIGXFSZ, SIG_IGN);
    // A closed pipe (`rigscope deform ... | head`) is an ordinary end, not a crash.
    signal(SIGPIPE, SIG_IGN);
}

void refuse_input_as_output(const std::string& output, const std::vector<ReadFile>& inputs) {
    struct stat out {};
    if (stat(output.c_str(), &out) != 0) return;
    for (const auto& in : inputs) {
        struct stat st {};
        if (stat(in.path.c_str(), &st) != 0 || st.st_dev != out.st_dev || st.st_ino != out.st_ino) continue;
        if (in.how.empty()) throw Error(kExitUsage, output + ": output path is an input file; refusing to overwrite it");
        // A file the input reads (a sublayer, a reference): the user may not know the run reads it.
        throw Error(kExitUsage, output + ": output path is " + in.path + ", which the run reads (" + in.how + "); refusing to overwrite it");
    }
}

void refuse_input_as_output(const std::string& output, const std::vector<std::string>& inputs) {
    refuse_input_as_output(output, std::vector<ReadFile>(inputs.begin(), inputs.end()));
}

namespace {

// The descriptor `path` names by its spelling alone.
int descriptor_named(const std::string& path) {
    if (path == "-" || path == "/dev/stdout") return STDOUT_FILENO;
    if (path == "/dev/stderr") return STDERR_FILENO;
    for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"}) {
        const std::size_t n = std::strlen(prefix);
        if (path.size() <= n || path.compare(0, n, prefix) != 0) continue;
        int fd = 0;
        const char* first = path.c_str() + n;
        const char* last = path.c_str() + path.size();
        const auto r = std::from_chars(first, last, fd);
        if (r.ec == std::errc() && r.ptr == last && fd >= 0) return fd;
    }
    return -1;
}

}  // namespace

int open_descriptor_of(const std::string& path) {
    // A symlink to one of those names (out.csv -> /proc/self/fd/1) is the descriptor too: each
    // link is read one step at a time, since following /proc/self/fd/1 itself would reach the
    // file the shell opened, and a temporary renamed over that file would replace what the
    // shell has written there before and after the run.
    std::string p = path;
    for (int hops = 0; hops < 40; ++hops) {
        if (const int fd = descriptor_named(p); fd >= 0) return fd;
        struct stat ls {};
        if (lstat(p.c_str(), &ls) != 0 || !S_ISLNK(ls.st_mode)) return -1;
        char buf[PATH_MAX];
        const ssize_t n = readlink(p.c_str(), buf, sizeof buf - 1);
        if (n <= 0) return -1;
        std::string target(buf, static_cast<std::size_t>(n));
        if (target[0] != '/') {
            const auto slash = p.find_last_of('/');
            if (slash != std::string::npos) target = p.substr(0, slash + 1) + target;
        }
        p = target;
    }
    return -1;
}

bool is_stdout_path(const std::string& path) { return open_descriptor_of(path) == STDOUT_FILENO; }

std::string extension_format(const std::string& out) {
    // The extension of the file name only: a dot in a folder name (v1.2/out) is not one.
    const auto slash = out.find_last_of('/');
    const auto dot = out.find_last_of('.');
    if (out.empty() || out == "-" || dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string ext = out.substr(dot + 1);
    for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (ext == "glb" || ext == "gltf") return "gltf";
    if (ext == "csv" || ext == "json" || ext == "usda" || ext == "abc") return ext;
    return "." + ext;
}

namespace {

// True when the file name of `out` ends in .gltf (any case).
bool named_gltf_text(const std::string& out) {
    const auto slash = out.find_last_of('/');
    std::string name = slash == std::string::npos ? out : out.substr(slash + 1);
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return name.size() > 5 && name.compare(name.size() - 5, 5, ".gltf") == 0;
}

}  // namespace

std::string output_format(const std::string& format, const std::string& out, const std::string& fallback) {
    const std::string chosen = output_format_unchecked(format, out, fallback);
    // rigscope writes glTF binary (GLB): a .gltf name promises JSON text with its buffers beside it.
    if (chosen == "gltf" && named_gltf_text(out))
        throw Error(kExitUsage, out + ": rigscope writes binary glTF; name the file .glb");
    return chosen;
}

std::string output_format_unchecked(const std::string& format, const std::string& out, const std::string& fallback) {
    const std::string by_name = extension_format(out);
    if (!format.empty()) {
        // A known extension that says otherwise is a slip (a .json file holding CSV), not a wish.
        if (!by_name.empty() && by_name[0] != '.' && by_name != format)
            throw Error(kExitUsage, out + ": the extension says " + by_name + " but --format says " + format + " (rename the output or drop --format)");
        // USD opens a .usdc as a binary crate and a .usdz as a zip package whatever they hold:
        // a text layer under either name is a file no USD tool opens.
        if (format == "usda" && (by_name == ".usdc" || by_name == ".usdz"))
            throw Error(kExitUsage, out + ": USD reads a " + by_name.substr(1) + " file as " +
                                        (by_name == ".usdc" ? "a binary crate" : "a zip package") +
                                        " but rigscope writes the layer as text (usda): name it .usda (usdcat converts it)");
        return format;
    }
    if (by_name.empty()) return fallback;
    if (by_name[0] == '.')
        throw Error(kExitUsage, out + ": cannot tell the format from the extension '" + by_name + "' (use --format)");
    return by_name;
}

std::string size_text(double bytes) {
    const char* units[] = {"bytes", "kB", "MB", "GB", "TB", "PB"};
    int u = 0;
    while (bytes >= 1000 && u < 5) {
        bytes /= 1000;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 || bytes >= 100 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
    return buf;
}

void check_free_space(const std::string& path, double bytes) {
    if (path.empty() || open_descriptor_of(path) >= 0) return;
    struct stat st {};
    if (stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) return;  // a device, FIFO or socket
    const auto slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash == 0 ? 1 : slash);
    struct statvfs fs {};
    if (statvfs(dir.c_str(), &fs) != 0) return;  // the output's own open names the problem
    // A folder that cannot be written at all (read-only file system, no permission) says so:
    // such a file system often reports no free space, which is not the user's problem.
    if (access(dir.c_str(), W_OK) != 0) throw Error(kExitCannotWrite, path + ": cannot write: " + describe_errno(errno));
    // An existing file is replaced only once the new one is complete: its space is not free
    // before then.
    const double free_bytes = double(fs.f_bavail) * double(fs.f_frsize);
    if (bytes <= free_bytes) return;
    throw Error(kExitCannotWrite, path + ": the output needs at least " + size_text(bytes) + " but its file system has " +
                                      size_text(free_bytes) + " free (choose fewer frames or vertices, or another folder)");
}

void refuse_empty_path(const std::string& option, const std::string& path) {
    if (path.empty())
        throw Error(kExitUsage, option + ": empty value (an unset variable?): give one, or drop the option");
}

namespace {

// `path` as an absolute path without "." or ".." parts, its folder resolved (symlinks) when it
// exists: two spellings of one output compare equal.
std::string normal_path(const std::string& path) {
    std::string abs = path;
    if (abs.empty() || abs[0] != '/') {
        char cwd[4096];
        if (getcwd(cwd, sizeof cwd) != nullptr) abs = std::string(cwd) + "/" + abs;
    }
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= abs.size()) {
        const std::size_t slash = std::min(abs.find('/', start), abs.size());
        const std::string part = abs.substr(start, slash - start);
        if (part == "..") {
            if (!parts.empty()) parts.pop_back();
        } else if (!part.empty() && part != ".") {
            parts.push_back(part);
        }
        start = slash + 1;
    }
    std::string dir;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) dir += "/" + parts[i];
    if (dir.empty()) dir = "/";
    char real[PATH_MAX];
    if (realpath(dir.c_str(), real) != nullptr) dir = real;
    return (dir == "/" ? "" : dir) + "/" + (parts.empty() ? "" : parts.back());
}

bool same_output(const std::string& a, const std::string& b) {
    const int fa = open_descriptor_of(a), fb = open_descriptor_of(b);
    if (fa >= 0 && fa == fb) return true;
    // Otherwise by the file itself: /dev/stdout and the file the shell redirected it to are one.
    struct stat sa {}, sb {};
    if (stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (fa >= 0 || fb >= 0) return false;
    return normal_path(a) == normal_path(b);
}

}  // namespace

void check_output_paths(const std::vector<std::pair<std::string, std::string>>& outputs) {
    for (const auto& [option, path] : outputs) refuse_empty_path(option, path);
    for (std::size_t i = 0; i < outputs.size(); ++i)
        for (std::size_t j = i + 1; j < outputs.size(); ++j)
            if (same_output(outputs[i].second, outputs[j].second))
                throw Error(kExitUsage, outputs[i].first + " " + outputs[i].second + " and " + outputs[j].first + " " + outputs[j].second +
                                            " name one file: each output needs its own");
}

namespace {

// Where a symlink `-o` points, followed link by link (the last target may not exist yet, so
// realpath() cannot do it): the file the user meant is the target, not the link.
std::string resolve_symlinks(const std::string& path) {
    std::string p = path;
    for (int hops = 0; hops < 40; ++hops) {
        struct stat ls {};
        if (lstat(p.c_str(), &ls) != 0 || !S_ISLNK(ls.st_mode)) return p;
        std::vector<char> buf(static_cast<std::size_t>(ls.st_size > 0 ? ls.st_size : 4096) + 1);
        const ssize_t n = readlink(p.c_str(), buf.data(), buf.size() - 1);
        if (n < 0) return p;
        std::string target(buf.data(), static_cast<std::size_t>(n));
        if (target.empty() || target[0] != '/') {
            const auto slash = p.find_last_of('/');
            if (slash != std::string::npos) target = p.substr(0, slash + 1) + target;
        }
        p = target;
    }
    throw Error(kExitCannotWrite, path + ": cannot write: too many levels of symbolic links");
}

// A socket cannot be open()ed: connect to it as a stream.
int connect_socket(const std::string& path) {
    sockaddr_un addr {};
    if (path.size() >= sizeof addr.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
        const int err = errno;
        close(fd);
        errno = err;
        return -1;
    }
    return fd;
}

}  // namespace

OutputFile::OutputFile(const std::string& path, const std::vector<std::string>& inputs)
    : OutputFile(path, std::vector<ReadFile>(inputs.begin(), inputs.end())) {}

OutputFile::OutputFile(const std::string& path, const std::vector<ReadFile>& inputs) : path_(path) {
    buffer_.reserve(kBlock + (kBlock >> 2));
    if (path.empty() || path == "-") {
        stdout_ = true;
        fd_ = STDOUT_FILENO;
        return;
    }
    refuse_input_as_output(path, inputs);
    // /dev/stdout, /dev/fd/N, /proc/self/fd/N: the descriptor as the shell opened it (appending
    // for >>), never a temporary renamed over the file behind the link.
    if (const int fd = open_descriptor_of(path); fd >= 0) {
        const int flags = fcntl(fd, F_GETFL);
        if (flags < 0) throw Error(kExitCannotWrite, path + ": cannot write: descriptor " + std::to_string(fd) + " is not open");
        if ((flags & O_ACCMODE) == O_RDONLY)
            throw Error(kExitCannotWrite, path + ": cannot write: descriptor " + std::to_string(fd) + " is open for reading only");
        stdout_ = true;
        fd_ = fd;
        return;
    }
    struct stat st {};
    const bool exists = stat(path.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) throw Error(kExitCannotWrite, path + ": is a directory");
    if (exists && !S_ISREG(st.st_mode)) {
        // A device, FIFO or socket is written in place: renaming a temporary over it would
        // replace the device node (as root, -o /dev/null would replace the system's).
        direct_ = true;
        fd_ = S_ISSOCK(st.st_mode) ? connect_socket(path) : open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
        if (fd_ < 0) throw Error(kExitCannotWrite, path + ": cannot write: " + describe_errno(errno));
        return;
    }
    // A symlink's target is replaced, atomically in the target's folder: renaming over the link
    // would turn it into a plain file.
    target_ = resolve_symlinks(path);
    const std::string& real = target_;
    auto slash = real.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : real.substr(0, slash == 0 ? 1 : slash);
    const std::string name = slash == std::string::npos ? real : real.substr(slash + 1);
    std::string templ = (slash == std::string::npos ? "" : real.substr(0, slash + 1)) + "." + name + ".rigscope-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    fd_ = mkstemp(buf.data());
    if (fd_ < 0) {
        const int err = errno;
        struct stat ds {};
        if (stat(dir.c_str(), &ds) != 0) throw Error(kExitCannotWrite, path + ": cannot write: folder '" + dir + "' does not exist");
        throw Error(kExitCannotWrite, path + ": cannot write: " + describe_errno(err));
    }
    temp_ = buf.data();
    fchmod(fd_, 0644);
    slot_ = claim_slot(temp_);
}

OutputFile::~OutputFile() {
    if (!stdout_ && fd_ >= 0) close(fd_);
    if (!committed_ && !temp_.empty()) unlink(temp_.c_str());
    release_slot(slot_);
}

void OutputFile::flush() {
    std::size_t done = 0;
    while (done < buffer_.size()) {
        ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int err = n < 0 ? errno : ENOSPC;
            if (stdout_ && err == EPIPE) {  // the reader went away: nothing more to say
                buffer_.clear();
                return;
            }
            throw Error(kExitCannotWrite, (path_ == "-" ? std::string("stdout") : path_) + ": write failed: " + describe_errno(err));
        }
        done += static_cast<std::size_t>(n);
    }
    buffer_.clear();
}

void OutputFile::overwrite(std::uint64_t offset, std::string_view bytes) {
    flush();
    const std::string name = path_ == "-" ? std::string("stdout") : path_;
    if (stdout_ || fd_ < 0) throw Error(kExitCannotWrite, name + ": cannot write this format to a stream (its header is written last)");
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::pwrite(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int err = n < 0 ? errno : ENOSPC;
            throw Error(kExitCannotWrite, name + ": " + (err == ESPIPE ? std::string("cannot write this format to a stream (its header is written last)")
                                                                       : "write failed: " + describe_errno(err)));
        }
        done += static_cast<std::size_t>(n);
    }
}

void OutputFile::finish() {
    flush();
    std::string().swap(buffer_);  // nothing more is written: a run that finishes many files keeps no buffers
    if (stdout_ || fd_ < 0) return;
    if (direct_) {
        // Devices, FIFOs and sockets: nothing to sync (fsync is EINVAL on most), only to close.
        const int rc = close(fd_);
        fd_ = -1;
        if (rc != 0 && errno != EINTR) throw Error(kExitCannotWrite, path_ + ": write failed: " + describe_errno(errno));
        return;
    }
    if (fsync(fd_) != 0 && errno != EINVAL)
        throw Error(kExitCannotWrite, path_ + ": write failed: " + describe_errno(errno));
    if (close(fd_) != 0) {
        fd_ = -1;
        throw Error(kExitCannotWrite, path_ + ": write failed: " + describe_errno(errno));
    }
    fd_ = -1;
}

OutputFile& OutputSet::open(const std::string& path) {
    auto file = std::make_unique<OutputFile>(path, inputs_);
    std::lock_guard<std::mutex> lock(mutex_);
    files_.push_back(std::move(file));
    return *files_.back();
}

void OutputSet::add(const std::string& path, std::string_view text) {
    OutputFile& f = open(path);
    f.write(text);
    f.finish();
}

std::size_t OutputSet::reserve(std::size_t count) {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::size_t first = files_.size();
    files_.resize(first + count);
    return first;
}

OutputFile& OutputSet::open_at(std::size_t index, const std::string& path) {
    // The file is checked and its temporary made before the lock: threads opening their own
    // slots wait on each other only to store a pointer.
    auto file = std::make_unique<OutputFile>(path, inputs_);
    std::lock_guard<std::mutex> lock(mutex_);
    if (index >= files_.size() || files_[index])
        throw internal_error(path + ": output slot " + std::to_string(index) + (index >= files_.size() ? " was not reserved" : " is open already"));
    files_[index] = std::move(file);
    return *files_[index];
}

void OutputSet::commit() {
    std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t k = 0; k < files_.size(); ++k)
        if (!files_[k]) throw internal_error("output slot " + std::to_string(k) + " of " + std::to_string(files_.size()) + " was reserved and never opened");
    for (auto& f : files_) f->finish();
    for (auto& f : files_) f->commit();
}

void OutputFile::commit() {
    finish();
    if (stdout_ || direct_) {
        committed_ = true;
        return;
    }
    hold_for_test_signal();
    if (rename(temp_.c_str(), target_.c_str()) != 0)
        throw Error(kExitCannotWrite, path_ + ": cannot rename temporary into place: " + describe_errno(errno));
    committed_ = true;
    release_slot(slot_);
    slot_ = -1;
}

void append_csv_field(std::string& out, std::string_view s) {
    if (s.find_first_of(",\"\n\r") == std::string_view::npos) {
        out.append(s);
        return;
    }
    out.push_back('"');
    for (char c : s) {
        if (c == '"') out.push_back('"');
        out.push_back(c);
    }
    out.push_back('"');
}

}  // namespace rigscope
