#include "io/usd/usd_values.h"

#include <cmath>

namespace rigscope::usd {

namespace {

bool flat(const Value& v, std::vector<double>& numbers, int& width) {
    switch (v.kind) {
        case Value::Kind::Number:
            numbers.assign(1, v.number);
            width = 1;
            return true;
        case Value::Kind::Tuple:
        case Value::Kind::NumberArray:
            if (v.kind == Value::Kind::Tuple && !v.items.empty()) return false;
            numbers = v.numbers.doubles();
            width = v.width;
            return true;
        case Value::Kind::List:
            // An empty list: [] parses as an empty number array, a list only when it holds other values.
            return false;
        default: return false;
    }
}

bool is_quaternion_type(const std::string& type) { return type.compare(0, 4, "quat") == 0; }

// A text layer's numbers are decimal and parse as doubles, but Sdf stores each in the
// attribute's own type: a float (float3, quatf, point3f, ...) or a half (half3, quath, ...,
// which usd-core writes with 6 digits, 3.7e-6 from the half they stand for). Rounded so here
// too, a text layer poses what its crate twin does; a crate's values are already of the type.
enum class Stored { Double, Single, Half };

Stored stored_as(const std::string& type) {
    if (type.empty()) return Stored::Double;
    if (type.compare(0, 4, "half") == 0 || type.back() == 'h') return Stored::Half;
    if (type.compare(0, 5, "float") == 0 || type.back() == 'f') return Stored::Single;
    return Stored::Double;
}

float rounded(double x, Stored as) {
    return as == Stored::Half ? static_cast<float>(Eigen::half(static_cast<float>(x))) : static_cast<float>(x);
}

void round_to_type(const std::string& type, std::vector<double>& numbers) {
    const Stored as = stored_as(type);
    if (as != Stored::Double)
        for (double& x : numbers) x = double(rounded(x, as));
}

// The numbers of a text layer's Double array as the attribute's type stores them (floats);
// any other array as it is.
Numbers rounded_to_type(const std::string& type, const Numbers& numbers) {
    const Stored as = stored_as(type);
    if (numbers.type() != Numbers::Type::Double || as == Stored::Double) return numbers;
    return numbers.visit([as](const auto* d, std::size_t n) {
        std::vector<float> out(n);
        for (std::size_t i = 0; i < n; ++i) out[i] = rounded(double(d[i]), as);
        return Numbers(std::move(out));
    });
}

bool flat(const PropertySpec& prop, const Value& v, std::vector<double>& numbers, int& width) {
    if (!flat(v, numbers, width)) return false;
    round_to_type(prop.type, numbers);
    return true;
}

// The value a property holds without a time: its default, else its first sample; null for none.
const Value* untimed_value(const PropertySpec& prop) {
    if (prop.has_default && !prop.value.is_none()) return &prop.value;
    if (!prop.samples.empty()) return &prop.samples.front().second;
    return nullptr;
}

}  // namespace

bool numbers_at(const PropertySpec& prop, double t, std::vector<double>& numbers, int& width) {
    if (prop.samples.empty() || std::isnan(t)) {
        const Value* v = untimed_value(prop);
        return v && flat(prop, *v, numbers, width);
    }
    const auto& s = prop.samples;
    if (t <= s.front().first) return flat(prop, s.front().second, numbers, width);
    if (t >= s.back().first) return flat(prop, s.back().second, numbers, width);
    std::size_t k = 1;
    while (s[k].first < t) ++k;
    if (s[k].first == t) return flat(prop, s[k].second, numbers, width);
    std::vector<double> a, b;
    int wa = 1, wb = 1;
    const bool ha = flat(prop, s[k - 1].second, a, wa), hb = flat(prop, s[k].second, b, wb);
    // A blocked sample or one of another shape holds the earlier value, as Usd's interpolator does.
    if (!ha) return false;
    if (!hb || a.size() != b.size() || wa != wb) {
        numbers = std::move(a);
        width = wa;
        return true;
    }
    const double u = (t - s[k - 1].first) / (s[k].first - s[k - 1].first);
    numbers.resize(a.size());
    width = wa;
    if (is_quaternion_type(prop.type) && wa == 4) {
        for (std::size_t e = 0; e + 4 <= a.size(); e += 4) {
            Eigen::Quaterniond qa = usd_quaternion(&a[e]), qb = usd_quaternion(&b[e]);
            Eigen::Quaterniond q = qa.slerp(u, qb);
            numbers[e] = q.w(), numbers[e + 1] = q.x(), numbers[e + 2] = q.y(), numbers[e + 3] = q.z();
        }
    } else {
        for (std::size_t i = 0; i < a.size(); ++i) numbers[i] = a[i] + (b[i] - a[i]) * u;
    }
    return true;
}

bool stored_numbers(const PropertySpec& prop, Numbers& numbers, int& width) {
    const Value* v = untimed_value(prop);
    if (!v) return false;
    if (v->kind == Value::Kind::Number) {
        std::vector<double> one{v->number};
        round_to_type(prop.type, one);
        numbers = Numbers(std::move(one));
        width = 1;
        return true;
    }
    if ((v->kind != Value::Kind::Tuple && v->kind != Value::Kind::NumberArray) || !v->items.empty()) return false;
    numbers = rounded_to_type(prop.type, v->numbers);
    width = v->width;
    return true;
}

std::vector<Eigen::Vector3f> points_in_metres(const Numbers& numbers, double meters_per_unit) {
    std::vector<Eigen::Vector3f> out(numbers.size() / 3);
    numbers.visit([&](const auto* x, std::size_t) {
        for (std::size_t v = 0; v < out.size(); ++v)
            out[v] = (Eigen::Vector3d(double(x[3 * v]), double(x[3 * v + 1]), double(x[3 * v + 2])) * meters_per_unit).cast<float>();
    });
    return out;
}

std::vector<double> sample_times(const PropertySpec& prop) {
    std::vector<double> out;
    out.reserve(prop.samples.size());
    for (const auto& s : prop.samples) out.push_back(s.first);
    return out;
}

std::vector<std::string> strings_of(const Value& v) {
    std::vector<std::string> out;
    if (v.kind == Value::Kind::List)
        for (const auto& i : v.items)
            if (i.kind == Value::Kind::String || i.kind == Value::Kind::Token) out.push_back(i.text);
    if (v.kind == Value::Kind::String || v.kind == Value::Kind::Token) out.push_back(v.text);
    return out;
}

Eigen::Matrix4d usd_matrix(const double* m) {
    Eigen::Matrix4d out;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) out(c, r) = m[r * 4 + c];
    return out;
}

}  // namespace rigscope::usd
