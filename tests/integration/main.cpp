// Integration tests run only inside `tools/stack test`, which exports the stack's settings.
#define BOOST_TEST_MODULE cabinet integration tests
#define BOOST_TEST_DYN_LINK
#include <boost/test/unit_test.hpp>
#include <curl/curl.h>
#include <sodium.h>

#include <cstdlib>
#include <iostream>

struct GlobalSetup {
    GlobalSetup() {
        if (!std::getenv("CABINET_BASE_URL")) {
            std::cerr << "integration tests skipped: run them through tools/stack test\n";
            std::exit(77);  // ctest SKIP_RETURN_CODE
        }
        curl_global_init(CURL_GLOBAL_DEFAULT);
        if (sodium_init() < 0) std::abort();
    }
};
BOOST_TEST_GLOBAL_FIXTURE(GlobalSetup);
