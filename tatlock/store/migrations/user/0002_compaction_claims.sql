-- Compaction claims: a process claims the next block of a conversation before summarising it,
-- so two processes never compact one range. A claim whose process died (or that expired) is
-- taken over; the compact itself is written in one transaction with the claim's release.
CREATE TABLE compaction_claims (
    conversation_id INTEGER PRIMARY KEY REFERENCES conversations(id) ON DELETE CASCADE,
    from_message INTEGER NOT NULL,
    up_to_message INTEGER NOT NULL,
    owner TEXT NOT NULL,          -- "<host>:<pid>:<random>"
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    claimed_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
