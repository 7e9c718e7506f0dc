-- The help desk (a2learn.assist answered by the teacher).

-- Responses this dashboard sent and the host accepted, recorded the moment `respond` succeeded.
-- Kept apart from `calls` on purpose: `calls` is derived from the ledger, and a call marked
-- closed there before the host's echo arrives would make ingest's state machine reject the echo
-- as a second response (and quarantine it). The echo closes the call in `calls`; this table makes
-- the queue show it as answered in the meantime, and survives `db rebuild`.
CREATE TABLE desk_sent (
    call_id    TEXT PRIMARY KEY NOT NULL,
    class_id   TEXT NOT NULL,
    outcome    TEXT NOT NULL CHECK (outcome IN ('answered', 'declined')),
    -- The response as sent: {"value": ...} or {"error": ...}.
    response   TEXT NOT NULL,
    sent_at_ms INTEGER NOT NULL
);

-- Answers a teacher saves to reuse.
CREATE TABLE desk_replies (
    reply_id      INTEGER PRIMARY KEY,
    title         TEXT NOT NULL CHECK (length(trim(title)) > 0),
    body          TEXT NOT NULL CHECK (length(trim(body)) > 0),
    created_at_ms INTEGER NOT NULL,
    updated_at_ms INTEGER NOT NULL
);

-- Half-written answers, per call, so that a restart loses nothing typed.
CREATE TABLE desk_drafts (
    call_id       TEXT PRIMARY KEY NOT NULL,
    body          TEXT NOT NULL,
    updated_at_ms INTEGER NOT NULL
);
