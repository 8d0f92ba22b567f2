-- A verification link carries the password of the registration that mailed it (issue 13):
-- registering an address that exists unverified used to keep the first registrant's
-- password, which the owner's click then switched on. Now the clicked link's password is
-- the one that counts, and a new registration ends the older links of that address.
ALTER TABLE email_verification_tokens ADD COLUMN password_hash TEXT;
