// cabinetctl plan|promo-group|user-group|sale|promo|constructor: the operator's catalogue.
// Every "create" is an upsert by its natural key (plan code, group name, sale name, promo
// code, period days, pack gb), so re-running a command converges instead of duplicating.
// plan, sale, constructor and promo-group check, write and audit through
// services/catalog_admin.hpp, as the admin API does; here only the options are read.
#include <pqxx/pqxx>

#include <cctype>
#include <iostream>
#include <map>
#include <optional>

#include "commands.hpp"
#include "db/db.hpp"
#include "errors.hpp"
#include "services/catalog_admin.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::ctl {
namespace {

constexpr int64_t kMaxMinor = 1'000'000'000'000LL;  // 10^10 currency units: far above any real price

[[noreturn]] void fail(const std::string& message) { throw std::runtime_error(message); }

std::string text(const Args& args, const std::string& name, size_t max_len = 200) {
    const std::string v(trim(option(args, name)));
    if (v.empty()) fail(name + " is required");
    if (v.size() > max_len) fail(name + " is longer than " + std::to_string(max_len) + " characters");
    return v;
}

std::optional<int64_t> maybe_int(const Args& args, const std::string& name) {
    if (!flag(args, name)) return std::nullopt;
    int64_t v = 0;
    if (!parse_int64(option(args, name), v)) fail(name + " must be an integer");
    return v;
}

std::optional<int64_t> maybe_int(const Args& args, const std::string& name, int64_t min, int64_t max) {
    const auto v = maybe_int(args, name);
    if (v && (*v < min || *v > max))
        fail(name + " must be an integer in " + std::to_string(min) + ".." + std::to_string(max));
    return v;
}

// A required integer; without a range, the service checks it (services/catalog_admin.hpp).
int64_t integer(const Args& args, const std::string& name) {
    if (!flag(args, name)) fail(name + " is required");
    return *maybe_int(args, name);
}

int64_t integer(const Args& args, const std::string& name, int64_t min, int64_t max) {
    if (!flag(args, name)) fail(name + " is required");
    return *maybe_int(args, name, min, max);
}

// The services' checks name the admin API's fields: say the options of these commands.
std::string in_option_names(const std::string& detail) {
    static const std::map<std::string, std::string> kOptions = {
        {"code", "--code"},         {"name", "--name"},       {"description", "--description"},
        {"traffic_limit_gb", "--traffic-gb"}, {"device_limit", "--devices"}, {"sort_order", "--sort"},
        {"days", "--days"},         {"months", "--months"},   {"price_minor", "--price"},
        {"discount_pct", "--discount"}, {"starts_at", "--from"}, {"ends_at", "--until"}, {"gb", "--gb"}};
    std::string out;
    size_t i = 0;
    while (i < detail.size()) {
        size_t j = i;
        while (j < detail.size() && (std::islower(static_cast<unsigned char>(detail[j])) || detail[j] == '_')) ++j;
        if (j == i) {
            out += detail[i++];
            continue;
        }
        const std::string word = detail.substr(i, j - i);
        const auto it = kOptions.find(word);
        out += it == kOptions.end() ? word : it->second;
        i = j;
    }
    return out;
}

// Runs a service call; its refusal becomes this command's message.
template <typename F>
auto as_cli(const std::string& command, F&& call) {
    try {
        return call();
    } catch (const ApiError& e) {
        if (e.status() == 404) fail(std::string(e.detail()) + " (see: cabinetctl " + command + " list)");
        fail(in_option_names(e.detail()));
    }
}

// ISO-8601 UTC instant, or a bare date meaning its midnight UTC.
std::optional<int64_t> maybe_time(const Args& args, const std::string& name) {
    if (!flag(args, name)) return std::nullopt;
    std::string v = option(args, name);
    if (v.size() == 10) v += "T00:00:00Z";
    const auto t = parse_iso8601(v);
    if (!t) fail(name + " must be ISO-8601, e.g. 2026-01-31T00:00:00Z or 2026-01-31");
    return t;
}

int64_t plan_id(pqxx::transaction_base& txn, const std::string& code) {
    const auto id = lock_plan(txn, code);
    if (!id) fail("no plan with code " + code + " (see: cabinetctl plan list)");
    return *id;
}

// One action of a command: what `args[0]` selects.
const std::string& action_of(const Args& args, const std::string& usage) {
    if (args.empty() || starts_with(args[0], "--")) fail("usage: " + usage);
    return args[0];
}

}  // namespace

