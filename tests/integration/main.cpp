// Integration tests run only inside `tools/stack test`, which exports the stack's settings.
#define BOOST_TEST_DYN_LINK
#include <boost/test/tree/traverse.hpp>
#include <boost/test/tree/visitor.hpp>
#include <boost/test/unit_test.hpp>
#include <curl/curl.h>
#include <sodium.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace utf = boost::unit_test;

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

// Every suite's children, as registered.
struct TreeOf : utf::test_tree_visitor {
    std::map<utf::test_unit_id, std::vector<utf::test_unit_id>> children;
    std::vector<utf::test_unit_id> open;
    void visit(const utf::test_case& tc) override { children[open.back()].push_back(tc.p_id); }
    bool test_suite_start(const utf::test_suite& ts) override {
        if (!open.empty()) children[open.back()].push_back(ts.p_id);
        open.push_back(ts.p_id);
        return true;
    }
    void test_suite_finish(const utf::test_suite&) override { open.pop_back(); }
};

using Place = std::pair<std::string, std::size_t>;  // file, line

// Ranks the children of `id` by where they are written and returns the first place in it.
Place rank_by_place(utf::test_unit_id id, const TreeOf& tree) {
    const utf::test_unit& unit = utf::framework::get(id, utf::TUT_ANY);
    Place first{std::string(unit.p_file_name.begin(), unit.p_file_name.end()), unit.p_line_num};
    const auto kids = tree.children.find(id);
    if (kids == tree.children.end()) return first;
    std::vector<std::pair<Place, utf::test_unit_id>> placed;
    for (const auto child : kids->second) placed.emplace_back(rank_by_place(child, tree), child);
    std::stable_sort(placed.begin(), placed.end());
    for (std::size_t i = 0; i < placed.size(); ++i)
        utf::framework::get(placed[i].second, utf::TUT_ANY).p_sibling_rank.value = i + 1;
    return std::min(first, placed.front().first);
}

// The suites run in the order of their files' names, then of their lines, whatever order
// the linker put them in: a unity build (cmake/fast_build.cmake) links its batches last
// first, and the suite relies on that order (zz_log_secrecy_test reads the logs all the
// others wrote; zzz_flood_test trips nginx's limits). A suite opened in two files runs
// where its first file is. Boost.Test runs siblings by rank and keeps a rank it finds set.
bool init_in_file_order() {
    utf::test_suite& master = utf::framework::master_test_suite();
    master.p_name.value = "cabinet integration tests";
    TreeOf tree;
    utf::traverse_test_tree(master, tree, true);
    rank_by_place(master.p_id, tree);
    return true;
}

}  // namespace

BOOST_TEST_GLOBAL_FIXTURE(GlobalSetup);

int main(int argc, char* argv[]) { return utf::unit_test_main(&init_in_file_order, argc, argv); }
