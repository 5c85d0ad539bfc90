#include "io/usd/usd_values.h"

#include <algorithm>
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

bool interpolated_type(const std::string& type) {
    for (const char* t : {"half", "float", "double", "quat", "matrix", "point", "vector", "normal", "color", "texCoord", "timecode"})
        if (type.compare(0, std::char_traits<char>::length(t), t) == 0) return true;
    return false;
}

float to_half(float x) { return static_cast<float>(Eigen::half(x)); }

// GfLerp(u, a, b) = (1 - u) a + u b in the arithmetic Gf runs it in for the stored type. A Gf
// vector scales each component in place (`c *= s`): a float component takes the double product
// rounded to float, a half one multiplies by s rounded to float and rounds to half (ilmbase's
// half *= float); the two products are added in the component type. A scalar is promoted to
// double and the result rounded once to the type.
double usd_lerp(Stored as, bool vector, double a, double b, double u) {
    if (as == Stored::Double) return (1 - u) * a + u * b;
    if (!vector) {
        const float r = float((1 - u) * a + u * b);
        return as == Stored::Half ? double(to_half(r)) : double(r);
    }
    if (as == Stored::Single) {
        const float x = float(a * (1 - u)), y = float(b * u);
        return double(x + y);
    }
    const float x = to_half(float(a) * float(1 - u)), y = to_half(float(b) * float(u));
    return double(to_half(x + y));
}

// GfSlerp(u, q0, q1) for a quatd, quatf or quath (real first, as stored): the short way (q1
// negated when the dot product is negative), angle and sine held in the quaternion's scalar type,
// a plain lerp when the two are within 1e-5 of parallel, and the result not normalised: USD
// makes a matrix of it as it is (UsdSkel), or normalises it first (an orient xformOp's GfRotation).
void usd_slerp(Stored as, const double* q0, const double* q1, double u, double* out) {
    double cos_theta;
    if (as == Stored::Double) {
        cos_theta = q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3] + q0[0] * q1[0];
    } else {
        const float dot = float(q0[1]) * float(q1[1]) + float(q0[2]) * float(q1[2]) + float(q0[3]) * float(q1[3]);
        const float real = float(q0[0]) * float(q1[0]);
        cos_theta = as == Stored::Half ? double(to_half(dot) + real) : double(dot + real);
    }
    const bool flip = cos_theta < 0;
    if (flip) cos_theta = -cos_theta;
    double s0 = 1 - u, s1 = u;
    if (1 - cos_theta > 0.00001) {
        auto in_type = [as](double x) { return as == Stored::Double ? x : as == Stored::Single ? double(float(x)) : double(to_half(float(x))); };
        const double theta = in_type(std::acos(cos_theta));
        const double sin_theta = in_type(std::sin(theta));
        s0 = std::sin((1 - u) * theta) / sin_theta;
        s1 = std::sin(u * theta) / sin_theta;
    }
    if (flip) s1 = -s1;
    for (int i = 0; i < 4; ++i) {
        if (as == Stored::Double) {
            out[i] = s0 * q0[i] + s1 * q1[i];
        } else if (as == Stored::Single) {
            const float x = float(q0[i] * s0), y = float(q1[i] * s1);
            out[i] = double(x + y);
        } else {
            const float x = to_half(float(q0[i]) * float(s0)), y = to_half(float(q1[i]) * float(s1));
            out[i] = double(to_half(x + y));
        }
    }
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
    // The first sample at or after t (a frame of a long shot is evaluated against every sample).
    const std::size_t k = std::size_t(std::lower_bound(s.begin(), s.end(), t, [](const auto& x, double v) { return x.first < v; }) - s.begin());
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
    // Types USD does not interpolate (ints, bools) hold the earlier sample.
    if (!interpolated_type(prop.type)) {
        numbers = std::move(a);
        width = wa;
        return true;
    }
    const double u = (t - s[k - 1].first) / (s[k].first - s[k - 1].first);
    numbers.resize(a.size());
    width = wa;
    const Stored as = stored_as(prop.type);
    if (is_quaternion_type(prop.type) && wa == 4) {
        for (std::size_t e = 0; e + 4 <= a.size(); e += 4) usd_slerp(as, &a[e], &b[e], u, &numbers[e]);
    } else {
        // A tuple element (float3, half3, double3, matrix4d) is a Gf vector, scaled in place in
        // its own type; a scalar (float, half, their arrays) is interpolated as a double.
        const bool vector = wa > 1;
        for (std::size_t i = 0; i < a.size(); ++i) numbers[i] = usd_lerp(as, vector, a[i], b[i], u);
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
