-- Message vectors for semantic recall (tatlock.memory.vectors): one per message, from the
-- embedding model named in `model`; a vector from another model is not used and is replaced.
-- Derived data, computed in the background and rebuilt from the messages at any time: an
-- export need not carry it, and a message whose text changes loses its vector (recomputed).
CREATE TABLE message_vectors (
    message_id INTEGER PRIMARY KEY REFERENCES conversation_messages(message_id) ON DELETE CASCADE,
    model TEXT NOT NULL,
    vector BLOB NOT NULL              -- float32, little-endian, unit length
);
CREATE INDEX message_vectors_model ON message_vectors(model);

CREATE TRIGGER message_vectors_stale AFTER UPDATE OF content, metadata ON conversation_messages
WHEN old.content IS NOT new.content
  OR json_extract(old.metadata, '$.search_text') IS NOT json_extract(new.metadata, '$.search_text')
BEGIN
    DELETE FROM message_vectors WHERE message_id = old.message_id;
END;
