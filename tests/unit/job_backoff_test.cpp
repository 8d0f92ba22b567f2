// The retry schedule of the job queue: doubling, capped at an hour, jitter only upward
// and never past the cap.
#include <boost/test/unit_test.hpp>

#include <limits>

#include "jobs/job_runner.hpp"

using cabinet::jobs::backoff_seconds;
using cabinet::jobs::kMaxBackoffS;

BOOST_AUTO_TEST_SUITE(job_backoff)

BOOST_AUTO_TEST_CASE(doubles_per_attempt_without_jitter) {
    BOOST_TEST(backoff_seconds(1, 0.0) == 2);
    BOOST_TEST(backoff_seconds(2, 0.0) == 4);
    BOOST_TEST(backoff_seconds(3, 0.0) == 8);
    BOOST_TEST(backoff_seconds(8, 0.0) == 256);
    BOOST_TEST(backoff_seconds(11, 0.0) == 2048);
}

BOOST_AUTO_TEST_CASE(capped_at_one_hour_even_for_absurd_attempts) {
    BOOST_TEST(backoff_seconds(12, 0.0) == kMaxBackoffS);
    BOOST_TEST(backoff_seconds(63, 0.99) == kMaxBackoffS);
    BOOST_TEST(backoff_seconds(64, 0.5) == kMaxBackoffS);
    BOOST_TEST(backoff_seconds(std::numeric_limits<int>::max(), 0.5) == kMaxBackoffS);
    BOOST_TEST(backoff_seconds(11, 0.999) <= kMaxBackoffS);  // 2048 + 204 stays below
}

BOOST_AUTO_TEST_CASE(jitter_adds_up_to_ten_percent) {
    BOOST_TEST(backoff_seconds(10, 0.0) == 1024);
    BOOST_TEST(backoff_seconds(10, 0.5) == 1024 + 51);
    BOOST_TEST(backoff_seconds(10, 0.999) == 1024 + 102);
    for (double j = 0.0; j < 1.0; j += 0.05) {
        const auto d = backoff_seconds(6, j);
        BOOST_TEST(d >= 64);
        BOOST_TEST(d <= 70);
    }
}

BOOST_AUTO_TEST_CASE(odd_inputs_stay_sane) {
    BOOST_TEST(backoff_seconds(0, 0.0) == 1);   // never "retry at once"
    BOOST_TEST(backoff_seconds(-5, 0.0) == 1);
    BOOST_TEST(backoff_seconds(4, -3.0) == 16);  // jitter clamped into [0, 1]
    BOOST_TEST(backoff_seconds(4, 7.0) == 17);
}

BOOST_AUTO_TEST_SUITE_END()
