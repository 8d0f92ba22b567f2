#include "hostile_support.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <regex>

#include "auth/init_data_signer.hpp"
#include "util/crypto.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace fs = std::filesystem;

namespace it {

void expect_refusal(const HttpResult& r, const std::string& what, std::initializer_list<long> also) {
    BOOST_TEST_CONTEXT(what << " -> " << r.status << " " << r.body.substr(0, 200)) {
        bool allowed = r.status >= 400 && r.status < 500;
        for (long s : also) allowed = allowed || r.status == s;
        BOOST_TEST(allowed);
        BOOST_TEST(r.headers.count("content-type") == 1u);
        if (r.headers.count("content-type"))
            BOOST_TEST(r.headers.at("content-type").rfind("application/json", 0) == 0u);
        rapidjson::Document d;
        d.Parse(r.body.c_str());
        BOOST_TEST((!d.HasParseError() && d.IsObject() && d.HasMember("detail") && d["detail"].IsString()));
    }
}

std::map<std::string, std::string> db_snapshot(int64_t telegram_id) {
    const std::string uid = "(SELECT id FROM users WHERE telegram_id = " + std::to_string(telegram_id) + ")";
    const std::vector<std::pair<std::string, std::string>> queries = {
        {"users", "SELECT count(*) FROM users"},
        {"balance", "SELECT balance_minor FROM users WHERE id = " + uid},
        {"ledger rows", "SELECT count(*) FROM balance_ledger WHERE user_id = " + uid},
        {"transactions", "SELECT count(*) FROM transactions WHERE user_id = " + uid},
        {"subscription", "SELECT count(*) FROM subscriptions WHERE user_id = " + uid},
        {"support messages", "SELECT count(*) FROM support_messages"},
        {"promo activations", "SELECT count(*) FROM promo_activations"},
        {"refresh tokens", "SELECT count(*) FROM refresh_tokens"},
        {"verification tokens", "SELECT count(*) FROM email_verification_tokens"},
        {"maintenance", "SELECT count(*) FROM maintenance_state WHERE enabled"},
        {"maintenance changes", "SELECT extract(epoch FROM max(changed_at))::bigint FROM maintenance_state"},
    };
    pqxx::connection conn(env("DATABASE_URL"));
    pqxx::nontransaction txn(conn);
    std::map<std::string, std::string> out;
    for (const auto& [name, sql] : queries) {
        const auto row = txn.exec1(sql);
        out[name] = row[0].is_null() ? "null" : row[0].c_str();
    }
    return out;
}

PoolLogWatch::PoolLogWatch() {
    for (const auto& e : fs::directory_iterator(env("STACK_DIR") + "/log"))
        if (e.path().filename().string().rfind("fcgi-", 0) == 0) start_[e.path().string()] = e.file_size();
}

std::vector<std::string> PoolLogWatch::server_errors() const {
    // "<time> cabinet-fcgi[pid] info <rid> GET /path 500 1.2ms user=0", or an error line.
    static const std::regex bad(R"( (error|critical) | [A-Z]+ \S+ 5\d\d [0-9.]+ms )");
    std::vector<std::string> out;
    for (const auto& [path, offset] : start_) {
        std::ifstream in(path, std::ios::binary);
        in.seekg(static_cast<std::streamoff>(offset));
        for (std::string line; std::getline(in, line);)
            if (std::regex_search(line, bad)) out.push_back(line);
    }
    return out;
}

std::string tma_header_raw_user(const std::string& user_json) {
    const std::string auth_date = std::to_string(cabinet::unix_now());
    const std::string check = "auth_date=" + auth_date + "\nuser=" + user_json;
    const cabinet::Sha256 secret = cabinet::hmac_sha256(std::string_view("WebAppData"), env("BOT_TOKEN"));
    const cabinet::Sha256 h = cabinet::hmac_sha256(secret, check);
    return "Authorization: tma auth_date=" + auth_date + "&user=" + cabinet::form_encode(user_json) +
           "&hash=" + cabinet::hex_encode(h.data(), h.size());
}

}  // namespace it
