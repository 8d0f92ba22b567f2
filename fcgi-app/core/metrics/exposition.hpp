#pragma once
// Prometheus text exposition format 0.0.4: families (# HELP, # TYPE) and their samples.
// https://prometheus.io/docs/instrumenting/exposition_formats/
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "metrics/counter.hpp"

namespace cabinet::metrics {

inline constexpr std::string_view kContentType = "text/plain; version=0.0.4; charset=utf-8";

using Labels = std::initializer_list<std::pair<std::string_view, std::string_view>>;

class Exposition {
public:
    // Starts a family; its samples follow. `type`: counter, gauge, histogram.
    void family(std::string_view name, std::string_view type, std::string_view help);
    void sample(std::string_view name, Labels labels, double value);
    // A histogram's _bucket (cumulative, le in seconds), _sum (seconds) and _count from the
    // words of metrics/counter.hpp's Histogram.
    void histogram(std::string_view name, Labels labels, const uint64_t* words);

    const std::string& text() const { return out_; }

private:
    void labels(Labels labels, std::string_view le = {});
    std::string out_;
};

}  // namespace cabinet::metrics
