#define BOOST_TEST_MODULE cabinet unit tests
#define BOOST_TEST_DYN_LINK
#include <boost/test/unit_test.hpp>
