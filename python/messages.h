// The engine's log messages (spdlog: warnings such as "N faces collapse") inside Python. The CLI
// prints them to stderr; a Python user filters, records or raises them with `warnings`, and reads
// the rest with `logging`. The module's sink keeps them instead of printing anything, and the
// package (rigscope/__init__.py) takes them after each call, on the calling thread with the GIL,
// where warnings.warn may raise (a "error" filter) without unwinding through the engine.
#pragma once

#include <string>

#include <pybind11/pybind11.h>

namespace rigscope_python {

// Makes spdlog's default logger the module's sink (called once, at import).
void install_message_sink();

// The messages logged since the last call, each once in the order first logged, as a list of
// (logging level, text) with Python's level numbers (WARNING 30, INFO 20, DEBUG 10).
pybind11::list take_messages();

}  // namespace rigscope_python

namespace rigscope_python {

// `message` (the engine's, written for the CLI) naming Python's keywords instead of the CLI's
// options: "--reference-scale 0.01" is "reference_scale=0.01", "--reference-match position" is
// 'reference_match="position"', "--rom" is "rom=". A Python user passes keywords, not flags.
std::string python_keywords(const std::string& message);

}  // namespace rigscope_python
