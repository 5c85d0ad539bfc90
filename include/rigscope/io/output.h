// Output files that never exist half-written: data goes to a temporary file beside the target,
// renamed over it only when the command succeeds. A signal (SIGINT, SIGTERM, SIGHUP) removes
// temporaries before the process ends. A symlink is followed and its target replaced (the
// temporary sits in the target's folder). An existing device, FIFO or socket is written in place,
// with no temporary and so no atomicity: renaming over it would replace the node itself.
#pragma once

#include <charconv>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rigscope/core/frames.h"
#include "rigscope/core/read_file.h"

namespace rigscope {

class OutputFile {
public:
    // path "-" writes to stdout (no temporary). Throws Error (exit 2) when path names one of
    // `inputs` (refuse_input_as_output), Error (exit 4) when the temporary cannot be created.
    OutputFile(const std::string& path, const std::vector<ReadFile>& inputs = {});
    OutputFile(const std::string& path, const std::vector<std::string>& inputs);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    // Text is gathered in a large buffer and written in blocks: callers append freely.
    std::string& buffer() { return buffer_; }
    void write(std::string_view s) {
        buffer_.append(s);
        if (buffer_.size() >= kBlock) flush();
    }
    void maybe_flush() {
        if (buffer_.size() >= kBlock) flush();
    }
    void flush();
    // Flushes, syncs and closes the temporary, leaving it in place for commit(): a command that
    // writes many files finishes them all before renaming any, so a failure leaves none.
    void finish();
    // Flushes, syncs and renames the temporary over the target. Throws Error (exit 4).
    void commit();
    const std::string& path() const { return path_; }
    // Flushes, then writes `bytes` at `offset` of the file (a header whose fields are known only
    // once the rest is written: Ogawa's root offset and frozen flag). A stream (stdout, a FIFO)
    // cannot go back: Error (exit 4), so callers refuse those outputs first.
    void overwrite(std::uint64_t offset, std::string_view bytes);

