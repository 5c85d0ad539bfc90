#include "rigscope/core/warning.h"

namespace rigscope {

const char* warning_kind_name(WarningKind kind) {
    switch (kind) {
        case WarningKind::Skipped: return "skipped";
        case WarningKind::AttributeDropped: return "attribute_dropped";
        case WarningKind::SkinWeights: return "skin_weights";
        case WarningKind::Sampling: return "sampling";
        case WarningKind::Transform: return "transform";
        case WarningKind::Naming: return "naming";
        case WarningKind::Replaced: return "replaced";
    }
    return "unknown";
}

}  // namespace rigscope
