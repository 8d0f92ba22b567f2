#include "metrics/exposition.hpp"

#include <cmath>
#include <cstdio>

namespace cabinet::metrics {
namespace {

// Label values escape backslash, double quote and line feed; HELP escapes backslash and LF.
void escape(std::string& out, std::string_view v, bool quote) {
    for (char c : v) {
        if (c == '\\') out += "\\\\";
        else if (c == '\n') out += "\\n";
        else if (c == '"' && quote) out += "\\\"";
        else out += c;
    }
}

void number(std::string& out, double v) {
    if (std::isnan(v)) { out += "NaN"; return; }
    if (std::isinf(v)) { out += v > 0 ? "+Inf" : "-Inf"; return; }
    char buf[32];
    // Whole numbers (most counters) exactly; the rest to 15 digits (a sum of microseconds).
    const int n = v == std::floor(v) && std::fabs(v) < 1e15 ? std::snprintf(buf, sizeof buf, "%.0f", v)
                                                             : std::snprintf(buf, sizeof buf, "%.15g", v);
    out.append(buf, static_cast<size_t>(n));
}

}  // namespace

void Exposition::family(std::string_view name, std::string_view type, std::string_view help) {
    out_ += "# HELP ";
    out_ += name;
    out_ += ' ';
    escape(out_, help, false);
    out_ += "\n# TYPE ";
    out_ += name;
    out_ += ' ';
    out_ += type;
    out_ += '\n';
}

void Exposition::labels(Labels labels, std::string_view le) {
    if (labels.size() == 0 && le.empty()) return;
    out_ += '{';
    bool first = true;
    for (const auto& [k, v] : labels) {
        if (!first) out_ += ',';
        first = false;
        out_ += k;
        out_ += "=\"";
        escape(out_, v, true);
        out_ += '"';
    }
    if (!le.empty()) {
        if (!first) out_ += ',';
        out_ += "le=\"";
        out_ += le;
        out_ += '"';
    }
    out_ += '}';
}

void Exposition::sample(std::string_view name, Labels l, double value) {
    out_ += name;
    labels(l);
    out_ += ' ';
    number(out_, value);
    out_ += '\n';
}

void Exposition::histogram(std::string_view name, Labels l, const uint64_t* words) {
    uint64_t cumulative = 0;
    char le[32];
    for (size_t b = 0; b <= kLatencyBoundsUs.size(); ++b) {
        cumulative += words[b];
        if (b < kLatencyBoundsUs.size()) std::snprintf(le, sizeof le, "%g", static_cast<double>(kLatencyBoundsUs[b]) / 1e6);
        else std::snprintf(le, sizeof le, "+Inf");
        out_ += name;
        out_ += "_bucket";
        labels(l, le);
        out_ += ' ';
        number(out_, static_cast<double>(cumulative));
        out_ += '\n';
    }
    out_ += name;
    out_ += "_sum";
    labels(l);
    out_ += ' ';
    number(out_, static_cast<double>(words[kHistogramWords - 1]) / 1e6);
    out_ += "\n";
    out_ += name;
    out_ += "_count";
    labels(l);
    out_ += ' ';
    number(out_, static_cast<double>(cumulative));
    out_ += '\n';
}

}  // namespace cabinet::metrics
