// A prim's index as OpenUSD's Pcp builds it, for the arcs rigscope composes: the graph of the
// sites (a layer stack and a path in it) whose specs hold opinions about the prim, in strength
// order. Each node holds its layer stack's specs at its site; its children are the arcs authored
// there, sorted LIVRPS as Pcp sorts siblings: variants, then references, then payloads (an arc
// authored on the prim itself before one its ancestor brought, then in authored order). The
// strength order of the opinions is the graph walked depth first.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "io/usd/usd_layer_stack.h"

namespace rigscope::usd {

enum class ArcKind { Root = 0, Variant = 1, Reference = 2, Payload = 3 };

struct IndexNode {
    const LayerStack* stack = nullptr;
    std::vector<Site> sites;  // the specs at the site in the stack, strongest first
    std::string site_path;    // the site's path in the stack's namespace (variant selections left out)
    TimeMap map;              // the node's stack's times into the stage's
    // Paths in the node's namespace into the stage's: src_prefix (a reference's target) is
    // dst_prefix (the prim that references it) there; a root or variant node maps them as they are.
    bool identity = true;
    std::string src_prefix, dst_prefix;
    ArcKind arc = ArcKind::Root;
    int depth = 0;  // the namespace depth of the prim whose spec authored the arc
    IndexNode* parent = nullptr;
    std::vector<std::unique_ptr<IndexNode>> children;
    bool arcs_done = false;      // references and payloads of the site added
    bool variants_done = false;  // variant sets of the site added
    std::string describe;        // file<path>, for messages about cycles
};

// A new node in `node`'s layer stack and namespace: its stack, time map and path mapping, the
// rest left to the caller (a variant's node, a child prim's node).
std::unique_ptr<IndexNode> node_like(const IndexNode& node);

// The node's nodes, itself first, depth first in strength order.
void strength_order(IndexNode& node, std::vector<IndexNode*>& out);

// `child` inserted among node's children in strength order (by arc kind, then the deeper
// authoring prim first, then after its equals).
void add_child(IndexNode& node, std::unique_ptr<IndexNode> child);

// The index of the child prim `name` carried down from `node`'s (the ancestral arcs): each node's
// specs' children of that name, the arcs kept. Null when no node there has a spec.
std::unique_ptr<IndexNode> child_index(const IndexNode& node, const std::string& name, IndexNode* parent);

// An absolute path authored in `node` as a path of the stage; empty when it lies outside what the
// node's reference maps (USD drops such a target too).
std::string map_to_stage(const IndexNode& node, const std::string& path);

}  // namespace rigscope::usd
