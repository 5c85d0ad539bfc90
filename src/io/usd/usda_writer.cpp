// The .usda writer (rigscope/io/usda_output.h): a text layer that sublayers a USD input and
// holds over-specs of its prims, nested as the prim paths are.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <memory>

#include "io/usd/usd_reader.h"
#include "rigscope/core/error.h"
#include "rigscope/io/usda_output.h"

namespace rigscope {

bool is_usd_path(const std::string& path) {
    const auto slash = path.find_last_of('/');
    const auto dot = path.find_last_of('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return false;
    std::string ext = path.substr(dot + 1);
    for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext == "usd" || ext == "usda" || ext == "usdc" || ext == "usdz";
}

UsdStageFacts read_usd_stage_facts(const std::string& path, std::uint64_t max_memory, bool allow_outside) {
    // The composed stage, not the root layer: a shot's SkelRoot, instances and primvars come
    // through its sublayers, references and payloads.
    const usd::Layer stage = usd::read_stage(path, max_memory, allow_outside);
    UsdStageFacts f;
    f.instances_with_local_opinions = stage.instances_with_local_opinions;
    if (auto it = stage.metadata.find("defaultPrim"); it != stage.metadata.end()) f.default_prim = it->second.text;
    // The SkelRoots among the prims (the reader's own rule: bindings only under one), and the
    // other skinnable prims with joint influences below one (the reader skips them, warning).
    struct At {
        const usd::PrimSpec* prim;
        std::string path;
        bool in_root, influenced;
    };
    std::vector<At> stack;
    for (const auto& r : stage.roots) stack.push_back({r.get(), "/" + r->name, false, false});
    while (!stack.empty()) {
        At a = stack.back();
        stack.pop_back();
        const usd::PrimSpec& p = *a.prim;
        if (p.type == "SkelRoot") f.skel_roots.insert(a.path), a.in_root = true;
        if (const usd::Value* v = p.meta("instanceable"); v && v->kind == usd::Value::Kind::Number && v->number != 0) f.instances.insert(a.path);
        for (const usd::PropertySpec& prop : p.properties) {
            // An authored index array (not blocked) reindexes the primvar's values.
            static const std::string kIndices = ":indices";
            const std::string& n = prop.name;
            if (n.size() <= kIndices.size() || n.compare(0, 9, "primvars:") != 0 || n.compare(n.size() - kIndices.size(), kIndices.size(), kIndices) != 0)
                continue;
            const bool has_value = (prop.has_default && prop.value.kind != usd::Value::Kind::None) || !prop.samples.empty();
            if (has_value) f.indexed_primvars[a.path].insert(n.substr(0, n.size() - kIndices.size()));
        }
        a.influenced = a.in_root && (a.influenced || p.property("primvars:skel:jointIndices"));
        if (a.influenced && p.type != "Mesh" && !p.type.empty() && p.type != "Xform" && p.type != "Scope" &&
            p.type != "SkelRoot" && p.type != "Skeleton" && p.type != "SkelAnimation" && p.type != "BlendShape")
            f.unread_skinned.insert(a.path);
        for (const auto& c : p.children) stack.push_back({c.get(), a.path + "/" + c->name, a.in_root, a.influenced});
    }
    if (f.default_prim.empty())
        for (const auto& r : stage.roots)
            if (r->specifier == usd::PrimSpec::Specifier::Def) {
                f.default_prim = r->name;
                break;
            }
    return f;
}

std::string usd_prim_path(const Scene& scene, int mesh) {
    std::string path;
    for (int n = scene.meshes[std::size_t(mesh)].node; n >= 0; n = scene.nodes[std::size_t(n)].parent)
        path = "/" + scene.nodes[std::size_t(n)].name + path;
    return path;
}

std::string usd_relative_asset_path(const std::string& input, const std::string& output) {
    namespace fs = std::filesystem;
    const fs::path in = fs::absolute(input).lexically_normal();
    const fs::path dir = fs::absolute(output).lexically_normal().parent_path();
    std::string rel = in.lexically_relative(dir).generic_string();
    if (rel.empty()) rel = in.generic_string();
    if (rel.find("@@@") != std::string::npos || rel.find_first_of("\n\r") != std::string::npos)
        throw Error(kExitUsage, input + ": the path cannot be written as a USD asset path (it holds '@@@' or a line break)");
    // A relative asset path that does not start with ./ or ../ is searched for through the
    // resolver's search path before the layer's folder; ./ anchors it to the layer.
    if (rel.compare(0, 3, "../") != 0 && rel[0] != '/') rel = "./" + rel;
    return rel;
}

void append_usda_array(std::string& out, const float* values, std::size_t count, int width) {
    out += '[';
    for (std::size_t i = 0; i < count; ++i) {
        if (i) out += ", ";
        if (width > 1) out += '(';
        for (int c = 0; c < width; ++c) {
            if (c) out += ", ";
            append_number(out, values[i * std::size_t(width) + std::size_t(c)]);
        }
        if (width > 1) out += ')';
    }
    out += ']';
}

namespace {

// A string literal: the names rigscope writes are prim names and tokens, but a quote or a
// backslash in one must not end the literal.
std::string quoted(const std::string& s) {
    std::string q = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') q += '\\';
        q += c;
    }
    return q + '"';
}

// The overs as a tree of path components, so a prim's over holds its children's.
struct OverNode {
    std::string name;
    const UsdaOver* over = nullptr;
    std::vector<std::unique_ptr<OverNode>> children;
    OverNode* child(const std::string& n) {
        for (auto& c : children)
            if (c->name == n) return c.get();
        children.push_back(std::make_unique<OverNode>());
        children.back()->name = n;
        return children.back().get();
    }
};

// The declaration (its default value, if any, and its metadata), then the samples: the form
// usdcat writes.
void write_attribute(const UsdaAttribute& a, const std::string& indent, OutputFile& out) {
    std::string& b = out.buffer();
    b += indent + a.type + " " + a.name;
    if (a.default_value) b += " = " + *a.default_value;
    if (!a.interpolation.empty()) b += " (\n" + indent + "    interpolation = " + quoted(a.interpolation) + "\n" + indent + ")";
    b += "\n";
    if (a.samples.empty()) return;
    b += indent + a.type + " " + a.name + ".timeSamples = {\n";
    for (const auto& [code, value] : a.samples) {
        b += indent + "    ";
        append_number(b, code);
        b += ": ";
        b += value;
        b += ",\n";
        out.maybe_flush();
    }
    b += indent + "}\n";
}

void write_node(const OverNode& n, const std::string& indent, OutputFile& out) {
    std::string& b = out.buffer();
    b += indent + "over ";
    if (n.over && !n.over->type_name.empty()) b += n.over->type_name + " ";
    b += quoted(n.name);
    if (n.over && n.over->uninstance) b += " (\n" + indent + "    instanceable = false\n" + indent + ")";
    b += "\n" + indent + "{\n";
    if (n.over)
        for (const UsdaAttribute& a : n.over->attributes) write_attribute(a, indent + "    ", out);
    for (std::size_t i = 0; i < n.children.size(); ++i) {
        if (i || (n.over && !n.over->attributes.empty())) b += "\n";
        write_node(*n.children[i], indent + "    ", out);
    }
    b += indent + "}\n";
    out.maybe_flush();
}

}  // namespace

void write_usda_layer(const UsdaLayer& layer, OutputFile& out) {
    OverNode root;
    for (const UsdaOver& o : layer.overs) {
        OverNode* n = &root;
        std::size_t at = 1;
        while (at <= o.path.size()) {
            std::size_t end = o.path.find('/', at);
            if (end == std::string::npos) end = o.path.size();
            n = n->child(o.path.substr(at, end - at));
            at = end + 1;
        }
        n->over = &o;
    }
    std::string& b = out.buffer();
    b += "#usda 1.0\n(\n";
    b += "    doc = " + quoted("rigscope: over-specs on " + layer.sublayer) + "\n";
    if (!layer.default_prim.empty()) b += "    defaultPrim = " + quoted(layer.default_prim) + "\n";
    b += "    metersPerUnit = ";
    append_number(b, layer.meters_per_unit);
    b += "\n    upAxis = " + quoted(layer.up_axis) + "\n";
    b += "    timeCodesPerSecond = ";
    append_number(b, layer.time_codes_per_second);
    b += "\n";
    if (layer.time_code_range) {
        b += "    startTimeCode = ";
        append_number(b, layer.time_code_range->first);
        b += "\n    endTimeCode = ";
        append_number(b, layer.time_code_range->second);
        b += "\n";
    }
    // An asset path holding '@' is written between triple delimiters (usd_relative_asset_path
    // refused one holding '@@@').
    const std::string at = layer.sublayer.find('@') == std::string::npos ? "@" : "@@@";
    b += "    subLayers = [\n        " + at + layer.sublayer + at + "\n    ]\n)\n";
    for (const auto& c : root.children) {
        b += "\n";
        write_node(*c, "", out);
    }
}

}  // namespace rigscope