    // Installs the signal handlers that remove live temporaries (once, from main).
    static void install_signal_cleanup();
    // Removes every live temporary now, as those handlers do: for a caller that handles a signal
    // itself (an interrupted batch writes what it finished first, run/batch.h).
    static void remove_temporaries();

private:
    static constexpr std::size_t kBlock = 1 << 20;
    std::string path_;
    std::string target_;  // the file renamed over: path_, or the file a symlink path_ points to
    std::string temp_;
    bool direct_ = false;  // an existing device, FIFO or socket, written in place
    int fd_ = -1;
    bool stdout_ = false;
    bool committed_ = false;
    int slot_ = -1;
    std::string buffer_;
};

// Several outputs of one run, all or none (a report and its --junit, a batch's files, a frame per
// file): each is checked when opened (not an input, its temporary made), and none takes its name
// before every one is written in full: commit() finishes them all, then renames each in slot
// order. Destroyed uncommitted (an error on the way), it leaves none of them.
// A run that writes its files on several threads reserves their slots first and opens each into
// its own slot (open_at) from any thread: the files take their names in slot order (frame order,
// say), not in the order the threads happened to open them.
class OutputSet {
public:
    explicit OutputSet(std::vector<ReadFile> inputs) : inputs_(std::move(inputs)) {}
    explicit OutputSet(const std::vector<std::string>& inputs) : inputs_(inputs.begin(), inputs.end()) {}
    // Opens `path` as OutputFile does ("" or "-": stdout) into a new slot after every other.
    OutputFile& open(const std::string& path);
    // The same for an output an option may leave out: nullptr for an empty path (--junit unset).
    OutputFile* open_if(const std::string& path) { return path.empty() ? nullptr : &open(path); }
    // Opens `path` with `text` as its whole content, finished at once.
    void add(const std::string& path, std::string_view text);
    // Reserves `count` slots after every other, to be opened by open_at; returns the first's index.
    std::size_t reserve(std::size_t count);
    // Opens `path` into reserved slot `index`. Safe on several threads at once, each with its own
    // slot (the file is made outside the set's lock). Throws Error (internal) for a slot that was
    // not reserved or is open already.
    OutputFile& open_at(std::size_t index, const std::string& path);
    // Finishes every file, then renames each in slot order. Throws Error (internal), renaming
    // none, when a reserved slot was never opened: a set is all its files or none.
    void commit();

private:
    std::vector<ReadFile> inputs_;
    std::mutex mutex_;  // guards files_'s shape and its slots (open, reserve, open_at on any thread)
    std::vector<std::unique_ptr<OutputFile>> files_;
};

// Throws Error (exit 2) if output path is the same file as any input (never overwrite an input),
// through any link: compared by device and inode, a symlink followed. The message names the
// input and how the run reached it (a USD sublayer the user did not name on the command line).
void refuse_input_as_output(const std::string& output, const std::vector<ReadFile>& inputs);
void refuse_input_as_output(const std::string& output, const std::vector<std::string>& inputs);

// The descriptor a path names when it stands for one already open: "-" (stdout), /dev/stdout,
// /dev/stderr, /dev/fd/N, /proc/self/fd/N, or a symlink to one of those; -1 for any other path. Such a path is written to
// the descriptor, as the shell opened it (`>> log.txt` appends): renaming a temporary over
// where the link points would replace the file behind it.
int open_descriptor_of(const std::string& path);
// True when `path` writes to standard output ("-", /dev/stdout, /dev/fd/1, ...).
bool is_stdout_path(const std::string& path);

// The format an output's extension names: "csv", "json", "gltf" (.glb, .gltf), "usda" or "abc"; "" for
// none or stdout; ".EXT" (lower case) for an extension rigscope does not write.
std::string extension_format(const std::string& out);
// Output format from --format, else the extension of `out`, else `fallback`. Throws Error (usage)
// when --format and a known extension disagree, naming both, or when an unknown extension is all
// there is. A glTF output named .gltf is refused too: what is written is binary glTF (.glb). The
// CLI and a batch (each file's name by placeholder) decide by this one rule.
std::string output_format(const std::string& format, const std::string& out, const std::string& fallback);
// The same without the .gltf rule (chunk records name what an earlier run wrote).
std::string output_format_unchecked(const std::string& format, const std::string& out, const std::string& fallback);

// One command's output paths, as (option, path): throws Error (exit 2) for an empty path (an
// unset variable in a CI script would drop the output silently) and for two options naming one
// file (or stdout twice), before any work. Paths are compared as files: by device and inode when
// both exist, else by their absolute, lexically normal form.
void check_output_paths(const std::vector<std::pair<std::string, std::string>>& outputs);
// Throws Error (exit 4) when `path`'s file system has less free space than `bytes`, the least the
// output will take (a lower bound: a refusal is certain to be right), naming both sizes. Does
// nothing for stdout, a descriptor or a device, whose room is not known.
void check_free_space(const std::string& path, double bytes);
// Bytes as people read them: "812 MB", "140 GB" (powers of 1000, as df -H).
std::string size_text(double bytes);

// Throws Error (exit 2) when the value given to `option` (a path, a list) is empty.
void refuse_empty_path(const std::string& option, const std::string& path);

// Shortest text that reads back to the same value (std::to_chars), appended to out.
inline void append_number(std::string& out, float v) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}
inline void append_number(std::string& out, double v) {
    char buf[32];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}
inline void append_number(std::string& out, long v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}
inline void append_number(std::string& out, unsigned long v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}
// A number as people write it, for messages: the shortest text that reads back to it (0.5, 1e-06,
// 4096), never std::to_string's "0.500000" or a 300-digit DBL_MAX.
inline std::string number_text(double v) {
    std::string s;
    append_number(s, v);
    return s;
}
inline void append_number(std::string& out, int v) { append_number(out, static_cast<long>(v)); }
inline void append_number(std::string& out, unsigned v) { append_number(out, static_cast<unsigned long>(v)); }

// A CSV field: quoted when it holds a comma, quote or newline.
void append_csv_field(std::string& out, std::string_view s);
// A JSON string literal with escapes (json_writer.cpp; JsonWriter writes strings through it).
void append_json_string(std::string& out, std::string_view s);

// A frame as every output names it: its number, or bind (quoted in JSON).
inline void append_frame(std::string& out, const Frame& f, bool json) {
    if (f.bind) out += json ? "\"bind\"" : "bind";
    else append_number(out, f.number);
}

// `frame,time,`: how every per-frame CSV row starts.
inline void append_csv_frame_prefix(std::string& out, const Frame& f) {
    append_frame(out, f, false);
    out += ',';
    append_number(out, f.time);
    out += ',';
}
// `frame,time,mesh,`: the prefix of tension, deform and diff rows, the same for a whole mesh at
// one frame (callers build it once and copy it per vertex).
inline void append_csv_row_prefix(std::string& out, const Frame& f, std::string_view mesh) {
    append_csv_frame_prefix(out, f);
    append_csv_field(out, mesh);
    out += ',';
}

}  // namespace rigscope
