#include "rigscope/farm/check_chunk.h"

#include <cstdlib>

#include "rigscope/core/error.h"
#include "rigscope/io/json_text.h"
#include "rigscope/io/json_writer.h"
#include "rigscope/io/output.h"

namespace rigscope {

std::string run_info_state(const CheckRunInfo& run) {
    std::string b;
    JsonWriter w(b);
    w.begin_object().member("timestamp", run.timestamp).key("seconds").raw(junit_seconds(run.seconds));
    w.member("hostname", run.hostname).end_object();
    return b;
}

CheckRunInfo merged_run_info(const std::vector<ChunkRecord>& chunks) {
    CheckRunInfo run;
    run.hostname.clear();
    for (const ChunkRecord& r : chunks) {
        auto bad = [&](const std::string& problem) { throw bad_input(r.record_path, "run state: " + problem); };
        const std::string* state = nullptr;
        for (const auto& [kind, text] : r.state)
            if (kind == "run") state = &text;
        if (!state) bad("missing (the chunk's timing)");
        const std::string_view s = *state;
        try {
            const auto top = json_text::members(s, json_text::document(s));
            auto get = [&](const char* key) {
                const json_text::Member* m = json_text::find(top, key);
                if (!m) bad(std::string("no '") + key + "'");
                return m->value;
            };
            const std::string stamp = json_text::string_value(s, get("timestamp"));
            if (!is_junit_timestamp(stamp)) bad("timestamp '" + stamp + "' is not YYYY-MM-DDThh:mm:ss");
            if (run.timestamp.empty() || stamp < run.timestamp) run.timestamp = stamp;
            const std::string seconds(get("seconds").of(s));
            char* end = nullptr;
            const double v = std::strtod(seconds.c_str(), &end);
            if (seconds.empty() || end != seconds.c_str() + seconds.size() || !(v >= 0)) bad("'" + seconds + "' is not a number of seconds");
            run.seconds += v;
            if (run.hostname.empty()) run.hostname = json_text::string_value(s, get("hostname"));
        } catch (const json_text::SyntaxError& e) {
            bad(e.what());
        }
    }
    return run;
}

}  // namespace rigscope
