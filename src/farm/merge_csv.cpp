// CSV chunks: one header, then every chunk's rows in chunk order; the columns that depend on
// all frames (an --auto-range tension's maps, a baked rivet's quaternion signs) recomputed.
#include "merge_internal.h"
#include "rigscope/io/tension_output.h"

namespace rigscope::merge_detail {

namespace {

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

// The header's measure: the one whose tension_csv_header it is.
bool tension_header(std::string_view h, Measure& m) {
    for (Measure c : {Measure::edge, Measure::area, Measure::principal})
        if (h == tension_csv_header(c)) {
            m = c;
            return true;
        }
    return false;
}

void tension_rows(const ChunkRecord& r, std::string_view body, const AutoRange& ar, Measure measure, OutputFile& out) {
    std::string& b = out.buffer();
    const std::size_t extra = tension_csv_extra_columns(measure);
    const TensionRemap remap(ar.range, ar.params);
    for_each_line(body, [&](std::string_view line) {
        // The mesh name may hold quoted commas; the fields from t on are numbers. cut[k]: the
        // comma before the k-th field counted from the end (k = 1: the last).
        std::size_t cut[10];
        std::size_t at = line.size();
        bool ok = true;
        for (std::size_t k = 1; k <= extra + 3 && ok; ++k) {
            at = at == 0 ? std::string_view::npos : line.rfind(',', at - 1);
            ok = at != std::string_view::npos;
            cut[k] = at;
        }
        auto field = [&](std::size_t k) {  // the k-th field from the end
            const std::size_t end = k == 1 ? line.size() : cut[k - 1];
            return line.substr(cut[k] + 1, end - cut[k] - 1);
        };
        // The T of each map: edge t; area t_area; principal 1 / lambda_min and 1 / lambda_max.
        float tc = 0, ts = 0;
        if (measure == Measure::principal) {
            ok = ok && parse_number(field(4), tc) && parse_number(field(5), ts);
            t_of_lambda(tc, tc);
            t_of_lambda(ts, ts);
        } else {
            ok = ok && parse_number(field(measure == Measure::area ? 1 : 3), tc);
            ts = tc;
        }
        if (!ok) bad_chunk(r, "row without a T value: '" + std::string(line.substr(0, 80)) + "'");
        b.append(line.substr(0, cut[extra + 2] + 1));
        append_number(b, remap.compress(tc));
        b += ',';
        append_number(b, remap.stretch(ts));
        if (extra) b.append(line.substr(cut[extra]));
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
            Measure measure = Measure::edge;
            if (!tension_header(h, measure)) bad_chunk(r, "not a tension CSV");
            tension_rows(r, body, ar, measure, out);
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
