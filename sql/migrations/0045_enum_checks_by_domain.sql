-- The lists of allowed values that every purchase, renewal and job step checks move into
-- domains, which the tables' CHECKs cast to: the same rules, a fifth of the cost
-- (docs/decisions.md "The status lists as domains", issue 17).
--
-- Why: for every INSERT or UPDATE statement PostgreSQL reads each of the table's CHECK
-- constraints back from its stored node-tree text and plans it again (ExecRelCheck:
-- stringToNode, then expression_planner, which also rebuilds the ARRAY of a
-- `status = ANY (ARRAY[...])` one value at a time) to evaluate it once. Such a list costs
-- ~20 µs a statement, and a purchase writes five of them (the transaction's type and
-- status, the ledger row's reason, the subscription's status on the insert and again on
-- the update of its upsert). A domain's constraints are parsed and planned once per
-- connection (the type cache): a CHECK that only casts to the domain costs ~4 µs. In the
-- purchase profile ExecConstraints fell from 8.0 % to 5.6 % of PostgreSQL's CPU.
--
-- The column types stay as they are: a column of a domain type changes how PostgreSQL
-- deduces the type of a statement parameter written to it, and three of the pool's
-- statements (and so the version running while this migration is applied) then fail to
-- prepare ("inconsistent types deduced for parameter"). The small CHECKs (`>= 0`, ~3.5 µs
-- each) stay too: a cast would cost them as much.
--
-- NOT VALID: the rows were checked by the very CHECK each new one replaces, within this
-- transaction; validating again would scan transactions and balance_ledger (tens of
-- millions of rows at a million users) while holding their lock.

-- Made only when missing, so that the file applies again (ops_test), keeping a list a later
-- migration may have changed.
DO $$
BEGIN
    IF to_regtype('subscription_status') IS NULL THEN
        CREATE DOMAIN subscription_status AS TEXT
            CHECK (VALUE IN ('trial', 'active', 'limited', 'expired', 'disabled', 'pending'));
    END IF;
    IF to_regtype('transaction_type') IS NULL THEN
        CREATE DOMAIN transaction_type AS TEXT
            CHECK (VALUE IN ('deposit', 'withdrawal', 'subscription_payment', 'refund', 'referral_reward', 'gift'));
    END IF;
    IF to_regtype('transaction_status') IS NULL THEN
        CREATE DOMAIN transaction_status AS TEXT
            CHECK (VALUE IN ('pending', 'completed', 'canceled', 'refunded', 'failed'));
    END IF;
    IF to_regtype('ledger_reason') IS NULL THEN
        CREATE DOMAIN ledger_reason AS TEXT
            CHECK (VALUE IN ('opening', 'purchase', 'trial', 'autopay', 'promo', 'referral_commission', 'merge_in',
                             'merge_out', 'admin', 'deposit', 'refund'));
    END IF;
    IF to_regtype('job_status') IS NULL THEN
        CREATE DOMAIN job_status AS TEXT
            CHECK (VALUE IN ('pending', 'running', 'done', 'dead'));
    END IF;
END
$$;

-- The columns are NOT NULL, so `IS NOT NULL` only ever sees the cast's own verdict: a value
-- outside the list fails the cast (23514, check_violation, as the CHECK did).
ALTER TABLE subscriptions
    DROP CONSTRAINT IF EXISTS subscriptions_status_check,
    ADD CONSTRAINT subscriptions_status_check CHECK (status::subscription_status IS NOT NULL) NOT VALID;
ALTER TABLE transactions
    DROP CONSTRAINT IF EXISTS transactions_type_check,
    ADD CONSTRAINT transactions_type_check CHECK (type::transaction_type IS NOT NULL) NOT VALID,
    DROP CONSTRAINT IF EXISTS transactions_status_check,
    ADD CONSTRAINT transactions_status_check CHECK (status::transaction_status IS NOT NULL) NOT VALID;
ALTER TABLE balance_ledger
    DROP CONSTRAINT IF EXISTS balance_ledger_reason_check,
    ADD CONSTRAINT balance_ledger_reason_check CHECK (reason::ledger_reason IS NOT NULL) NOT VALID;
ALTER TABLE jobs
    DROP CONSTRAINT IF EXISTS jobs_status_check,
    ADD CONSTRAINT jobs_status_check CHECK (status::job_status IS NOT NULL) NOT VALID;
