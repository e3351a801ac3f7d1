-- streamd event log on PostgreSQL, schema version 3.
-- This file is the authoritative DDL; Sources/PostgresLog/Schema/PostgresSchema.swift embeds the same text
-- (a test checks they are equal). The log runs it, in one transaction, when it opens a database without
-- the schema `streamd`, and adds what versions 2 and 3 added to a database of an older version; a database whose
-- streamd.version names a newer version is refused.
-- Everything lives in the schema `streamd`, so the log can share a database with other applications.
-- Stream, sequence, timestamp and block columns mean what they mean in schemas/eventlog.sql (the SQLite
-- log); the blocks are the same bytes, framed and raw-deflated, with the same CRC-32.
CREATE SCHEMA streamd;

CREATE TABLE streamd.version (
    version integer NOT NULL
);
INSERT INTO streamd.version VALUES (3);

-- The catalog: one row per named stream. An append locks its stream's row (SELECT ... FOR UPDATE)
-- while it numbers the events, so the appends of every daemon sharing the database take the stream's
-- sequences one after another, gap-free, and commit in that order.
CREATE TABLE streamd.streams (
    id            bigint   GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name          text     NOT NULL UNIQUE,
    capacity      bigint,                       -- keep the last N events; NULL = unlimited
    max_age_us    bigint,                       -- drop events older than this; NULL = no limit
    max_bytes     bigint,                       -- bound on stored block bytes; NULL = no limit
    replay_kind   smallint NOT NULL DEFAULT 0,  -- default start for late subscribers
    replay_arg    bigint   NOT NULL DEFAULT 0,
    first_seq     bigint   NOT NULL DEFAULT 1,  -- first retained sequence
    last_seq      bigint   NOT NULL DEFAULT 0,  -- last assigned sequence (0 = none yet)
    last_ts       bigint   NOT NULL DEFAULT 0,  -- timestamp of last_seq, microseconds since the epoch
    stored_bytes  bigint   NOT NULL DEFAULT 0,  -- sum of length(payload) over the stream's blocks
    terminal_kind smallint NOT NULL DEFAULT 0,  -- 0 open, 1 completed, 2 failed (the event is stored too)
    created_us    bigint   NOT NULL,            -- tells one life of a name from the next
    dedup_events  bigint,                       -- (version 3) message ids kept over the last N events;
    dedup_age_us  bigint                        -- and for this long after their event; both NULL = the default
);

-- One row per block: one commit's events of one stream (at most 256 events or 64 KiB of framing each).
-- Readers seek (stream_id, last_seq >= S) on the primary key and tail a stream by sequence, never by a
-- global position, so a commit that finishes late cannot be skipped.
CREATE TABLE streamd.blocks (
    stream_id  bigint   NOT NULL REFERENCES streamd.streams (id) ON DELETE CASCADE,
    first_seq  bigint   NOT NULL,
    last_seq   bigint   NOT NULL,
    first_ts   bigint   NOT NULL,
    last_ts    bigint   NOT NULL,
    count      integer  NOT NULL,
    codec      smallint NOT NULL,
    raw_size   integer  NOT NULL,
    crc32      bigint   NOT NULL,
    payload    bytea    NOT NULL,
    PRIMARY KEY (stream_id, last_seq)
);
-- The payload is compressed already: stored out of line when large, never compressed again.
ALTER TABLE streamd.blocks ALTER COLUMN payload SET STORAGE EXTERNAL;

-- Message ids (version 2): the id a publish gave an event, with the sequence and timestamp the event got,
-- kept within the stream's de-duplication window (dedup_events, dedup_age_us; by default the last 10 000
-- events). A daemon
-- reads a publish's ids under the stream's row lock and writes new ones in the transaction that stores
-- the events, so a publish retried through any daemon, or after any restart, is recognised.
CREATE TABLE streamd.message_ids (
    stream_id  bigint NOT NULL REFERENCES streamd.streams (id) ON DELETE CASCADE,
    message_id text   NOT NULL,
    sequence   bigint NOT NULL,
    ts         bigint NOT NULL,
    PRIMARY KEY (stream_id, message_id)
);
CREATE INDEX message_ids_by_sequence ON streamd.message_ids (stream_id, sequence);

-- Durable consumers (version 3): named readers of a stream whose place the log keeps, as in
-- schemas/eventlog.sql: next_seq is the first sequence no member has been given yet, pending the events
-- delivered and not yet acknowledged (varint pairs: distance from the previous sequence, delivery count).
-- One daemon serves a consumer at a time: owner names it, and its lease runs to lease_until (the
-- server's clock); each of its saves renews it, and only a row it owns takes them.
CREATE TABLE streamd.consumers (
    stream_id    bigint   NOT NULL REFERENCES streamd.streams (id) ON DELETE CASCADE,
    name         text     NOT NULL,
    start_kind   smallint NOT NULL,
    start_arg    bigint   NOT NULL,
    ack_wait_ms  bigint   NOT NULL,
    max_deliver  bigint,
    max_pending  bigint   NOT NULL,
    dead_letter  text,
    next_seq     bigint   NOT NULL,
    pending      bytea    NOT NULL,
    owner        text,
    lease_until  timestamptz,
    PRIMARY KEY (stream_id, name)
);
