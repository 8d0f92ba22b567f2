-- A link code may need the browser's approval (docs/decisions.md "A link is approved in the
-- browser that asked for it"): the bot's Confirm then only names the Telegram account, and
-- the web account merges once its own page approves that account. The code is in the t.me
-- link and its QR code on the screen, and whoever read it there could otherwise merge the
-- web account into their own Telegram account by confirming first. Codes of clients that do
-- not ask for approval (false) keep merging on Confirm.
ALTER TABLE telegram_codes ADD COLUMN IF NOT EXISTS needs_approval BOOLEAN NOT NULL DEFAULT false;
