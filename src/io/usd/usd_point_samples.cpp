#include "io/usd/usd_point_samples.h"

#include <cmath>
#include <sstream>

#include "io/usd/usd_values.h"
#include "rigscope/core/error.h"

namespace rigscope::usd {

namespace {

std::string code_text(double t) {
    std::ostringstream s;
    s.precision(10);
    s << t;
    return s.str();
}

// One time sample's numbers, as the property's default would give them; false for a blocked
// sample or one that holds no numbers.
bool sample_numbers(const PropertySpec& prop, const Value& value, Numbers& n, int& width) {
    PropertySpec one;
    one.type = prop.type;
    one.has_default = true;
    one.value = value;  // shares the sample's numbers
    return !value.is_none() && stored_numbers(one, n, width);
}

}  // namespace

std::shared_ptr<const PointCache> point_samples(const PropertySpec& prop, const PointSamplesContext& ctx) {
    const std::string what = "Mesh " + ctx.mesh_path + "'s points";
    // The samples are held as floats, as the mesh's positions are: one copy beside the layer's.
    const std::uint64_t bytes = std::uint64_t(prop.samples.size()) * ctx.points * sizeof(Eigen::Vector3f);
    ctx.charge(bytes);
    std::vector<double> times;
    std::vector<std::vector<Eigen::Vector3f>> samples;
    times.reserve(prop.samples.size());
    samples.reserve(prop.samples.size());
    for (const auto& [code, value] : prop.samples) {
        Numbers n;
        int width = 1;
        if (!sample_numbers(prop, value, n, width))
            throw bad_input(ctx.file, what + " are blocked or hold no array at time code " + code_text(code) +
                                          " (rigscope reads a point cache whose every sample holds the points)");
        if (width != 3) throw bad_input(ctx.file, what + " at time code " + code_text(code) + " are not 3-vectors");
        if (n.size() / 3 != ctx.points)
            throw bad_input(ctx.file, what + " at time code " + code_text(code) + " hold " + std::to_string(n.size() / 3) +
                                          " points, not the mesh's " + std::to_string(ctx.points) +
                                          ": a topology that changes over time, which rigscope does not read");
        if (!std::isfinite(code)) throw bad_input(ctx.file, what + " have a sample at a time code that is not a number");
        times.push_back(code / ctx.time_codes_per_second);
        samples.push_back(points_in_metres(n, ctx.meters_per_unit));
    }
    // Sdf keeps samples ordered by time and one per time code; a crate file could hold otherwise.
    for (std::size_t i = 1; i < times.size(); ++i)
        if (!(times[i] > times[i - 1])) throw bad_input(ctx.file, what + "' time samples are not in increasing time order");
    return std::make_shared<MemoryPointCache>(ctx.file + " (" + ctx.mesh_path + ".points)", std::move(times), std::move(samples));
}

void check_constant_topology(const PropertySpec& prop, const Numbers& used, const std::string& file,
                             const std::string& mesh_path) {
    for (const auto& [code, value] : prop.samples) {
        Numbers n;
        int width = 1;
        if (!sample_numbers(prop, value, n, width) || n != used)
            throw bad_input(file, "Mesh " + mesh_path + "'s " + prop.name + " at time code " + code_text(code) +
                                      " differ from its other values: a topology that changes over time, which rigscope does not read");
    }
}

}  // namespace rigscope::usd
