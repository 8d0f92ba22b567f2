#pragma once
// Resolves the caller of an authenticated route from the Authorization header:
// `tma <init data>` (mini-app) or `Bearer <JWT>` (web cabinet), as the route allows.
#include "app/context.hpp"

namespace cabinet {

// Sets ex.account (and ex.staff_role on the owner's cabinet's routes). Throws ApiError 401
// (missing/invalid credentials), 403 (blocked, not staff, or a staff role the route does not
// admit).
void authenticate(Exchange& ex, AuthKind kind);

// Whether a staff route of `kind` admits `role` (false for the customer kinds).
bool admits(AuthKind kind, StaffRole role);

}  // namespace cabinet
