#pragma once
// Resolves the caller of an authenticated route from the Authorization header:
// `tma <init data>` (mini-app) or `Bearer <JWT>` (web cabinet), as the route allows.
#include "app/context.hpp"

namespace cabinet {

// Sets ex.account. Throws ApiError 401 (missing/invalid credentials), 403 (blocked, or
// not an admin on an admin route).
void authenticate(Exchange& ex, AuthKind kind);

}  // namespace cabinet
