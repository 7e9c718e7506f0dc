-- The first schema: settings and classes. Forward-only; later work adds migrations beside it.
-- Times are integer UTC milliseconds from the app's injected clock.

CREATE TABLE settings (
    key         TEXT PRIMARY KEY NOT NULL,
    value       TEXT NOT NULL,
    updated_at  INTEGER NOT NULL
);

CREATE TABLE classes (
    class_id    TEXT PRIMARY KEY NOT NULL,
    title       TEXT NOT NULL CHECK (length(trim(title)) > 0),
    join_code   TEXT,
    created_at  INTEGER NOT NULL
);
