#pragma once
// The last steps of `cabinetctl setup`, once the env file is written and the schema is
// current: the nginx site, the systemd units, and what the admin does next.
#include <filesystem>
#include <ostream>
#include <string>

namespace cabinet::ctl {

struct HostPlan {
    std::string domain;
    std::string env_file;
    std::filesystem::path share_dir;  // /usr/share/cabinet (or a source tree): tools/, nginx/
    int pool = 1;                     // pool processes: cabinet-fcgi@1..N.socket
    bool mock_panel = false;          // also the mock panel's unit and nginx site
    bool nginx = true;                // render and enable the site
    bool systemd = true;              // enable and start the units (off in a chroot)
};

// Does the steps of `plan`, printing each, then the next steps (TLS, the bot's webhook).
// The exit code: 0, or 1 when a step failed (said on stderr).
int switch_host_on(const HostPlan& plan, std::ostream& out);

}  // namespace cabinet::ctl
