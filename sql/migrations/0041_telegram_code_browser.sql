-- A Telegram sign-in code is finished only by the browser that asked for it: the code is in
-- the t.me link and its QR code on the screen, and anyone who read it there could poll it
-- and take the session the moment its owner pressed Confirm. The hash of the browser's
-- binding cookie (the one OAuth states use) is stored with the code; NULL for link codes
-- and for codes made before this migration, which keep working as before.
ALTER TABLE telegram_codes ADD COLUMN IF NOT EXISTS browser_hash TEXT;
