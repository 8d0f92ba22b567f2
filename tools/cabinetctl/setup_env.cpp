// The env file of `cabinetctl setup` (setup_env.hpp).
#include "setup_env.hpp"

#include <fcntl.h>
#include <grp.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <set>
#include <sstream>
#include <stdexcept>

namespace cabinet::ctl {
namespace {

// NAME of a "NAME=value" line, or empty.
std::string name_of(const std::string& line) {
    const auto eq = line.find('=');
    if (eq == std::string::npos || eq == 0 || line[0] == '#') return {};
    for (size_t i = 0; i < eq; ++i) {
        const char c = line[i];
        if (!(std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_'))
            return {};
    }
    return line.substr(0, eq);
}

[[noreturn]] void fail(const std::string& what, const std::string& path) {
    throw std::runtime_error(what + " " + path + ": " + std::strerror(errno));
}

}  // namespace

EnvValues parse_env(const std::string& text) {
    EnvValues out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        const std::string name = name_of(line);
        if (!name.empty()) out[name] = line.substr(name.size() + 1);
    }
    return out;
}

std::string with_values(const std::string& base, const EnvValues& values) {
    std::istringstream in(base);
    std::string line, out;
    std::set<std::string> done;
    while (std::getline(in, line)) {
        const std::string name = name_of(line);
        const auto it = values.find(name);
        if (!name.empty() && it != values.end()) {
            // A name set twice keeps one line: the first, with the new value.
            if (done.insert(name).second) out += name + "=" + it->second + "\n";
            continue;
        }
        out += line + "\n";
    }
    std::string added;
    for (const auto& [name, value] : values)
        if (!done.count(name)) added += name + "=" + value + "\n";
    if (!added.empty()) out += "\n# --- added by cabinetctl setup ---\n" + added;
    return out;
}

void write_env_file(const std::string& path, const std::string& text, const std::string& group_name, std::string& note) {
    const std::string tmp = path + ".setup-tmp";
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) fail("cannot create", tmp);
    struct FdCloser {
        int fd;
        ~FdCloser() { ::close(fd); }
    } closer{fd};
    if (const struct group* g = ::getgrnam(group_name.c_str())) {
        if (::fchown(fd, 0, g->gr_gid) != 0) fail("cannot give to group " + group_name + ":", tmp);
    } else {
        note = "this host has no group " + group_name + " (the package makes it): " + path + " keeps its owner's group";
    }
    if (::fchmod(fd, 0640) != 0) fail("cannot set the mode of", tmp);
    size_t off = 0;
    while (off < text.size()) {
        const ssize_t n = ::write(fd, text.data() + off, text.size() - off);
        if (n < 0) {
            if (errno == EINTR) continue;
            ::unlink(tmp.c_str());
            fail("cannot write", tmp);
        }
        off += static_cast<size_t>(n);
    }
    if (::fsync(fd) != 0 || ::rename(tmp.c_str(), path.c_str()) != 0) {
        ::unlink(tmp.c_str());
        fail("cannot replace", path);
    }
}

std::string random_hex(size_t bytes) {
    std::string raw(bytes, '\0');
    randombytes_buf(raw.data(), raw.size());
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (unsigned char c : raw) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

}  // namespace cabinet::ctl
