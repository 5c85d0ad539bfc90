// ASCII FBX -> the record tree the binary parser makes (fbx_records.h), so that everything above
// the records reads both alike. The text's types are mapped to what the binary files hold and
// the readers expect: integers as 64-bit 'L' (ids, KTime), other numbers as 'D', quoted strings
// as 'S' ("Class::Name" turned into the binary "Name\0\1Class"), bare words (T, Y, L) as 'C',
// arrays `*N { a: ... }` as 'l' when every element is an integer, else 'd'. The same nesting
// limit as binary applies, and every record, property, string and array element is counted
// against the memory budget before it is stored (a byte of text may make 80 bytes of records).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "io/fbx/fbx_records.h"

namespace rigscope::fbx {

namespace {

bool is_space(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
// Characters of a bare token (record name, number, word): anything but layout and punctuation.
bool is_word(unsigned char c) { return !is_space(c) && c != ':' && c != ',' && c != '{' && c != '}' && c != '"' && c != ';' && c != '*'; }

class AsciiParser {
public:
    explicit AsciiParser(RecordFile& file)
        : file_(file), p_(file.bytes.data()), end_(file.bytes.data() + file.bytes.size()) {}

    void parse() {
        if (end_ - p_ >= 3 && std::memcmp(p_, "\xEF\xBB\xBF", 3) == 0) p_ += 3;  // UTF-8 byte order mark
        records(0, file_.top, true);
    }

private:
    [[noreturn]] void fail(const std::string& what) const { throw Malformed("line " + std::to_string(line_) + ": " + what); }

    void spend(std::uint64_t bytes) {
        const std::string problem = file_.budget.try_charge(double(bytes), "the records");
        if (!problem.empty()) fail(problem);
    }

    void skip() {
        while (p_ < end_) {
            if (*p_ == '\n') ++line_;
            if (is_space(*p_)) ++p_;
            else if (*p_ == ';')
                while (p_ < end_ && *p_ != '\n') ++p_;
            else break;
        }
    }

    // The bare token at p_ (not consumed).
    std::size_t word_length() const {
        const unsigned char* q = p_;
        while (q < end_ && is_word(*q)) ++q;
        return std::size_t(q - p_);
    }

    // A record name: a bare token directly followed by ':'.
    bool at_name() const {
        const std::size_t n = word_length();
        return n && p_ + n < end_ && p_[n] == ':';
    }

    std::string shown(std::size_t max = 20) const {
        if (p_ >= end_) return "the end of the file";
        std::string s;
        for (const unsigned char* q = p_; q < end_ && s.size() < max && *q != '\n'; ++q) s += (*q >= 32 && *q < 127) ? char(*q) : '?';
        return "'" + s + "'";
    }

    void records(int depth, std::vector<Record>& into, bool top) {
        if (depth > kMaxDepth)
            throw Malformed("ASCII FBX nested deeper than " + std::to_string(kMaxDepth) + " levels (line " + std::to_string(line_) + ")");
        for (;;) {
            skip();
            if (p_ >= end_) {
                if (!top) fail("a '{' is not closed before the end of the file");
                return;
            }
            if (*p_ == '}') {
                if (top) fail("a '}' closes nothing");
                ++p_;
                return;
            }
            if (!at_name()) fail("expected a record name followed by ':', found " + shown());
            spend(2 * sizeof(Record));  // a vector's spare capacity included
            into.emplace_back();
            Record& r = into.back();
            const std::size_t n = word_length();
            spend(n);
            r.name.assign(reinterpret_cast<const char*>(p_), n);
            p_ += n + 1;
            values(r);
            skip();
            if (p_ < end_ && *p_ == '{') {
                ++p_;
                records(depth + 1, r.children, false);
            }
        }
    }

    // The comma-separated values after "Name:", up to a '{', '}', the next record or the end.
    void values(Record& r) {
        skip();
        if (p_ >= end_ || *p_ == '{' || *p_ == '}' || at_name()) return;
        for (;;) {
            // Some writers leave a value empty (`Content: , "..."`): nothing is stored for it.
            if (*p_ != ',') {
                spend(2 * sizeof(Prop));
                r.props.push_back(value(r.name));
                skip();
            }
            if (p_ >= end_ || *p_ != ',') return;
            ++p_;
            skip();
            if (p_ >= end_) fail("a value is missing after ','");
        }
    }

    Prop value(const std::string& record) {
        if (*p_ == '"') return string();
        if (*p_ == '*') return array(record);
        const std::size_t n = word_length();
        if (!n || (p_ + n < end_ && p_[n] == ':')) fail("expected a value, found " + shown());
        Prop p;
        if (!number(p_, n, p)) {
            // A bare word (6.x key lists, Shading: T): kept as its text, typed 'C' like a flag.
            p.type = 'C';
            p.integer = !(n == 1 && (*p_ == 'F' || *p_ == 'N'));
            p.number = double(p.integer);
            p.data = p_;
            p.bytes = std::uint32_t(n);
        }
        p_ += n;
        return p;
    }

    // An integer (into 'L' when it fits 64 bits) or any other number into 'D'; false otherwise.
    static bool number(const unsigned char* s, std::size_t n, Prop& p) {
        const char* b = reinterpret_cast<const char*>(s);
        const char* e = b + n;
        if (*b == '+') ++b;
        if (b == e) return false;
        std::int64_t i = 0;
        auto ri = std::from_chars(b, e, i);
        if (ri.ec == std::errc() && ri.ptr == e) {
            p.type = 'L';
            p.integer = i;
            p.number = double(i);
            return true;
        }
        double d = 0;
        auto rd = std::from_chars(b, e, d);
        if (rd.ptr != e || (rd.ec != std::errc() && rd.ec != std::errc::result_out_of_range)) return false;
        if (rd.ec == std::errc::result_out_of_range) d = std::strtod(std::string(b, e).c_str(), nullptr);  // overflow -> inf, underflow -> 0
        p.type = 'D';
        p.number = d;
        return true;
    }

    Prop string() {
        const unsigned char* start = ++p_;
        while (p_ < end_ && *p_ != '"') {
            if (*p_ == '\n') ++line_;
            ++p_;
        }
        if (p_ >= end_) fail("a quoted string is not closed");
        std::string s(reinterpret_cast<const char*>(start), std::size_t(p_ - start));
        ++p_;
        for (std::size_t at = s.find("&quot;"); at != std::string::npos; at = s.find("&quot;", at + 1)) s.replace(at, 6, "\"");
        // "Class::Name" -> "Name\0\1Class", the binary form, where the part before "::" is a class
        // name (letters, digits, '_'): names of objects, connections and takes.
        const std::size_t colons = s.find("::");
        if (colons != std::string::npos && colons > 0) {
            bool cls = true;
            for (std::size_t i = 0; i < colons; ++i)
                cls = cls && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_');
            if (cls) s = s.substr(colons + 2) + std::string("\0\1", 2) + s.substr(0, colons);
        }
        return stored('S', std::move(s));
    }

    Prop stored(char type, std::string&& bytes) {
        spend(bytes.size() + sizeof(std::string));
        file_.text.push_back(std::move(bytes));
        Prop p;
        p.type = type;
        p.data = reinterpret_cast<const unsigned char*>(file_.text.back().data());
        p.bytes = std::uint32_t(file_.text.back().size());
        return p;
    }

    // `*N { a: v,v,... }`: N elements, stored as the binary layout of 'l' (all integers) or 'd'.
    Prop array(const std::string& record) {
        ++p_;
        const std::size_t n = word_length();
        std::uint64_t count = 0;
        auto r = std::from_chars(reinterpret_cast<const char*>(p_), reinterpret_cast<const char*>(p_ + n), count);
        if (!n || r.ec != std::errc() || r.ptr != reinterpret_cast<const char*>(p_ + n))
            fail("array '" + record + "': expected its element count after '*', found " + shown());
        p_ += n;
        if (count > 0xffffffffull) fail("array '" + record + "' claims " + std::to_string(count) + " elements, past FBX's 2^32");
        if (const std::string problem = file_.budget.check(double(count) * 8, "array '" + record + "' (" + std::to_string(count) + " elements)");
            !problem.empty())
            fail(problem);
        skip();
        if (p_ >= end_ || *p_ != '{') fail("array '" + record + "': expected '{' after its count, found " + shown());
        ++p_;
        skip();
        std::vector<std::int64_t> ints;
        std::vector<double> reals;
        bool integral = true;
        ints.reserve(count);
        if (at_name()) {
            if (word_length() != 1 || *p_ != 'a') fail("array '" + record + "': expected 'a:', found " + shown());
            p_ += 2;
            skip();
            while (p_ < end_ && *p_ != '}') {
                const std::size_t w = word_length();
                Prop e;
                if (!w || !number(p_, w, e)) fail("array '" + record + "': expected a number, found " + shown());
                p_ += w;
                if (ints.size() + reals.size() >= count)
                    fail("array '" + record + "' holds more than its " + std::to_string(count) + " elements");
                if (integral && e.type == 'D') {
                    integral = false;
                    reals.reserve(count);
                    for (std::int64_t i : ints) reals.push_back(double(i));
                    ints = {};
                }
                if (integral) ints.push_back(e.integer);
                else reals.push_back(e.number);
                skip();
                if (p_ < end_ && *p_ == ',') {
                    ++p_;
                    skip();
                }
            }
        }
        skip();
        if (p_ >= end_ || *p_ != '}') fail("array '" + record + "' is not closed with '}'");
        ++p_;
        const std::size_t got = integral ? ints.size() : reals.size();
        if (got != count)
            fail("array '" + record + "' holds " + std::to_string(got) + " elements, not the " + std::to_string(count) + " it claims");
        std::string bytes(count * 8, '\0');
        if (count) std::memcpy(bytes.data(), integral ? static_cast<const void*>(ints.data()) : reals.data(), bytes.size());
        Prop p = stored(integral ? 'l' : 'd', std::move(bytes));
        p.count = std::uint32_t(count);
        return p;
    }

    RecordFile& file_;
    const unsigned char* p_;
    const unsigned char* end_;
    long line_ = 1;
};

// The version: FBXHeaderExtension's FBXVersion, else the opening "; FBX 7.4.0 project file".
std::uint32_t ascii_version(const RecordFile& file) {
    if (const Record* h = file.section("FBXHeaderExtension"))
        if (const Record* v = h->child("FBXVersion"); v && !v->props.empty() && v->props[0].type == 'L')
            return v->props[0].integer > 0 && v->props[0].integer < 100000 ? std::uint32_t(v->props[0].integer) : 0;
    const std::string head(reinterpret_cast<const char*>(file.bytes.data()), std::min<std::size_t>(file.bytes.size(), 256));
    const std::size_t at = head.find("; FBX ");
    if (at == std::string::npos) return 0;
    int major = 0, minor = 0, patch = 0;
    if (std::sscanf(head.c_str() + at + 6, "%d.%d.%d", &major, &minor, &patch) < 2 || major < 1 || major > 99 || minor < 0 || minor > 9)
        return 0;
    return std::uint32_t(major * 1000 + minor * 100);
}

// FBX 7.2 and later write KeyAttrDataFloat as the integers whose bits are the floats (some of
// its floats are packed integers): the binary files' 'f' array, bit for bit.
void key_floats_from_bits(Record& r, RecordFile& file) {
    if (r.name == "KeyAttrDataFloat" && !r.props.empty() && r.props[0].type == 'l') {
        Prop& p = r.props[0];
        std::string bits(std::size_t(p.count) * 4, '\0');
        for (std::uint32_t i = 0; i < p.count; ++i) {
            std::int64_t v;
            std::memcpy(&v, p.data + std::size_t(i) * 8, 8);
            if (v < INT32_MIN || v > UINT32_MAX) throw Malformed("KeyAttrDataFloat holds " + std::to_string(v) + ", not the bits of a float");
            const std::uint32_t u = std::uint32_t(v);
            std::memcpy(&bits[std::size_t(i) * 4], &u, 4);
        }
        file.text.push_back(std::move(bits));  // the 8-byte copy stays counted: the budget only shrinks
        p.type = 'f';
        p.data = reinterpret_cast<const unsigned char*>(file.text.back().data());
        p.bytes = std::uint32_t(file.text.back().size());
    }
    for (Record& c : r.children) key_floats_from_bits(c, file);
}

}  // namespace

void parse_ascii_records(RecordFile& file) {
    AsciiParser(file).parse();
    file.version = ascii_version(file);
    if (!file.version) throw Malformed("ASCII FBX without a version (no FBXHeaderExtension FBXVersion, no '; FBX x.y' line)");
    if (file.version >= 7200)
        if (Record* objects = const_cast<Record*>(file.section("Objects")))
            for (Record& r : objects->children)
                if (r.name == "AnimationCurve") key_floats_from_bits(r, file);
}

}  // namespace rigscope::fbx
