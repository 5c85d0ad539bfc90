#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rigscope/io/json_keys.h"
#include "rigscope/io/json_text.h"
#include "merge_internal.h"
#include "rigscope/core/error.h"
#include "rigscope/farm/merge.h"
#include "rigscope/core/tension_map.h"

namespace rigscope {

namespace merge_detail {

MappedFile::MappedFile(const std::string& path) {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw bad_input(path, std::strerror(errno));
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        throw bad_input(path, "not a regular file");
    }
    size_ = static_cast<std::size_t>(st.st_size);
    if (size_ > 0) {
        data_ = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
        if (data_ == MAP_FAILED) {
            const int err = errno;
            close(fd);
            data_ = nullptr;
            throw bad_input(path, std::strerror(err));
        }
        madvise(data_, size_, MADV_SEQUENTIAL);
    }
    close(fd);
}

MappedFile::~MappedFile() {
    if (data_) munmap(data_, size_);
}

void emit(OutputFile& out, std::string_view s) {
    constexpr std::size_t kSlice = 1 << 20;
    while (!s.empty()) {
        const std::size_t n = std::min(kSlice, s.size());
        out.write(s.substr(0, n));
        s.remove_prefix(n);
    }
}

void bad_chunk(const ChunkRecord& r, const std::string& problem) {
    throw bad_input(r.output, "chunk " + std::to_string(r.index) + "/" + std::to_string(r.count) + ": " + problem);
}

bool QuaternionContinuity::flip(const std::string& key, const double q[4]) {
    auto d = decided_.find(key);
    if (d != decided_.end()) return d->second;
    bool f = false;
    auto l = last_.find(key);
    if (l != last_.end()) f = q[0] * l->second[0] + q[1] * l->second[1] + q[2] * l->second[2] + q[3] * l->second[3] < 0;
    decided_[key] = f;
    return f;
}

void QuaternionContinuity::record(const std::string& key, const double q[4]) { last_[key] = {q[0], q[1], q[2], q[3]}; }

namespace {

double number_member(const ChunkRecord& r, std::string_view text, const std::vector<json_text::Member>& m, std::string_view key) {
    const json_text::Member* v = json_text::find(m, key);
    double x = 0;
    if (!v || !parse_number(v->value.of(text), x)) bad_chunk(r, std::string("record's tension_range has no number '") + std::string(key) + "'");
    return x;
}

}  // namespace

AutoRange tension_auto_range(const std::vector<ChunkRecord>& chunks) {
    AutoRange a;
    std::vector<std::vector<float>> vmin, vmax;  // per mesh, per welded vertex
    std::size_t with_state = 0;
    for (const ChunkRecord& r : chunks) {
        const std::string* state = nullptr;
        for (const auto& [kind, text] : r.state)
            if (kind == "tension_range") state = &text;
        if (!state) continue;
        ++with_state;
        const std::string_view s = *state;
        try {
            const auto top = json_text::members(s, json_text::document(s));
            const json_text::Member* params = json_text::find(top, json_keys::params);
            const json_text::Member* meshes = json_text::find(top, json_keys::meshes);
            if (!params || !meshes) bad_chunk(r, "record's tension_range lacks params or meshes");
            const auto p = json_text::members(s, params->value);
            a.params.falloff = number_member(r, s, p, json_keys::falloff);
            a.params.stretch_area = number_member(r, s, p, json_keys::stretch_area);
            a.params.compress_area = number_member(r, s, p, json_keys::compress_area);
            a.params.weight_limit = number_member(r, s, p, json_keys::weight_limit);
            a.params.smooth_k = number_member(r, s, p, json_keys::smooth_k);
            a.percentile = number_member(r, s, top, json_keys::percentile);
            const auto list = json_text::elements(s, meshes->value);
            if (vmin.empty()) {
                vmin.resize(list.size());
                vmax.resize(list.size());
            } else if (vmin.size() != list.size()) {
                bad_chunk(r, "record's tension_range has another number of meshes than chunk 0's");
            }
            for (std::size_t m = 0; m < list.size(); ++m) {
                const auto mm = json_text::members(s, list[m]);
                const json_text::Member* lo = json_text::find(mm, json_keys::min);
                const json_text::Member* hi = json_text::find(mm, json_keys::max);
                if (!lo || !hi) bad_chunk(r, "record's tension_range lacks min or max");
                const auto los = json_text::elements(s, lo->value), his = json_text::elements(s, hi->value);
                if (with_state == 1) {
                    vmin[m].assign(los.size(), 1.0f);
                    vmax[m].assign(los.size(), 1.0f);
                }
                if (los.size() != his.size() || vmin[m].size() != los.size())
                    bad_chunk(r, "record's tension_range has another vertex count than chunk 0's");
                for (std::size_t w = 0; w < los.size(); ++w) {
                    float x = 0, y = 0;
                    if (!parse_number(los[w].of(s), x) || !parse_number(his[w].of(s), y)) bad_chunk(r, "record's tension_range holds a non-number");
                    vmin[m][w] = std::min(vmin[m][w], x);
                    vmax[m][w] = std::max(vmax[m][w], y);
                }
            }
        } catch (const json_text::SyntaxError& e) {
            bad_chunk(r, std::string("record's tension_range: ") + e.what());
        }
    }
    if (with_state == 0) return a;
    if (with_state != chunks.size()) bad_chunk(chunks.front(), "only some chunk records hold --auto-range extremes");
    std::vector<float> all_min, all_max;
    for (std::size_t m = 0; m < vmin.size(); ++m) {
        all_min.insert(all_min.end(), vmin[m].begin(), vmin[m].end());
        all_max.insert(all_max.end(), vmax[m].begin(), vmax[m].end());
    }
    a.active = true;
    a.range = auto_tension_range(all_min, all_max, a.percentile, tension_range(a.params));
    return a;
}

}  // namespace merge_detail

bool merged_auto_range(const std::vector<ChunkRecord>& chunks, double& t_s, double& t_c) {
    if (chunks.empty() || chunks.front().command != "tension") return false;
    const merge_detail::AutoRange a = merge_detail::tension_auto_range(chunks);
    t_s = a.range.t_s;
    t_c = a.range.t_c;
    return a.active;
}

std::string chunk_output_format(const std::vector<ChunkRecord>& chunks) {
    // The format shows in the bytes (CSV starts with its header, JSON with '{').
    char first = 0;
    for (const ChunkRecord& r : chunks) {
        merge_detail::MappedFile f(r.output);
        const std::string_view t = f.text();
        if (t.size() >= 4 && t.substr(0, 4) == "glTF") merge_detail::bad_chunk(r, "a glTF file: only per-frame files (out_####.glb) come in chunks");
        const char c = t.empty() ? 0 : t.front();
        if (c == 0) merge_detail::bad_chunk(r, "empty file");
        if (first == 0) first = c;
        else if ((c == '{') != (first == '{')) merge_detail::bad_chunk(r, "CSV and JSON chunks mixed");
    }
    return first == '{' ? "json" : "csv";
}

void merge_chunk_outputs(const std::vector<ChunkRecord>& chunks, OutputFile& out) {
    if (chunks.empty()) return;
    if (chunk_output_format(chunks) == "json") merge_detail::merge_json(chunks, out);
    else merge_detail::merge_csv(chunks, out);
}

}  // namespace rigscope
