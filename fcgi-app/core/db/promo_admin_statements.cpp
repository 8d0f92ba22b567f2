#include "db/statements.hpp"

namespace cabinet {

// The owner's promo codes (db/promo_admin_repo.cpp): listing with uses so far, creating one
// or a batch, switching one off and on. Redeeming them is subscription_statements.cpp's.
std::vector<Statement> promo_admin_statements() {
    return {
        // Newest first, by id: $1 a case-insensitive part of the code (NULL: any), $2 'active',
        // 'disabled' or NULL (all), $3 the cursor (ids below it; NULL: from the newest).
        {"admin_promo_codes",
         "SELECT c.id, c.code, c.reward_type, c.value, p.public_code AS plan_code, c.max_uses, c.uses,"
         "       floor(extract(epoch FROM c.valid_from))::bigint AS valid_from,"
         "       floor(extract(epoch FROM c.valid_until))::bigint AS valid_until, c.is_active,"
         "       floor(extract(epoch FROM c.created_at))::bigint AS created_at"
         " FROM promo_codes c LEFT JOIN plans p ON p.id = c.plan_id"
         " WHERE ($1::text IS NULL OR strpos(lower(c.code), lower($1)) > 0)"
         "   AND ($2::text IS NULL OR c.is_active = ($2 = 'active'))"
         "   AND ($3::bigint IS NULL OR c.id < $3)"
         " ORDER BY c.id DESC LIMIT $4"},
        {"admin_promo_code_by_id",
         "SELECT c.id, c.code, c.reward_type, c.value, p.public_code AS plan_code, c.max_uses, c.uses,"
         "       floor(extract(epoch FROM c.valid_from))::bigint AS valid_from,"
         "       floor(extract(epoch FROM c.valid_until))::bigint AS valid_until, c.is_active,"
         "       floor(extract(epoch FROM c.created_at))::bigint AS created_at"
         " FROM promo_codes c LEFT JOIN plans p ON p.id = c.plan_id WHERE c.id = $1"},
        // NULL id when the code exists already (codes are unique whatever their case).
        {"admin_promo_code_insert",
         "INSERT INTO promo_codes (code, reward_type, value, plan_id, max_uses, valid_from, valid_until)"
         " VALUES ($1, $2, $3, $4, $5, to_timestamp($6), to_timestamp($7))"
         " ON CONFLICT ((lower(code))) DO NOTHING RETURNING id"},
        // One-use codes, as many as $1 has; those whose text exists already are left out of
        // the answer (the service makes others for them).
        {"admin_promo_codes_insert_batch",
         "INSERT INTO promo_codes (code, reward_type, value, plan_id, max_uses, valid_until)"
         " SELECT c, $2, $3, $4, 1, to_timestamp($5) FROM unnest($1::text[]) AS c"
         " ON CONFLICT ((lower(code))) DO NOTHING RETURNING code"},
        {"admin_promo_code_set_active",
         "UPDATE promo_codes SET is_active = $2 WHERE id = $1 AND is_active <> $2 RETURNING id"},
        {"admin_plan_id_by_code", "SELECT id FROM plans WHERE public_code = $1"},
    };
}

}  // namespace cabinet
