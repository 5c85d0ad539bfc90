#include "messages.h"

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace rigscope_python {

namespace py = pybind11;

namespace {

// Logged from any thread (the run layer's pool too) without the GIL: the sink only stores.
// A message repeated within one call (a warning per frame or per vertex) is kept once.
class KeepingSink : public spdlog::sinks::base_sink<std::mutex> {
public:
    std::vector<std::pair<int, std::string>> take() {
        std::lock_guard<std::mutex> lock(mutex_);
        seen_.clear();
        return std::exchange(kept_, {});
    }

protected:
    void sink_it_(const spdlog::details::log_msg& msg) override {
        std::string text(msg.payload.begin(), msg.payload.end());
        if (!seen_.insert(text).second) return;
        kept_.emplace_back(python_level(msg.level), std::move(text));
    }
    void flush_() override {}

private:
    static int python_level(spdlog::level::level_enum l) {
        switch (l) {
            case spdlog::level::trace:
            case spdlog::level::debug: return 10;
            case spdlog::level::info: return 20;
            case spdlog::level::warn: return 30;
            case spdlog::level::err: return 40;
            default: return 50;
        }
    }

    std::vector<std::pair<int, std::string>> kept_;
    std::set<std::string> seen_;
};

std::shared_ptr<KeepingSink>& sink() {
    static std::shared_ptr<KeepingSink> s = std::make_shared<KeepingSink>();
    return s;
}

}  // namespace

void install_message_sink() {
    auto logger = std::make_shared<spdlog::logger>("rigscope", sink());
    // Everything reaches Python; logging's own levels decide what is shown.
    logger->set_level(spdlog::level::debug);
    spdlog::set_default_logger(logger);
}

py::list take_messages() {
    py::list out;
    for (auto& [level, text] : sink()->take()) out.append(py::make_tuple(level, python_keywords(text)));
    return out;
}

namespace {

bool option_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; }

// A value the CLI spells after an option that Python passes as a string.
bool word_value(const std::string& v) {
    static const char* const kWords[] = {"index", "position", "edge",  "area", "principal", "uniform", "cotan", "file", "linear",
                                         "dq",    "on",       "off",   "start", "rotation", "full",    "csv",   "json", "gltf",
                                         "usda",  "abc",      "bind",  "maps",  "t",     "text",     "all"};
    for (const char* w : kWords)
        if (v == w) return true;
    return false;
}

bool number_value(const std::string& v) {
    if (v.empty()) return false;
    std::size_t i = (v[0] == '-' || v[0] == '+') ? 1 : 0;
    if (i >= v.size() || !(v[i] >= '0' && v[i] <= '9')) return false;
    for (; i < v.size(); ++i)
        if (!((v[i] >= '0' && v[i] <= '9') || v[i] == '.' || v[i] == 'e' || v[i] == 'E' || v[i] == '-' || v[i] == '+')) return false;
    return v.find("..") == std::string::npos;
}

}  // namespace

std::string python_keywords(const std::string& message) {
    std::string out;
    out.reserve(message.size());
    for (std::size_t i = 0; i < message.size();) {
        // "--name" at a word's start (not inside a path such as a/--b), then a lower-case letter.
        const bool starts = message.compare(i, 2, "--") == 0 && i + 2 < message.size() && message[i + 2] >= 'a' && message[i + 2] <= 'z' &&
                            (i == 0 || message[i - 1] == ' ' || message[i - 1] == '(' || message[i - 1] == '\'' || message[i - 1] == '"');
        if (!starts) {
            out += message[i++];
            continue;
        }
        std::size_t end = i + 2;
        while (end < message.size() && option_char(message[end])) ++end;
        std::string name = message.substr(i + 2, end - i - 2);
        while (!name.empty() && name.back() == '-') {
            name.pop_back();
            --end;
        }
        for (char& c : name)
            if (c == '-') c = '_';
        // "--frames: ..." introduces what is wrong with it: the keyword's name alone.
        out += name + (end < message.size() && message[end] == ':' ? "" : "=");
        i = end;
        // The value that follows, joined to its keyword when it is one: a number as is, a word
        // of the CLI's choices quoted.
        if (i < message.size() && message[i] == ' ') {
            std::size_t v = i + 1, w = v;
            while (w < message.size() && message[w] != ' ' && message[w] != ',' && message[w] != ';' && message[w] != ')' && message[w] != ':' &&
                   message[w] != '\'')
                ++w;
            std::string value = message.substr(v, w - v);
            if (!value.empty() && value.back() == '.' && !number_value(value)) value.pop_back(), --w;
            if (number_value(value)) {
                out += value;
                i = w;
            } else if (word_value(value)) {
                out += "\"" + value + "\"";
                i = w;
            }
        }
    }
    return out;
}

}  // namespace rigscope_python
