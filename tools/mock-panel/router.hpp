#pragma once
// Method + path pattern -> handler. Patterns use {name} for one path segment. A trailing
// slash is ignored, because the contract's collection URLs end in one ("/api/users/")
// while most clients leave it off.
#include <string>
#include <string_view>
#include <vector>

#include "http/request.hpp"
#include "http/response.hpp"

namespace mock {

struct Services;

// One request being answered: what came in, what goes out, the {placeholder} values.
struct Call {
    const cabinet::Request& req;
    cabinet::Response& resp;
    std::vector<std::string> params;
};

using Handler = void (*)(Services&, Call&);

struct Route {
    std::string_view method;
    std::string_view pattern;
    Handler handler;
};

class Router {
public:
    explicit Router(std::vector<Route> routes);
    // The first route whose method and pattern fit, or null. `params` gets the decoded
    // placeholder values.
    const Route* match(std::string_view method, std::string_view raw_path, std::vector<std::string>& params) const;

private:
    struct Compiled {
        Route route;
        std::vector<std::string> segments;  // "{}" marks a placeholder
    };
    std::vector<Compiled> routes_;
};

}  // namespace mock
