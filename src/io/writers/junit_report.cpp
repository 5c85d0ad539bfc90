#include "rigscope/io/junit_report.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>

#include "rigscope/io/json_text.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"

namespace rigscope {

namespace {

// Length of the valid UTF-8 sequence starting at s[i], 0 when there is none: names come from
// files, and one invalid byte would make the whole report unreadable to an XML parser.
std::size_t utf8_length(const std::string& s, std::size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size() || (n == 2 && c < 0xC2)) return 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return 0;
    return n;
}

}  // namespace

// XML 1.0 text or attribute value: markup escaped, characters XML cannot carry (control
// characters, invalid UTF-8) as '?'. In attributes, line breaks and tabs are character
// references so that a parser's attribute normalisation keeps them.
void xml_escape(std::string& out, const std::string& s, bool attribute) {
    for (std::size_t i = 0; i < s.size();) {
        const char c = s[i];
        const std::size_t n = utf8_length(s, i);
        if (n > 1) {
            out.append(s, i, n);
            i += n;
            continue;
        }
        ++i;
        switch (c) {
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '&': out += "&amp;"; break;
            case '"': out += "&quot;"; break;
            case '\n': out += attribute ? "&#10;" : "\n"; break;
            case '\t': out += attribute ? "&#9;" : "\t"; break;
            case '\r': out += "&#13;"; break;
            default: out += (n == 1 && static_cast<unsigned char>(c) >= 0x20) ? c : '?';
        }
    }
}

namespace {

void attribute(std::string& x, const char* name, const std::string& value) {
    x += ' ';
    x += name;
    x += "=\"";
    xml_escape(x, value, true);
    x += '"';
}

// A test case's <failure> (a verdict that fails) or <error> (a file not judged), closing the
// case: type and message as attributes, `text` as its body. x ends inside the <testcase> tag.
void case_problem(std::string& x, const char* element, const std::string& type, const std::string& message, const std::string& text) {
    x += ">\n      <";
    x += element;
    attribute(x, "type", type);
    attribute(x, "message", message);
    x += '>';
    xml_escape(x, text, false);
    x += "</";
    x += element;
    x += ">\n    </testcase>\n";
}

}  // namespace

std::string junit_seconds(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", s < 0 ? 0.0 : s);
    return buf;
}

// YYYY-MM-DDThh:mm:ss, the form the Ant schema accepts: a record's text goes into the report.
bool is_junit_timestamp(const std::string& t) {
    static const char form[] = "dddd-dd-ddTdd:dd:dd";
    if (t.size() != sizeof form - 1) return false;
    for (std::size_t i = 0; i < t.size(); ++i)
        if (form[i] == 'd' ? !(t[i] >= '0' && t[i] <= '9') : t[i] != form[i]) return false;
    return true;
}


CheckRunInfo start_run_info() {
    CheckRunInfo run;
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&t, &tm);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
    run.timestamp = stamp;
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) == 0 && host[0] != '\0') run.hostname = host;
    return run;
}

std::string junit_class_part(std::string s) {
    for (char& c : s)
        if (c == '.' || static_cast<unsigned char>(c) <= 0x20 || c == 0x7F) c = '_';
    return s;
}

std::string junit_stem(const std::string& file) {
    const std::string stem = std::filesystem::path(file).stem().string();
    return junit_class_part(stem.empty() ? "input" : stem);
}

std::string junit_key_part(const std::string& name) {
    if (name.empty()) return "~";
    static const char hex[] = "0123456789ABCDEF";
    std::string out;
    for (std::size_t i = 0; i < name.size();) {
        const auto c = static_cast<unsigned char>(name[i]);
        const std::size_t n = utf8_length(name, i);
        if (n > 1) {
            out.append(name, i, n);
            i += n;
            continue;
        }
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-') {
            out += static_cast<char>(c);
        } else {
            out += '~';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
        ++i;
    }
    return out;
}

std::string junit_path_key(const std::string& relpath) {
    const std::filesystem::path p(relpath);
    if (relpath.empty() || p.is_absolute()) return junit_key_part(p.filename().string());
    std::string out;
    for (const auto& part : p.lexically_normal()) {
        if (part.empty()) continue;
        if (!out.empty()) out += '.';
        out += junit_key_part(part.string());
    }
    return out.empty() ? junit_key_part("") : out;
}

std::string junit_case_class(const std::string& verb, const std::string& file, const std::string& relpath, const std::string& clip,
                             const std::string& mesh, std::size_t mesh_index) {
    const std::string path = junit_path_key(relpath.empty() ? std::filesystem::path(file).filename().string() : relpath);
    return "rigscope." + verb + "." + path + "." + junit_key_part(clip) + "." +
           (mesh.empty() ? "~m" + std::to_string(mesh_index) : junit_key_part(mesh));
}

