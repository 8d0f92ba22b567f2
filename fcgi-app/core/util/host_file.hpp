#pragma once
// A file of 64-bit words shared by the processes of a host (on a tmpfs): opened or made
// (mode 0600), grown to `bytes` if shorter (new words read 0, harmless while others map
// it), and mapped read-write. Used by the account generations and the metrics file.
#include <cstddef>
#include <cstdint>
#include <string>

namespace cabinet {

// Throws std::runtime_error naming `what` ("account generations"), the path and the errno.
uint64_t* map_host_file(const std::string& path, size_t bytes, const std::string& what);
void unmap_host_file(uint64_t* words, size_t bytes);

}  // namespace cabinet
