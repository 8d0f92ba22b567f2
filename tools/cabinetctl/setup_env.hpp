#pragma once
// The env file `cabinetctl setup` writes: the current file (or the documented example) with
// the chosen values put in, secrets made once and kept on a second run.
#include <map>
#include <string>

namespace cabinet::ctl {

using EnvValues = std::map<std::string, std::string>;

// NAME=value lines of an env file (comments and blank lines skipped; a later line wins).
EnvValues parse_env(const std::string& text);

// `base` (an env file's text) with the line of each name in `values` set to its value; a
// name `base` lacks is appended. Comments and the order of `base` stay.
std::string with_values(const std::string& base, const EnvValues& values);

// Writes `text` to `path` as root:`group_name` 0640 (group as is when the host has no such group;
// `note` then says so), atomically: a crash leaves the old file or the new one.
void write_env_file(const std::string& path, const std::string& text, const std::string& group_name, std::string& note);

// `bytes` random bytes as hex (secrets: JWT_SECRET, backup password, webhook secret).
std::string random_hex(size_t bytes);

}  // namespace cabinet::ctl