std::string junit_xml(const JUnitSuite& suite, const CheckRunInfo& run) {
    std::size_t failures = 0, skipped = 0;
    for (const JUnitCase& c : suite.cases) {
        failures += c.failed;
        skipped += c.skipped && !c.failed;
    }
    std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite";
    attribute(x, "name", suite.name);
    attribute(x, "package", suite.package);
    x += " id=\"0\" tests=\"" + std::to_string(suite.cases.size()) + "\" failures=\"" + std::to_string(failures) +
         "\" errors=\"0\" skipped=\"" + std::to_string(skipped) + "\" time=\"" + junit_seconds(run.seconds) + "\"";
    attribute(x, "timestamp", run.timestamp);
    attribute(x, "hostname", run.hostname.empty() ? "localhost" : run.hostname);
    x += ">\n    <properties>\n";
    for (const auto& [name, value] : suite.properties) {
        x += "      <property";
        attribute(x, "name", name);
        attribute(x, "value", value);
        x += "/>\n";
    }
    x += "    </properties>\n";
    for (const JUnitCase& c : suite.cases) {
        x += "    <testcase";
        attribute(x, "classname", c.classname);
        attribute(x, "name", c.name);
        x += " time=\"0\"";
        if (!c.failed && c.skipped) {
            x += ">\n      <skipped";
            attribute(x, "message", c.message);
            x += "/>\n    </testcase>\n";
            continue;
        }
        if (!c.failed) {
            x += "/>\n";
            continue;
        }
        case_problem(x, "failure", c.type, c.message, c.text);
    }
    x += "    <system-out>";
    xml_escape(x, suite.system_out, false);
    x += "</system-out>\n    <system-err/>\n  </testsuite>\n</testsuites>\n";
    return x;
}

namespace {

// The <testsuite> element of a document junit_xml wrote, renamed and renumbered: a batch keeps
// each file's own report whole (check and lint judge; the batch only gathers), and the writer
// knows its own layout: the element starts at the first "<testsuite " with name first and id="0".
std::string renamed_suite(const std::string& doc, const std::string& name, std::size_t id) {
    const std::string open = "<testsuite name=\"", close = "</testsuite>\n";
    const auto begin = doc.find(open);
    const auto end = doc.rfind(close);
    const auto name_end = begin == std::string::npos ? begin : doc.find('"', begin + open.size());
    const auto id_at = name_end == std::string::npos ? name_end : doc.find(" id=\"0\"", name_end);
    if (begin == std::string::npos || end == std::string::npos || end < begin || name_end == std::string::npos || id_at == std::string::npos ||
        id_at > doc.find('>', begin))
        throw internal_error("a batch's JUnit suite is not a report rigscope wrote");
    std::string x = "  <testsuite";
    attribute(x, "name", name);
    x.append(doc, name_end + 1, id_at - name_end - 1);
    x += " id=\"" + std::to_string(id) + "\"";
    x.append(doc, id_at + 7, end + close.size() - id_at - 7);
    return x;
}

std::string error_suite(const JUnitBatchSuite& s, std::size_t id) {
    std::string x = "  <testsuite";
    attribute(x, "name", s.name);
    attribute(x, "package", s.package);
    x += " id=\"" + std::to_string(id) + "\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"" + junit_seconds(s.run.seconds) + "\"";
    attribute(x, "timestamp", s.run.timestamp);
    attribute(x, "hostname", s.run.hostname.empty() ? "localhost" : s.run.hostname);
    x += ">\n    <properties>\n      <property";
    attribute(x, "name", "input");
    attribute(x, "value", s.input);
    x += "/>\n    </properties>\n    <testcase";
    attribute(x, "classname", s.classname);
    attribute(x, "name", "input read and judged");
    x += " time=\"0\"";
    case_problem(x, "error", s.error_type, s.error_message, s.error_message);
    x += "    <system-out/>\n    <system-err>";
    xml_escape(x, s.error_message, false);
    x += "</system-err>\n  </testsuite>\n";
    return x;
}

}  // namespace

std::string junit_batch_xml(const std::vector<JUnitBatchSuite>& suites) {
    std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
    for (std::size_t i = 0; i < suites.size(); ++i)
        x += suites[i].document.empty() ? error_suite(suites[i], i) : renamed_suite(suites[i].document, suites[i].name, i);
    x += "</testsuites>\n";
    return x;
}

}  // namespace rigscope
