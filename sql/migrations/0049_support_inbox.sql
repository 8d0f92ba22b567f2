-- The owner's support inbox (issue 48; docs/api.md "Support inbox", docs/decisions.md
-- "What unread means in the support inbox").
--
-- A ticket is unread from the customer's message until staff who may answer (owner or
-- support) open it in the inbox or answer it from anywhere (the inbox, the admins' group,
-- cabinetctl). One flag for the whole team: the inbox is shared, as the group is.
ALTER TABLE support_tickets ADD COLUMN IF NOT EXISTS unread BOOLEAN NOT NULL DEFAULT false;

-- Tickets open before this migration whose last word is the customer's are unread.
UPDATE support_tickets t SET unread = true
 WHERE t.status <> 'closed' AND NOT t.unread
   AND (SELECT m.author FROM support_messages m WHERE m.ticket_id = t.id ORDER BY m.id DESC LIMIT 1) = 'user';

-- The inbox's order (unread first, then the newest activity) with and without a status
-- filter, read page by page with a keyset cursor; the partial index serves the counts.
CREATE INDEX IF NOT EXISTS support_tickets_inbox_idx ON support_tickets (status, unread DESC, updated_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS support_tickets_inbox_all_idx ON support_tickets (unread DESC, updated_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS support_tickets_unread_idx ON support_tickets (status) WHERE unread AND status <> 'closed';
