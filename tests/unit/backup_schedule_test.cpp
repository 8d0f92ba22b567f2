// The backup rules without a clock or a disk: the daily schedule in Moscow time (UTC+3, no
// DST), archive names with their UTC timestamp, and retention of the newest K.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "backup/schedule.hpp"

namespace bk = cabinet::backup;

namespace {
// 2026-11-21T00:00:00Z
constexpr int64_t kDayStart = 1795219200;
constexpr int64_t H = 3600;
constexpr int k0300 = 3 * 60;
}  // namespace

BOOST_AUTO_TEST_SUITE(backup_schedule)

BOOST_AUTO_TEST_CASE(day_constant_is_midnight_utc) {
    BOOST_TEST(bk::archive_name(kDayStart) == "cabinet-20261121T000000Z.zip");
}

BOOST_AUTO_TEST_CASE(parses_time_of_day) {
    BOOST_TEST(*bk::parse_time_of_day("03:00") == 180);
    BOOST_TEST(*bk::parse_time_of_day("00:00") == 0);
    BOOST_TEST(*bk::parse_time_of_day("23:59") == 23 * 60 + 59);
    BOOST_TEST(!bk::parse_time_of_day("24:00"));
    BOOST_TEST(!bk::parse_time_of_day("3:00"));
    BOOST_TEST(!bk::parse_time_of_day("03:60"));
    BOOST_TEST(!bk::parse_time_of_day("03-00"));
    BOOST_TEST(!bk::parse_time_of_day(""));
}

BOOST_AUTO_TEST_CASE(moscow_0300_is_midnight_utc) {
    // 03:00 Moscow = 00:00 UTC the same day.
    BOOST_TEST(bk::last_scheduled_at(kDayStart + 1, k0300) == kDayStart);
    BOOST_TEST(bk::last_scheduled_at(kDayStart, k0300) == kDayStart);
    BOOST_TEST(bk::last_scheduled_at(kDayStart - 1, k0300) == kDayStart - 24 * H);
}

BOOST_AUTO_TEST_CASE(not_due_before_the_time_even_without_any_backup_today) {
    // 02:59 Moscow = 23:59 UTC the day before; yesterday's backup exists.
    const int64_t now = kDayStart - 60;
    BOOST_TEST(!bk::backup_due(now, k0300, kDayStart - 24 * H + 5));
    // No backup at all: yesterday's slot has passed, so one is due now.
    BOOST_TEST(bk::backup_due(now, k0300, std::nullopt));
}

BOOST_AUTO_TEST_CASE(due_once_after_the_time_then_not_again_that_day) {
    const int64_t yesterday = kDayStart - 24 * H + 30;
    BOOST_TEST(bk::backup_due(kDayStart, k0300, yesterday));           // exactly 03:00 Moscow
    BOOST_TEST(bk::backup_due(kDayStart + 5 * H, k0300, yesterday));   // later that day, missed run
    BOOST_TEST(!bk::backup_due(kDayStart + 5 * H, k0300, kDayStart));       // made at 03:00 sharp
    BOOST_TEST(!bk::backup_due(kDayStart + 23 * H, k0300, kDayStart + 60)); // still the same Moscow day
    BOOST_TEST(bk::backup_due(kDayStart + 24 * H, k0300, kDayStart + 60));  // next day at 03:00
}

BOOST_AUTO_TEST_CASE(manual_backup_before_the_time_does_not_replace_the_scheduled_one) {
    const int64_t manual = kDayStart - 2 * H;  // 01:00 Moscow, before 03:00
    BOOST_TEST(bk::backup_due(kDayStart + 60, k0300, manual));
    const int64_t manual_after = kDayStart + 2 * H;  // 05:00 Moscow, after 03:00: counts for today
    BOOST_TEST(!bk::backup_due(kDayStart + 3 * H, k0300, manual_after));
}

BOOST_AUTO_TEST_CASE(moscow_day_differs_from_utc_day) {
    // BACKUP_TIME 23:30 Moscow = 20:30 UTC. At 22:00 UTC (01:00 Moscow next day) the last
    // slot is 20:30 UTC of the same UTC day.
    const int t2330 = 23 * 60 + 30;
    BOOST_TEST(bk::last_scheduled_at(kDayStart + 22 * H, t2330) == kDayStart + 20 * H + 30 * 60);
    BOOST_TEST(bk::backup_due(kDayStart + 22 * H, t2330, kDayStart + 20 * H));
    BOOST_TEST(!bk::backup_due(kDayStart + 22 * H, t2330, kDayStart + 21 * H));
    // 00:00 Moscow = 21:00 UTC of the previous UTC day.
    BOOST_TEST(bk::last_scheduled_at(kDayStart + 22 * H, 0) == kDayStart + 21 * H);
    BOOST_TEST(bk::last_scheduled_at(kDayStart + 20 * H, 0) == kDayStart - 3 * H);
}

BOOST_AUTO_TEST_CASE(archive_names_round_trip) {
    const int64_t t = kDayStart + 22 * H + 46 * 60 + 51;
    BOOST_TEST(bk::archive_name(t) == "cabinet-20261121T224651Z.zip");
    BOOST_TEST(*bk::parse_archive_name("cabinet-20261121T224651Z.zip") == t);
    BOOST_TEST(!bk::parse_archive_name("cabinet-20261121T224651Z.zip.partial"));
    BOOST_TEST(!bk::parse_archive_name("cabinet-20260231T000000Z.zip"));  // 31 February
    BOOST_TEST(!bk::parse_archive_name("cabinet-2026112xT224651Z.zip"));
    BOOST_TEST(!bk::parse_archive_name("other-20261121T224651Z.zip"));
    BOOST_TEST(!bk::parse_archive_name(".tmp-abc123"));
}

BOOST_AUTO_TEST_CASE(retention_keeps_the_newest_k_and_ignores_other_files) {
    std::vector<std::string> names;
    for (int d = 0; d < 10; ++d) names.push_back(bk::archive_name(kDayStart - (9 - d) * 24 * H));  // oldest first
    names.push_back("notes.txt");
    names.push_back(".tmp-XYZ123");
    names.push_back(bk::archive_name(kDayStart) + ".partial");
    std::vector<std::string> shuffled(names.rbegin(), names.rend());
    const auto del = bk::archives_to_delete(shuffled, 7);
    BOOST_TEST_REQUIRE(del.size() == 3u);
    BOOST_TEST(del[0] == names[0]);
    BOOST_TEST(del[1] == names[1]);
    BOOST_TEST(del[2] == names[2]);
    BOOST_TEST(bk::archives_to_delete(names, 10).empty());
    BOOST_TEST(bk::archives_to_delete(names, 100).empty());
    BOOST_TEST(bk::archives_to_delete(names, 1).size() == 9u);
    BOOST_TEST(bk::archives_to_delete({}, 7).empty());
}

BOOST_AUTO_TEST_SUITE_END()
