-- Promo codes are stored trimmed (SPEC-GAPS "/purchase": trimmed and case-insensitive), by
-- whoever writes them: the bot shares this table, so a trigger rather than each writer.
-- Lookups already compare lower(code) (unique index promo_codes_code_idx).
CREATE OR REPLACE FUNCTION promo_codes_trim_code() RETURNS trigger AS $$
BEGIN
    NEW.code := regexp_replace(NEW.code, '^\s+|\s+$', '', 'g');
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS promo_codes_trim_code ON promo_codes;
CREATE TRIGGER promo_codes_trim_code BEFORE INSERT OR UPDATE OF code ON promo_codes
    FOR EACH ROW EXECUTE FUNCTION promo_codes_trim_code();

-- Codes stored with spaces before: trimmed, unless the trimmed code exists already (then
-- the padded one stays as it was, reachable only as typed, and the owner decides).
UPDATE promo_codes p SET code = t.trimmed
  FROM (SELECT DISTINCT ON (lower(trimmed)) id, trimmed
          FROM (SELECT id, regexp_replace(code, '^\s+|\s+$', '', 'g') AS trimmed FROM promo_codes) x
         WHERE trimmed <> '' ORDER BY lower(trimmed), id) t
 WHERE p.id = t.id AND p.code <> t.trimmed
   AND NOT EXISTS (SELECT 1 FROM promo_codes q WHERE q.id <> p.id AND lower(q.code) = lower(t.trimmed));
