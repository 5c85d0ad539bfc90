#include "rigscope/io/json_writer.h"

#include "rigscope/io/json_keys.h"

namespace rigscope {

void append_json_string(std::string& out, std::string_view s, bool html_safe) {
    static const char* const hex = "0123456789abcdef";
    out.push_back('"');
    std::size_t plain = 0;  // start of the run of bytes copied as they are
    auto flush = [&](std::size_t i) { out.append(s.data() + plain, i - plain); };
    for (std::size_t i = 0; i < s.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const char* esc = nullptr;
        switch (c) {
            case '"': esc = "\\\""; break;
            case '\\': esc = "\\\\"; break;
            // The report has always written every control byte as \u00XX; plain JSON uses the
            // short forms. Both read back to the same text.
            case '\n': esc = html_safe ? nullptr : "\\n"; break;
            case '\r': esc = html_safe ? nullptr : "\\r"; break;
            case '\t': esc = html_safe ? nullptr : "\\t"; break;
            default: break;
        }
        if (esc) {
            flush(i);
            out.append(esc);
            plain = i + 1;
        } else if (c < 0x20 || (html_safe && (c == '<' || c == '>' || c == '&'))) {
            flush(i);
            const char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            out.append(u, 6);
            plain = i + 1;
        } else if (html_safe && c == 0xE2 && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
                   (static_cast<unsigned char>(s[i + 2]) == 0xA8 || static_cast<unsigned char>(s[i + 2]) == 0xA9)) {
            // U+2028 and U+2029 end a line in JavaScript source older than ES2019.
            flush(i);
            out.append(static_cast<unsigned char>(s[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029");
            i += 2;
            plain = i + 1;
        }
    }
    flush(s.size());
    out.push_back('"');
}

void append_json_string(std::string& out, std::string_view s) { append_json_string(out, s, false); }

JsonWriter& JsonWriter::key_escaped(std::string_view k) {
    comma();
    append_json_string(*out_, k, html_safe_);
    out_->push_back(':');
    after_key_ = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
    comma();
    append_json_string(*out_, s, html_safe_);
    closed();
    return *this;
}

void write_json_header(JsonWriter& w, std::string_view command, std::string_view input) {
    w.member(json_keys::rigscope, RIGSCOPE_VERSION).member(json_keys::command, command).member(json_keys::input, input);
}

void write_json_header(JsonWriter& w, std::string_view command, std::string_view old_input, std::string_view new_input) {
    w.member(json_keys::rigscope, RIGSCOPE_VERSION).member(json_keys::command, command);
    w.key(json_keys::input).begin_object().member(json_keys::old_input, old_input).member(json_keys::new_input, new_input).end_object();
}

}  // namespace rigscope
