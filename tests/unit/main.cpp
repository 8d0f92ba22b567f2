#define BOOST_TEST_MODULE cabinet unit tests
#include <boost/test/unit_test.hpp>
