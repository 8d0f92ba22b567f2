-- A registration of an address that an unverified account already holds is contested
-- (docs/decisions.md "An unverified address is nobody's yet"). Until now such a
-- registration ended the older links and its own link carried its password, so an
-- attacker who registered a victim's fresh address a second time, before the victim
-- clicked, had the victim's click switch on the attacker's password. Now every link of a
-- contested address stays valid but asks for the password of its own registration; a
-- link of an address registered once still verifies with the click alone.
ALTER TABLE email_verification_tokens ADD COLUMN IF NOT EXISTS contested BOOLEAN NOT NULL DEFAULT false;
