#include "metrics/textfile.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace cabinet::metrics {

bool write_textfile(const std::string& dir, const std::string& name, const std::string& text) {
    if (dir.empty()) return true;
    const std::string path = dir + "/" + name;
    // The collector reads only *.prom: the temporary name is skipped.
    const std::string tmp = path + ".tmp." + std::to_string(::getpid());
    std::FILE* f = std::fopen(tmp.c_str(), "w");
    bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (f) ok = std::fclose(f) == 0 && ok;
    if (ok) ok = std::rename(tmp.c_str(), path.c_str()) == 0;
    if (!ok) {
        spdlog::warn("metrics: cannot write {}: {}", path, std::strerror(errno));
        std::remove(tmp.c_str());
    }
    return ok;
}

}  // namespace cabinet::metrics
