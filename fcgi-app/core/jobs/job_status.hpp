#pragma once
// A job's state (jobs.status, sql 0003) with its text (util/enum_text.hpp):
// pending | running | done | dead (out of attempts).
#include <cstdint>

#include "util/enum_text.hpp"

namespace cabinet {

enum class JobStatus : uint8_t { pending, running, done, dead };
template <>
struct StateTexts<JobStatus> {
    static constexpr EnumText<JobStatus, 4> table{{"pending", "running", "done", "dead"}, "job status"};
};

}  // namespace cabinet
