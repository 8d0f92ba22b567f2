#include "fuzz_input.hpp"

#include <cstdio>
#include <cstdlib>

namespace fuzz {

void fail(const char* what) {
    std::fprintf(stderr, "fuzz invariant broken: %s\n", what);
    std::abort();
}

}  // namespace fuzz
