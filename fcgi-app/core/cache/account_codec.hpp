#pragma once
// The account cache's entries as packed bytes (cache/account_cache.hpp): integers as
// varints, strings with their length, optionals and flags in one word, and the traffic
// series as differences from day to day. An Account took about 0.7 KB as a struct (twelve
// std::string and their heap copies); packed, a bench user's takes about 130 bytes, and
// decoding it costs about what copying the struct did. Only the cache reads what it wrote,
// in the same process: no version, no compatibility.
#include <string>
#include <string_view>
#include <vector>

#include "domain/account.hpp"
#include "domain/catalog.hpp"

namespace cabinet {

// Every field but catalog_version (the cache never keeps it).
std::string pack_account(const Account& a);
Account unpack_account(std::string_view bytes);

std::string pack_referral_stats(const ReferralStats& s);
ReferralStats unpack_referral_stats(std::string_view bytes);

std::string pack_traffic_series(const std::vector<TrafficDay>& series);
std::vector<TrafficDay> unpack_traffic_series(std::string_view bytes);

// Session ids (web sessions' refresh families), as the strings they are.
std::string pack_session_ids(const std::vector<std::string>& ids);
std::vector<std::string> unpack_session_ids(std::string_view bytes);

}  // namespace cabinet
