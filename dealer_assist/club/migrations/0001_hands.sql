-- The club's hands: one row per hand finished at a table, keyed by table, live session and hand
-- number, so a hand sent twice (a retry, `club sync` of a log already sent) is stored once.
-- `record` is the hand-log record exactly as the table logged it (dealer_assist.live.history);
-- the other columns are copied out of it for searching and ordering.
CREATE TABLE hands (
    id          bigserial PRIMARY KEY,
    table_name  text        NOT NULL,
    session     text        NOT NULL,
    hand        integer     NOT NULL,
    started     timestamptz,
    finished    timestamptz,
    status      text,
    winners     text[]      NOT NULL DEFAULT '{}',
    serials     text[]      NOT NULL DEFAULT '{}',
    record      jsonb       NOT NULL,
    received_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    CONSTRAINT hands_once UNIQUE (table_name, session, hand)
);
CREATE INDEX hands_finished ON hands (finished);
CREATE INDEX hands_table_finished ON hands (table_name, finished);
CREATE INDEX hands_serials ON hands USING gin (serials);

-- The hand in play at each table (the spectator screen's state object), replaced as it changes.
CREATE TABLE table_states (
    table_name text        PRIMARY KEY,
    session    text,
    state      jsonb,
    updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
