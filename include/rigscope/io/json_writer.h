// Streaming JSON: every JSON file rigscope writes is appended through this, so commas, escapes
// and number text are decided in one place. It appends to a string it does not own (an
// OutputFile's buffer, which may be flushed and emptied between calls: the writer keeps its comma
// state itself rather than looking at the last byte written).
//
// Values are inline: per-vertex arrays (the bench tube's tension JSON is large) cost one branch
// and one to_chars per element, no virtual call, no allocation.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "rigscope/core/frames.h"
#include "rigscope/io/output.h"

namespace rigscope {

class JsonWriter {
public:
    // html_safe: strings also escape '<', '>', '&' and U+2028/U+2029, so the document can sit
    // inside an HTML <script> element (the report) without any text closing it.
    explicit JsonWriter(std::string& out, bool html_safe = false) : out_(&out), html_safe_(html_safe) {}

    // The string appended to; callers may append already-formed JSON through raw().
    std::string& out() { return *out_; }

    JsonWriter& begin_object() {
        comma();
        out_->push_back('{');
        open();
        return *this;
    }
    JsonWriter& end_object() {
        out_->push_back('}');
        closed();
        return *this;
    }
    JsonWriter& begin_array() {
        comma();
        out_->push_back('[');
        open();
        return *this;
    }
    JsonWriter& end_array() {
        out_->push_back(']');
        closed();
        return *this;
    }
    // A member's name; the next call writes its value. Keys are plain identifiers (no escapes
    // needed): every key rigscope writes is a literal or a json_keys.h name.
    JsonWriter& key(std::string_view k) {
        comma();
        out_->push_back('"');
        out_->append(k);
        out_->append("\":", 2);
        after_key_ = true;
        return *this;
    }
    // A member named by arbitrary text (a mesh or joint name used as a key), escaped.
    JsonWriter& key_escaped(std::string_view k);

    JsonWriter& value(std::string_view s);
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
    JsonWriter& value(bool b) {
        comma();
        out_->append(b ? "true" : "false");
        closed();
        return *this;
    }
    JsonWriter& value(int v) { return number(v); }
    JsonWriter& value(long v) { return number(v); }
    JsonWriter& value(long long v) { return number(static_cast<long>(v)); }
    JsonWriter& value(unsigned v) { return number(v); }
    JsonWriter& value(unsigned long v) { return number(v); }
    JsonWriter& value(unsigned long long v) { return number(static_cast<unsigned long>(v)); }
    // Shortest text that reads back to the same value (append_number).
    JsonWriter& value(float v) { return number(v); }
    JsonWriter& value(double v) { return number(v); }
    JsonWriter& null() {
        comma();
        out_->append("null");
        closed();
        return *this;
    }
    // A frame as every output names it: its number, or "bind" (append_frame).
    JsonWriter& frame(const Frame& f) {
        comma();
        append_frame(*out_, f, true);
        closed();
        return *this;
    }
    // Text that is already one JSON value (a span copied from a chunk, a nested document).
    JsonWriter& raw(std::string_view json) {
        comma();
        out_->append(json);
        closed();
        return *this;
    }

    // A string value whose characters fill(out) appends and that need no escape (base64).
    template <typename Fill>
    JsonWriter& unescaped_string(Fill fill) {
        comma();
        out_->push_back('"');
        fill(*out_);
        out_->push_back('"');
        closed();
        return *this;
    }

    // key(k) then value(v).
    template <typename T>
    JsonWriter& member(std::string_view k, const T& v) {
        key(k);
        return value(v);
    }
    // key(k) then a string value, or null when `present` is false.
    JsonWriter& member_or_null(std::string_view k, bool present, std::string_view s) {
        key(k);
        return present ? value(s) : null();
    }
    // `"k":[item(0),...,item(n-1)]` for numbers: the per-vertex hot path.
    template <typename Item>
    JsonWriter& number_array(std::string_view k, std::size_t n, Item item) {
        key(k);
        return number_array(n, item);
    }
    template <typename Item>
    JsonWriter& number_array(std::size_t n, Item item) {
        begin_array();
        std::string& o = *out_;
        for (std::size_t i = 0; i < n; ++i) {
            if (i) o.push_back(',');
            append_number(o, item(i));
        }
        return end_array();
    }

private:
    void comma() {
        if (need_comma_ && !after_key_) out_->push_back(',');
        after_key_ = false;
    }
    void open() { need_comma_ = false; }
    void closed() { need_comma_ = true; }
    template <typename N>
    JsonWriter& number(N v) {
        comma();
        append_number(*out_, v);
        closed();
        return *this;
    }

    std::string* out_;
    bool html_safe_ = false;
    bool need_comma_ = false;  // a value was completed at this level: the next one needs ','
    bool after_key_ = false;   // a key was written: its value takes no comma
};

// The members every JSON output opens with (inside its top-level object, before its own):
// "rigscope" (this build's version), "command" (the verb) and "input" (the file as the user gave
// it). Diff's input is the pair {"old": OLD, "new": NEW}.
void write_json_header(JsonWriter& w, std::string_view command, std::string_view input);
void write_json_header(JsonWriter& w, std::string_view command, std::string_view old_input, std::string_view new_input);

// A JSON string literal with escapes; html_safe as JsonWriter's.
void append_json_string(std::string& out, std::string_view s, bool html_safe);

}  // namespace rigscope
