-- Two tabs refreshing the same token at once (issue 13, docs/decisions.md "Refresh grace"):
-- the rotated token's successor, sealed with a key only the rotated token itself gives
-- (services/refresh_grace.cpp), so the second tab, within a few seconds, gets the same new
-- pair instead of revoking the whole login. Never readable without the old token.
ALTER TABLE refresh_tokens ADD COLUMN successor_sealed TEXT;
