#pragma once
// A .prom file for node_exporter's textfile collector (METRICS_TEXTFILE_DIR): how the
// worker and the watchdog, which serve no HTTP, export their metrics. Written whole to a
// temporary name and renamed, so the collector never reads half a file.
#include <string>

namespace cabinet::metrics {

// Writes `text` to DIR/NAME; false (logged as a warning) when it can't. An empty `dir`
// writes nothing and is not a failure.
bool write_textfile(const std::string& dir, const std::string& name, const std::string& text);

}  // namespace cabinet::metrics
