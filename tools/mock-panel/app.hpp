#pragma once
// One mock panel: its state, catalogue metrics, journal, faults and routes, and the one
// place where a request becomes a response (fault injection, routing, error shapes).
#include <string>

#include "router.hpp"
#include "services.hpp"

namespace mock {

class App {
public:
    // Loads the state file; throws StateFileError when it cannot.
    explicit App(Settings settings);
    App(const App&) = delete;
    App& operator=(const App&) = delete;

    void handle(const cabinet::Request& req, const std::string& user_agent, cabinet::Response& resp);

private:
    void dispatch(const cabinet::Request& req, cabinet::Response& resp);

    Settings settings_;
    PanelState state_;
    NodeMetrics metrics_;
    Journal journal_;
    Faults faults_;
    Services services_;
    Router router_;
};

}  // namespace mock
