// CSV chunks: one header, then every chunk's rows in chunk order; the columns that depend on
// all frames (an --auto-range tension's maps, a baked rivet's quaternion signs) recomputed.
#include "merge_internal.h"

namespace rigscope::merge_detail {

namespace {

constexpr std::string_view kTensionHeader = "frame,time,mesh,vertex,t,compress,stretch\n";
constexpr std::string_view kRivetBakeHeader = "frame,time,vertex,x,y,z,qx,qy,qz,qw\n";

// Calls each(line) for every line of body, '\n' excluded.
template <typename F>
void for_each_line(std::string_view body, F each) {
    while (!body.empty()) {
        const std::size_t nl = body.find('\n');
        each(body.substr(0, nl));
        body.remove_prefix(nl + 1);
    }
}

void tension_rows(const ChunkRecord& r, std::string_view body, const AutoRange& ar, OutputFile& out) {
    std::string& b = out.buffer();
    for_each_line(body, [&](std::string_view line) {
        // The mesh name may hold quoted commas; the last three fields are numbers.
        const std::size_t c1 = line.rfind(',');
        const std::size_t c2 = c1 == std::string_view::npos || c1 == 0 ? c1 : line.rfind(',', c1 - 1);
        const std::size_t c3 = c2 == std::string_view::npos || c2 == 0 ? c2 : line.rfind(',', c2 - 1);
        float t = 0;
        if (c3 == std::string_view::npos || !parse_number(line.substr(c3 + 1, c2 - c3 - 1), t))
            bad_chunk(r, "row without a T value: '" + std::string(line.substr(0, 80)) + "'");
        b.append(line.substr(0, c2 + 1));
        append_number(b, compress_of(t, ar.range, ar.params));
        b += ',';
        append_number(b, stretch_of(t, ar.range, ar.params));
        b += '\n';
        out.maybe_flush();
    });
}

void rivet_rows(const ChunkRecord& r, std::string_view body, QuaternionContinuity& qc, OutputFile& out) {
    std::string& b = out.buffer();
    for_each_line(body, [&](std::string_view line) {
        std::string_view f[10];
        std::size_t n = 0, start = 0;
        for (std::size_t i = 0; i <= line.size() && n < 10; ++i)
            if (i == line.size() || line[i] == ',') {
                f[n++] = line.substr(start, i - start);
                start = i + 1;
            }
        double q[4];
        if (n != 10 || start != line.size() + 1 || !parse_number(f[6], q[0]) || !parse_number(f[7], q[1]) ||
            !parse_number(f[8], q[2]) || !parse_number(f[9], q[3]))
            bad_chunk(r, "not a rivet --bake row: '" + std::string(line.substr(0, 80)) + "'");
        const std::string key(f[2]);
        if (!qc.flip(key, q)) {
            b.append(line);
        } else {
            b.append(line.substr(0, f[6].data() - line.data()));
            for (int c = 0; c < 4; ++c) {
                q[c] = -q[c];
                if (c) b += ',';
                append_number(b, q[c]);
            }
        }
        b += '\n';
        qc.record(key, q);
        out.maybe_flush();
    });
}

}  // namespace

void merge_csv(const std::vector<ChunkRecord>& chunks, OutputFile& out) {
    const std::string& command = chunks.front().command;
    const AutoRange ar = command == "tension" ? tension_auto_range(chunks) : AutoRange{};
    QuaternionContinuity qc;
    std::string header;
    for (const ChunkRecord& r : chunks) {
        MappedFile file(r.output);
        const std::string_view text = file.text();
        const std::size_t nl = text.find('\n');
        if (nl == std::string_view::npos) bad_chunk(r, "no CSV header line");
        const std::string_view h = text.substr(0, nl + 1), body = text.substr(nl + 1);
        if (header.empty()) {
            header = h;
            emit(out, h);
        } else if (h != header) {
            bad_chunk(r, "CSV header '" + std::string(h.substr(0, h.size() - 1)) + "' differs from chunk 0's");
        }
        if (!body.empty() && body.back() != '\n') bad_chunk(r, "last line unterminated (a truncated file)");
        if (ar.active) {
            if (h != kTensionHeader) bad_chunk(r, "not a tension CSV");
            tension_rows(r, body, ar, out);
        } else if (command == "rivet") {
            if (h != kRivetBakeHeader) bad_chunk(r, "not a rivet --bake CSV");
            qc.start_chunk();
            rivet_rows(r, body, qc, out);
        } else {
            emit(out, body);
        }
    }
}

}  // namespace rigscope::merge_detail