int plan(const Args& args) {
    const std::string usage =
        "cabinetctl plan create --code C --name N [--description D] [--traffic-gb G] [--devices K] [--sort S]"
        " | price --code C --days D --months M --price MINOR | unprice --code C --days D | enable|disable --code C | list";
    const std::string& action = action_of(args, usage);
    const Settings s = load_or_die();
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);
    const std::string by = os_actor();
    if (action == "create") {
        PlanChange c;
        c.code = text(args, "--code");
        c.name = text(args, "--name");
        if (flag(args, "--description")) c.description = option(args, "--description");
        c.traffic_gb = maybe_int(args, "--traffic-gb");  // 0 = unlimited
        c.device_limit = maybe_int(args, "--devices");
        c.sort_order = maybe_int(args, "--sort");
        // Options left out keep their current value on an existing plan.
        const PlanPut put = as_cli("plan", [&] { return db.write([&](pqxx::work& txn) { return put_plan(txn, c, by); }); });
        std::cout << (put.created ? "created" : "updated") << " plan " << c.code << " (id " << put.plan.id << ")\n";
    } else if (action == "price") {
        const std::string code = text(args, "--code");
        const AdminDuration d{integer(args, "--days"), integer(args, "--months"), integer(args, "--price")};
        as_cli("plan", [&] { return db.write([&](pqxx::work& txn) { return put_plan_price(txn, code, d, by); }); });
        std::cout << "price set: " << d.days << " days = " << d.price_minor << " minor units\n";
    } else if (action == "unprice") {
        const std::string code = text(args, "--code");
        const int64_t days = integer(args, "--days");
        as_cli("plan", [&] { return db.write([&](pqxx::work& txn) { return remove_plan_price(txn, code, days, by); }); });
        std::cout << days << " days of " << code << " no longer sold\n";
    } else if (action == "enable" || action == "disable") {
        PlanChange c;
        c.code = text(args, "--code");
        c.is_active = action == "enable";
        as_cli("plan", [&] { return db.write([&](pqxx::work& txn) { return put_plan(txn, c, by); }); });
        std::cout << "ok\n";
    } else if (action == "list") {
        std::cout << "id  code  name  active  traffic_gb  devices  sort  durations(days:price)\n";
        for (const AdminPlan& p : db.read([](auto& txn) { return list_plans(txn); })) {
            std::string durations;
            for (const auto& d : p.durations)
                durations += (durations.empty() ? "" : ",") + std::to_string(d.days) + ":" + std::to_string(d.price_minor);
            std::cout << p.id << "  " << p.code << "  " << p.name << "  " << (p.is_active ? "t" : "f") << "  "
                      << p.traffic_limit_gb << "  " << p.device_limit << "  " << p.sort_order << "  "
                      << (durations.empty() ? "-" : durations) << "\n";
        }
    } else {
        fail("unknown action " + action + "; usage: " + usage);
    }
    return 0;
}

int promo_group(const Args& args) {
    const std::string usage = "cabinetctl promo-group create --name N --discount PCT | list";
    const std::string& action = action_of(args, usage);
    const Settings s = load_or_die();
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);
    if (action == "create") {
        const std::string name = text(args, "--name"), by = os_actor();
        const int64_t pct = integer(args, "--discount");
        as_cli("promo-group", [&] { db.write([&](pqxx::work& txn) { put_promo_group(txn, name, pct, by); }); });
        std::cout << "promo group " << name << ": " << pct << " %\n";
    } else if (action == "list") {
        for (const AdminPromoGroup& g : db.read([](auto& txn) { return list_promo_groups(txn); }))
            std::cout << g.name << "  " << g.discount_pct << "  " << g.members << "\n";
    } else {
        fail("unknown action " + action + "; usage: " + usage);
    }
    return 0;
}

