-- The bot asks before it confirms a web login or merges a web account (issue 13): the prompt
-- names the browser that started a web login (its IP and user agent, stored here at start)
-- and the e-mail of the web account a link would merge. Cancel in the bot ends the code.
ALTER TABLE telegram_codes ADD COLUMN start_ip TEXT NOT NULL DEFAULT '';
ALTER TABLE telegram_codes ADD COLUMN start_user_agent TEXT NOT NULL DEFAULT '';
ALTER TABLE telegram_codes ADD COLUMN cancelled_at TIMESTAMPTZ;
