-- An OAuth state belongs to the browser that asked for it (issue 13): the SHA-256 of a
-- random value the authorize answer sets as a __Host- cookie, which the callback must
-- carry. Without it, an attacker's state (link mode included) could be finished in a
-- victim's browser and attach the victim's provider identity to the attacker's account.
ALTER TABLE oauth_states ADD COLUMN browser_hash TEXT NOT NULL DEFAULT '';
