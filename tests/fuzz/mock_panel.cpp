// The mock panel's input side (tools/mock-panel): its route table, request bodies as the
// contract's zod schemas check them (create, update, revoke), and a user record of the
// state file. The first line is "METHOD /path", the rest the body. Every refusal is a
// PanelError or a ValidationError (the panel's two error shapes); nothing else escapes,
// and whatever is accepted makes a user whose fields hold what the schema allows.
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "handlers.hpp"
#include "ids.hpp"
#include "json_input.hpp"
#include "router.hpp"
#include "user_codec.hpp"
#include "user_input.hpp"

namespace {

constexpr int64_t kNowMs = 1767225600000;

template <class F>
void refused_only_as_the_panel_does(F&& f) {
    try {
        f();
    } catch (const mock::PanelError&) {
    } catch (const mock::ValidationError&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const mock::Router router(mock::routes());
    std::string_view rest = fuzz::as_text(data, size);
    std::string_view request_line = fuzz::take(rest);
    const std::string_view method = fuzz::take(request_line, " ");
    std::vector<std::string> params;
    if (const mock::Route* r = router.match(method, request_line, params)) {
        if (r->method != method) fuzz::fail("route of another method");
        // Decoded like Express decodes route params: "%2F" may give a '/', never an empty value.
        for (const auto& p : params)
            if (p.empty()) fuzz::fail("an empty placeholder value");
    }
    const std::string body(rest);
    refused_only_as_the_panel_does([&] {
        const rapidjson::Document doc = mock::parse_object(body, true);
        refused_only_as_the_panel_does([&] {
            const mock::CreateUserInput in = mock::parse_create_user(doc);
            const mock::User u = mock::make_user(in, 1, kNowMs);
            if (!mock::is_uuid(u.uuid)) fuzz::fail("created user without a uuid");
        });
        refused_only_as_the_panel_does([&] {
            const auto path_uuid = params.empty() ? std::nullopt : std::optional<std::string>(params.front());
            const mock::UpdateUserInput in = mock::parse_update_user(doc, path_uuid, kNowMs);
            mock::CreateUserInput existing;
            existing.username = "fuzz_user";
            existing.expire_at = kNowMs;
            mock::User u = mock::make_user(existing, 2, kNowMs);
            mock::apply_update(u, in, kNowMs);
        });
        refused_only_as_the_panel_does([&] { mock::parse_revoke(doc); });
        refused_only_as_the_panel_does([&] { mock::read_user_record(doc, "users.0."); });
    });
    return 0;
}
