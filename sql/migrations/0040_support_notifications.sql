-- A ticket notification's Telegram message id is unique only within its chat: after
-- REPORT_CHAT_ID moves to another group (whose ids start again from 1), an admin's reply
-- there to an unrelated message could match an old notification and reach that ticket's
-- customer. The chat is stored with the id and a reply must match both. Rows sent before
-- this migration have no chat and keep matching by id alone (as before) until they close.
ALTER TABLE support_messages ADD COLUMN IF NOT EXISTS notification_chat_id TEXT;

-- An admin's answer from the reporting group is stored once per Telegram message: Telegram
-- delivers an update again when the webhook's answer was late, and the answer would then be
-- stored and sent to the customer twice. `source_ref` is "telegram:<chat>:<message id>".
ALTER TABLE support_messages ADD COLUMN IF NOT EXISTS source_ref TEXT;
CREATE UNIQUE INDEX IF NOT EXISTS support_messages_source_ref_key ON support_messages (source_ref)
    WHERE source_ref IS NOT NULL;
