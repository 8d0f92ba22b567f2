#define BOOST_TEST_MODULE mock panel tests
#define BOOST_TEST_DYN_LINK
#include <boost/test/unit_test.hpp>
