#pragma once
// Splitting one fuzz input into the parts a target needs. Seeds stay readable text: parts
// are separated by a line break, so a corpus file reads like the request it stands for.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fuzz {

inline std::string_view as_text(const uint8_t* data, size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// The text before the first `sep` (all of it when there is none); `rest` keeps what follows.
inline std::string_view take(std::string_view& rest, std::string_view sep = "\n") {
    const size_t at = rest.find(sep);
    const std::string_view head = rest.substr(0, at);
    rest = at == std::string_view::npos ? std::string_view() : rest.substr(at + sep.size());
    return head;
}

// Stops a target at once with a message when an invariant of the code under test breaks:
// libFuzzer saves the input as a crash.
[[noreturn]] void fail(const char* what);

}  // namespace fuzz
