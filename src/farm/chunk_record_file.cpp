#include "rigscope/farm/chunk.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "rigscope/io/json_text.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"

namespace rigscope {

namespace {

constexpr int kRecordFormat = 1;

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::string chunk_record_path(const std::string& output, int index) {
    if (output.find('#') == std::string::npos) return output + ".chunk.json";
    return output + ".chunk-" + std::to_string(index) + ".json";
}

bool is_chunk_record_path(const std::string& path) {
    if (ends_with(path, ".chunk.json")) return true;
    auto dash = path.rfind(".chunk-");
    if (dash == std::string::npos || !ends_with(path, ".json")) return false;
    const std::string digits = path.substr(dash + 7, path.size() - 5 - dash - 7);
    return !digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos;
}

InputFingerprint fingerprint_file(const std::string& option, const std::string& path) {
    InputFingerprint f;
    f.option = option;
    f.path = path;
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw bad_input(path, std::strerror(errno));
    std::uint64_t h = 0xcbf29ce484222325ull;
    std::vector<unsigned char> buf(1 << 20);
    for (;;) {
        const ssize_t n = read(fd, buf.data(), buf.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int err = errno;
            close(fd);
            throw bad_input(path, std::strerror(err));
        }
        if (n == 0) break;
        for (ssize_t i = 0; i < n; ++i) h = (h ^ buf[i]) * 0x100000001b3ull;
        f.bytes += static_cast<std::uint64_t>(n);
    }
    close(fd);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    f.fnv1a64 = hex;
    return f;
}

std::string chunk_record_json(const ChunkRecord& r) {
    std::string b = "{\"rigscope_chunk\":";
    append_number(b, kRecordFormat);
    b += ",\"rigscope\":";
    append_json_string(b, r.version);
    b += ",\"command\":";
    append_json_string(b, r.command);
    b += ",\"chunk\":{\"index\":";
    append_number(b, r.index);
    b += ",\"count\":";
    append_number(b, r.count);
    b += "},\"output\":";
    append_json_string(b, r.output);
    b += ",\n\"options\":[";
    for (std::size_t i = 0; i < r.options.size(); ++i) {
        b += i ? ",[" : "[";
        append_json_string(b, r.options[i].first);
        for (const auto& v : r.options[i].second) {
            b += ',';
            append_json_string(b, v);
        }
        b += ']';
    }
    b += "],\n\"inputs\":[";
    for (std::size_t i = 0; i < r.inputs.size(); ++i) {
        const InputFingerprint& f = r.inputs[i];
        b += i ? ",{\"option\":" : "{\"option\":";
        append_json_string(b, f.option);
        b += ",\"path\":";
        append_json_string(b, f.path);
        b += ",\"bytes\":";
        append_number(b, static_cast<unsigned long>(f.bytes));
        b += ",\"fnv1a64\":";
        append_json_string(b, f.fnv1a64);
        b += '}';
    }
    b += "],\n\"state\":{";
    for (std::size_t i = 0; i < r.state.size(); ++i) {
        if (i) b += ",\n";
        append_json_string(b, r.state[i].first);
        b += ':';
        b += r.state[i].second;
    }
    b += "}}\n";
    return b;
}

ChunkRecord read_chunk_record(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(kExitMismatch, path + ": no such chunk record");
    std::stringstream ss;
    ss << in.rdbuf();
    ChunkRecord r;
    r.record_path = path;
    try {
        const auto j = nlohmann::json::parse(ss.str());
        if (!j.is_object() || !j.contains("rigscope_chunk")) throw bad_input(path, "not a rigscope chunk record");
        if (j.at("rigscope_chunk").get<int>() != kRecordFormat)
            throw bad_input(path, "chunk record format " + j.at("rigscope_chunk").dump() + " is not one this rigscope reads");
        r.version = j.at("rigscope").get<std::string>();
        r.command = j.at("command").get<std::string>();
        r.index = j.at("chunk").at("index").get<int>();
        r.count = j.at("chunk").at("count").get<int>();
        r.output = j.at("output").get<std::string>();
        for (const auto& o : j.at("options")) {
            std::vector<std::string> values;
            for (std::size_t k = 1; k < o.size(); ++k) values.push_back(o.at(k).get<std::string>());
            r.options.emplace_back(o.at(0).get<std::string>(), std::move(values));
        }
        for (const auto& f : j.at("inputs"))
            r.inputs.push_back(InputFingerprint{f.at("option").get<std::string>(), f.at("path").get<std::string>(),
                                                f.at("bytes").get<std::uint64_t>(), f.at("fnv1a64").get<std::string>()});
        // State stays text: its floats must read back exactly as the chunk wrote them.
        const std::string text = ss.str();
        const auto top = json_text::members(text, json_text::document(text));
        if (const json_text::Member* state = json_text::find(top, "state"))
            for (const auto& m : json_text::members(text, state->value))
                r.state.emplace_back(m.key, std::string(m.value.of(text)));
    } catch (const nlohmann::json::exception& e) {
        throw bad_input(path, std::string("not a valid chunk record: ") + e.what());
    } catch (const json_text::SyntaxError& e) {
        throw bad_input(path, std::string("not a valid chunk record: ") + e.what());
    }
    if (r.count < 1 || r.count > kMaxChunkCount || r.index < 0 || r.index >= r.count)
        throw bad_input(path, "chunk " + std::to_string(r.index) + "/" + std::to_string(r.count) + " is not a valid chunk");
    return r;
}

void parse_chunk_spec(const std::string& spec, int& index, int& count) {
    const auto slash = spec.find('/');
    try {
        if (slash == std::string::npos) throw std::invalid_argument("");
        std::size_t a = 0, b = 0;
        index = std::stoi(spec.substr(0, slash), &a);
        count = std::stoi(spec.substr(slash + 1), &b);
        if (a != slash || b != spec.size() - slash - 1) throw std::invalid_argument("");
    } catch (const std::exception&) {
        throw Error(kExitUsage, "'" + spec + "': expected I/N, e.g. 0/4");
    }
    if (count < 1 || index < 0 || index >= count) throw Error(kExitUsage, "'" + spec + "': need 0 <= I < N");
    if (count > kMaxChunkCount) throw Error(kExitUsage, "'" + spec + "': at most " + std::to_string(kMaxChunkCount) + " chunks");
}

}  // namespace rigscope
