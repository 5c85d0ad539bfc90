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
    for (auto& [level, text] : sink()->take()) out.append(py::make_tuple(level, text));
    return out;
}

}  // namespace rigscope_python