int user_group(const Args& args) {
    int64_t tg = 0;
    if (!parse_int64(option(args, "--telegram-id"), tg) || tg <= 0) fail("--telegram-id N is required");
    const bool clear = flag(args, "--clear");
    if (clear == flag(args, "--group")) fail("give exactly one of --group NAME or --clear");
    const Settings s = load_or_die();
    pqxx::connection conn(s.database_url);
    pqxx::work txn(conn);
    std::optional<int64_t> group;
    if (!clear) {
        const std::string name = text(args, "--group", 100);
        const auto g = txn.exec_params("SELECT id FROM promo_groups WHERE name = $1", name);
        if (g.empty()) fail("no promo group named " + name + " (create it: cabinetctl promo-group create)");
        group = g[0][0].as<int64_t>();
    }
    const auto r = txn.exec_params("UPDATE users SET promo_group_id = $2, updated_at = now() WHERE telegram_id = $1 RETURNING id",
                                   tg, group);
    if (r.empty()) fail("no user with Telegram id " + std::to_string(tg));
    txn.commit();
    std::cout << "ok\n";
    return 0;
}

int sale(const Args& args) {
    const std::string usage = "cabinetctl sale create --name N --discount PCT --from ISO --until ISO | end --name N | list";
    const std::string& action = action_of(args, usage);
    const Settings s = load_or_die();
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);
    const std::string by = os_actor();
    if (action == "create") {
        SaleChange c;
        c.name = text(args, "--name");
        c.discount_pct = integer(args, "--discount");
        const auto from = maybe_time(args, "--from"), until = maybe_time(args, "--until");
        if (!from || !until) fail("--from and --until are required");
        c.starts_at = *from;
        c.ends_at = *until;
        // A re-run edits the sale of that name instead of adding a second one.
        const SalePut put = as_cli("sale", [&] { return db.write([&](pqxx::work& txn) { return put_sale(txn, c, by); }); });
        std::cout << (put.created ? "created" : "updated") << " sale " << c.name << ": " << c.discount_pct << " % from "
                  << iso8601_utc(c.starts_at) << " until " << iso8601_utc(c.ends_at) << "\n";
    } else if (action == "end") {
        const std::string name = text(args, "--name");
        const AdminSale ended = as_cli("sale", [&] { return db.write([&](pqxx::work& txn) { return end_sale_now(txn, name, by); }); });
        std::cout << "sale " << name << " ended at " << iso8601_utc(ended.ends_at) << "\n";
    } else if (action == "list") {
        for (const AdminSale& x : db.read([](auto& txn) { return list_sales(txn); }))
            std::cout << x.name << "  " << x.discount_pct << "  " << iso8601_utc(x.starts_at) << "  " << iso8601_utc(x.ends_at)
                      << "  " << (x.running ? "running" : "") << "\n";
    } else {
        fail("unknown action " + action + "; usage: " + usage);
    }
    return 0;
}

