// index.html of a batch's pages (report FILE... -o, check FILE... --html): one static page, no
// script, that links each file's page with its status and worst T, so that a CI artifact opens
// on the whole library rather than on a folder listing. Written with the batch's other outputs
// (write_batch_outputs), all or none.
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "rigscope/io/json_writer.h"
#include "rigscope/io/junit_report.h"
#include "rigscope/io/output.h"
#include "rigscope/run/batch.h"

namespace rigscope {

namespace {

std::string escaped(const std::string& s, bool attribute = false) {
    std::string out;
    xml_escape(out, s, attribute);
    return out;
}

// A relative link's path, percent-encoded but for '/' and the unreserved characters: a file
// named "a#1.glb.html" must not link to "a" and a fragment.
std::string href_of(const std::string& relative) {
    std::string out;
    for (unsigned char c : relative) {
        if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
            out += static_cast<char>(c);
        } else {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", c);
            out += buf;
        }
    }
    return out;
}

std::string number(double v) {
    std::string s;
    append_number(s, static_cast<float>(v));
    return s;
}

}  // namespace

std::string batch_index_html(const BatchResult& r, const std::string& index_path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path folder = fs::absolute(index_path, ec).lexically_normal().parent_path();
    const std::string title = "rigscope " + r.verb + ": " + std::to_string(r.files.size()) + (r.files.size() == 1 ? " file" : " files");
    std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + escaped(title) + "</title>\n";
    h += "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}th,td{padding:.3em .8em;text-align:left;"
         "border-bottom:1px solid #ddd}td.n{text-align:right;font-variant-numeric:tabular-nums}.fail td.s,.error td.s,"
         ".not_checked td.s{color:#b00;font-weight:bold}.pass td.s,.ok td.s{color:#070}</style>\n</head>\n<body>\n";
    h += "<h1>" + escaped(title) + "</h1>\n<p>" + escaped(r.counts) + "</p>\n";
    // Worst T: the extreme farthest from T = 1 in log terms (a halving as far as a doubling),
    // the rank the pages' own worst-vertex tables use.
    h += "<table>\n<thead><tr><th>File</th><th>Status</th><th>Worst T</th><th>Mesh</th><th>Vertex</th><th>Frame</th><th>Frames</th>"
         "<th>Vertices</th><th>Message</th></tr></thead>\n<tbody>\n";
    for (const BatchFileResult& f : r.files) {
        const BatchRow& w = f.row;
        std::string css = w.status;
        for (char& c : css)
            if (c == ' ') c = '_';
        h += "<tr class=\"" + css + "\"><td>";
        if (batch_row_ran(w) && !f.page.empty()) {
            const fs::path page = fs::absolute(f.page, ec).lexically_normal();
            h += "<a href=\"" + escaped(href_of(page.lexically_relative(folder).generic_string()), true) + "\">" + escaped(w.relpath) + "</a>";
        } else {
            h += escaped(w.relpath);
        }
        h += "</td><td class=\"s\">" + escaped(w.status) + "</td>";
        if (w.has_t) {
            const bool high = std::abs(std::log(w.max_t)) >= std::abs(std::log(w.min_t));
            h += "<td class=\"n\">" + number(high ? w.max_t : w.min_t) + "</td><td>" + escaped(high ? w.max_mesh : w.min_mesh) + "</td>";
            h += "<td class=\"n\">" + std::to_string(high ? w.max_vertex : w.min_vertex) + "</td><td class=\"n\">" +
                 escaped(high ? w.max_frame : w.min_frame) + "</td>";
        } else {
            h += "<td></td><td></td><td></td><td></td>";
        }
        if (batch_row_ran(w))
            h += "<td class=\"n\">" + std::to_string(w.frames) + "</td><td class=\"n\">" + std::to_string(w.vertices) + "</td>";
        else
            h += "<td></td><td></td>";
        h += "<td>" + escaped(w.message) + "</td></tr>\n";
    }
    h += "</tbody>\n</table>\n</body>\n</html>\n";
    return h;
}

}  // namespace rigscope
