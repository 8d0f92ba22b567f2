// DATABASE_URL reaches libpq as the sysadmin wrote it: several hosts and
// target_session_attrs survive, only connect_timeout and the TCP keepalives are added, and
// never over the sysadmin's own (docs/operations.md, "More than one host"). Checked with
// libpq's own parser.
#include <boost/test/unit_test.hpp>
#include <libpq-fe.h>

#include <cstdlib>
#include <map>
#include <string>

#include "db/db.hpp"

namespace {

// The keywords libpq reads from a conninfo (URI or key=value), with their values.
std::map<std::string, std::string> parsed(const std::string& conninfo) {
    char* err = nullptr;
    PQconninfoOption* opts = PQconninfoParse(conninfo.c_str(), &err);
    if (!opts) {
        const std::string what = err ? err : "unparseable";
        PQfreemem(err);
        throw std::runtime_error(what);
    }
    std::map<std::string, std::string> out;
    for (PQconninfoOption* o = opts; o->keyword; ++o)
        if (o->val) out[o->keyword] = o->val;
    PQconninfoFree(opts);
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(db_conninfo)

// Both spellings libpq reads: a URI and key=value.
BOOST_AUTO_TEST_CASE(several_hosts_and_session_attrs_pass_through) {
    struct Case {
        const char* url;
        const char* hosts;
        const char* ports;
    };
    for (const Case& c : {Case{"postgresql://cabinet@10.0.0.1:5432,10.0.0.2:5433/cabinet?target_session_attrs=read-write",
                               "10.0.0.1,10.0.0.2", "5432,5433"},
                          Case{"host=/run/a,127.0.0.1 port=5432,6432 dbname=cabinet target_session_attrs=read-write",
                               "/run/a,127.0.0.1", "5432,6432"}}) {
        BOOST_TEST_CONTEXT(c.url) {
            const auto o = parsed(cabinet::with_connection_defaults(c.url, 3));
            BOOST_TEST(o.at("host") == c.hosts);
            BOOST_TEST(o.at("port") == c.ports);
            BOOST_TEST(o.at("dbname") == "cabinet");
            BOOST_TEST(o.at("target_session_attrs") == "read-write");
            BOOST_TEST(o.at("connect_timeout") == "3");
        }
    }
}

BOOST_AUTO_TEST_CASE(a_multi_host_uri_without_query_gets_one) {
    const auto o = parsed(cabinet::with_connection_defaults("postgresql://cabinet@db1,db2/cabinet", 2));
    BOOST_TEST(o.at("host") == "db1,db2");
    BOOST_TEST(o.at("connect_timeout") == "2");
}

BOOST_AUTO_TEST_CASE(a_connect_timeout_given_is_kept) {
    const auto o = parsed(cabinet::with_connection_defaults("postgresql://h1,h2/cabinet?connect_timeout=7&target_session_attrs=read-write", 2));
    BOOST_TEST(o.at("connect_timeout") == "7");
    BOOST_TEST(o.at("target_session_attrs") == "read-write");
}

// A server that vanished without closing the connection is noticed within a minute: an
// idle connection by keepalives (30 s, then 3 probes 10 s apart), one waiting for an
// answer by tcp_user_timeout. In both spellings; a value the URL sets is kept.
BOOST_AUTO_TEST_CASE(keepalives_are_added_unless_given) {
    for (const char* url : {"postgresql://cabinet@db1/cabinet", "host=db1 dbname=cabinet"}) {
        BOOST_TEST_CONTEXT(url) {
            const auto o = parsed(cabinet::with_connection_defaults(url, 2));
            BOOST_TEST(o.at("keepalives") == "1");
            BOOST_TEST(o.at("keepalives_idle") == "30");
            BOOST_TEST(o.at("keepalives_interval") == "10");
            BOOST_TEST(o.at("keepalives_count") == "3");
            BOOST_TEST(o.at("tcp_user_timeout") == "30000");
            BOOST_TEST(o.at("dbname") == "cabinet");
        }
    }
    const auto own = parsed(cabinet::with_connection_defaults("host=db1 keepalives_idle = 5 tcp_user_timeout=0", 2));
    BOOST_TEST(own.at("keepalives_idle") == "5");
    BOOST_TEST(own.at("tcp_user_timeout") == "0");
    BOOST_TEST(own.at("connect_timeout") == "2");
    // libpq's environment variable is the sysadmin's too: not overridden from the URL.
    setenv("PGCONNECT_TIMEOUT", "9", 1);
    const auto env = parsed(cabinet::with_connection_defaults("host=db1", 2));
    unsetenv("PGCONNECT_TIMEOUT");
    BOOST_TEST(env.count("connect_timeout") == 0u);
    BOOST_TEST(env.at("keepalives_idle") == "30");
    // A service file's values would be overridden too: only the timeout is added then.
    const auto svc = parsed(cabinet::with_connection_defaults("service=cabinet", 2));
    BOOST_TEST(svc.count("keepalives_idle") == 0u);
    BOOST_TEST(svc.at("connect_timeout") == "2");
}

BOOST_AUTO_TEST_SUITE_END()