int promo(const Args& args) {
    const std::string usage =
        "cabinetctl promo create --code C --type balance|days|subscription|discount --value V [--plan CODE]"
        " [--max-uses K] [--from ISO] [--until ISO]";
    if (action_of(args, usage) != "create") fail("unknown action " + args[0] + "; usage: " + usage);
    const std::string code = text(args, "--code", 64);
    if (code.size() < 2) fail("--code must be 2..64 characters");
    const std::string type = text(args, "--type", 20);
    if (type != "balance" && type != "days" && type != "subscription" && type != "discount")
        fail("--type must be one of balance, days, subscription, discount");
    const int64_t value = integer(args, "--value", 1, type == "discount" ? 100 : type == "balance" ? kMaxMinor : 36500);
    if ((type == "subscription") != flag(args, "--plan"))
        fail(type == "subscription" ? "--plan CODE is required for --type subscription"
                                    : "--plan only applies to --type subscription");
    const auto max_uses = maybe_int(args, "--max-uses", 1, 1'000'000'000);
    const auto from = maybe_time(args, "--from"), until = maybe_time(args, "--until");
    if (from && until && *until <= *from) fail("--until must be after --from");

    const Settings s = load_or_die();
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);  // prepares lock_plan's statement
    pqxx::work txn(db.conn());
    std::optional<int64_t> plan;
    if (type == "subscription") plan = plan_id(txn, text(args, "--plan", 64));
    const auto used = txn.exec_params("SELECT uses FROM promo_codes WHERE lower(code) = lower($1)", code);
    if (max_uses && !used.empty() && *max_uses < used[0][0].as<int64_t>())
        fail("--max-uses is below the " + std::string(used[0][0].c_str()) + " uses this code already has");
    // Case-insensitive code (unique index on lower(code)); uses so far are kept on update.
    const auto r = txn.exec_params(
        "INSERT INTO promo_codes (code, reward_type, value, plan_id, max_uses, valid_from, valid_until)"
        " VALUES ($1, $2, $3, $4, $5, to_timestamp($6), to_timestamp($7))"
        " ON CONFLICT ((lower(code))) DO UPDATE SET reward_type = EXCLUDED.reward_type, value = EXCLUDED.value,"
        "   plan_id = EXCLUDED.plan_id, max_uses = EXCLUDED.max_uses, valid_from = EXCLUDED.valid_from,"
        "   valid_until = EXCLUDED.valid_until, is_active = true"
        " RETURNING (xmax = 0) AS inserted, uses",
        code, type, value, plan, max_uses, from, until);
    txn.commit();
    std::cout << (r[0][0].as<bool>() ? "created" : "updated") << " promo code " << code << " (" << type << " " << value
              << ", used " << r[0][1].c_str() << " times)\n";
    return 0;
}

int constructor(const Args& args) {
    const std::string usage = "cabinetctl constructor period --days D --months M --price MINOR | pack --gb G --price MINOR"
                              " (gb 0 = unlimited) | period-off --days D | pack-off --gb G | list";
    const std::string& action = action_of(args, usage);
    const Settings s = load_or_die();
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);
    const std::string by = os_actor();
    if (action == "period") {
        const int64_t days = integer(args, "--days"), months = integer(args, "--months"), price = integer(args, "--price");
        as_cli("constructor", [&] { return db.write([&](pqxx::work& txn) { return put_constructor_period(txn, days, months, price, by); }); });
        std::cout << "period " << days << " days = " << price << " minor units\n";
    } else if (action == "pack") {
        const int64_t gb = integer(args, "--gb"), price = integer(args, "--price");
        as_cli("constructor", [&] { return db.write([&](pqxx::work& txn) { return put_constructor_pack(txn, gb, price, by); }); });
        std::cout << "pack " << (gb ? std::to_string(gb) + " GB" : std::string("unlimited")) << " = " << price << " minor units\n";
    } else if (action == "period-off" || action == "pack-off") {
        const bool period = action == "period-off";
        const int64_t amount = integer(args, period ? "--days" : "--gb");
        as_cli("constructor", [&] {
            return db.write([&](pqxx::work& txn) {
                return retire_constructor_item(txn, period ? ConstructorItemKind::period : ConstructorItemKind::pack, amount, by);
            });
        });
        std::cout << (period ? "period " : "pack ") << amount << " no longer offered\n";
    } else if (action == "list") {
        const AdminConstructor c = db.read([](auto& txn) { return constructor_catalog(txn); });
        for (const auto& p : c.periods)
            std::cout << "period  " << p.amount << "  " << p.months << "  " << p.price_minor << "  " << (p.is_active ? "t" : "f") << "\n";
        for (const auto& p : c.packs)
            std::cout << "pack  " << p.amount << "  -  " << p.price_minor << "  " << (p.is_active ? "t" : "f") << "\n";
    } else {
        fail("unknown action " + action + "; usage: " + usage);
    }
    return 0;
}

}  // namespace cabinet::ctl
