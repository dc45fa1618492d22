-- Facts: what tatlock knows about its owner and their world, in one model. A personal variable
-- is a fact: each row here is the current value of one thing (its key: "location",
-- "sister.name", "tom.allergy"), with whom it is about, who said it, in which message and how
-- it was learnt. Every value a later statement replaced is kept in fact_history, marked
-- superseded (or, when the same value was said again, not), so a correction never loses the
-- old value and forgetting the conversation that corrected it brings the old value back.
ALTER TABLE personal_variables ADD COLUMN about TEXT NOT NULL DEFAULT 'owner';  -- "owner", "owner's sister", "Tom"
ALTER TABLE personal_variables ADD COLUMN attribute TEXT;                       -- what, in words: "name", "allergy"
ALTER TABLE personal_variables ADD COLUMN author_name TEXT;                     -- who said it, by name
ALTER TABLE personal_variables ADD COLUMN origin TEXT NOT NULL DEFAULT 'hand';  -- hand | tool | heard
ALTER TABLE personal_variables ADD COLUMN statement TEXT;                       -- the words it was read from

UPDATE personal_variables SET origin = 'tool' WHERE source_message_id IS NOT NULL;
UPDATE personal_variables SET attribute = replace(key, '_', ' ');

CREATE TABLE fact_history (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    about TEXT NOT NULL DEFAULT 'owner',
    attribute TEXT,
    stated_at TEXT NOT NULL,            -- when this value was stated
    author_id TEXT,
    author_name TEXT,
    -- a value learnt in a conversation goes with it when the conversation is forgotten
    source_message_id INTEGER REFERENCES conversation_messages(message_id) ON DELETE CASCADE,
    origin TEXT NOT NULL DEFAULT 'hand',
    statement TEXT,
    replaced_at TEXT NOT NULL,          -- when a later statement took its place
    superseded INTEGER NOT NULL DEFAULT 1 CHECK (superseded IN (0, 1))  -- 0: the same value said again
);
CREATE INDEX fact_history_key ON fact_history(key, replaced_at);
CREATE INDEX fact_history_source ON fact_history(source_message_id);
