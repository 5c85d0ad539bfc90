// How check says its --max-intersections verdict (core/intersection_verdict.h): a line of text,
// a JUnit case whose name says "intersections", and a JSON member. Formats only.
#pragma once

#include <string>

#include "rigscope/core/intersection_verdict.h"
#include "rigscope/io/junit_report.h"

namespace rigscope {

// "intersections: frame 64 (clip 'Walk'): 8 face pairs cross (Cylinder with itself), most at joint
// Bone (7), past the limit of 0; 28 of 91 frames over", ending in a newline.
std::string intersection_text(const IntersectionVerdict& v);

// The case of class rigscope.check.<path>.intersections, failed past the limit.
JUnitCase intersection_junit_case(const IntersectionVerdict& v, const std::string& file, const std::string& relpath);

// {"limit", "passed", "frames", "frames_over", "worst": {clip, frame, pairs, meshes, joint, joint_pairs} or null}.
std::string intersection_json(const IntersectionVerdict& v);

}  // namespace rigscope
