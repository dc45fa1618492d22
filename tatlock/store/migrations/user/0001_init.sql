-- <name>_longterm.db: one user's private long-term memory.
CREATE TABLE conversations (
    id INTEGER PRIMARY KEY,
    title TEXT,
    room_id TEXT NOT NULL,
    interface TEXT NOT NULL,            -- tui | cli | mcp | ...
    started_at TEXT NOT NULL,
    last_activity TEXT NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0,
    compacted_up_to INTEGER NOT NULL DEFAULT 0,   -- last message_number inside a compact
    metadata TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metadata))
);
CREATE INDEX conversations_room ON conversations(interface, room_id, last_activity);
CREATE INDEX conversations_activity ON conversations(last_activity);

CREATE TABLE conversation_messages (
    message_id INTEGER PRIMARY KEY,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    message_number INTEGER NOT NULL CHECK (message_number >= 1),
    role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'system', 'tool')),
    author_id TEXT NOT NULL,
    author_name TEXT NOT NULL,
    author_is_bot INTEGER NOT NULL DEFAULT 0 CHECK (author_is_bot IN (0, 1)),
    is_anchor INTEGER NOT NULL DEFAULT 0 CHECK (is_anchor IN (0, 1)),
    reply_to INTEGER REFERENCES conversation_messages(message_id) ON DELETE SET NULL,
    content TEXT NOT NULL,
    timestamp TEXT NOT NULL,
    metadata TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metadata)),
    UNIQUE (conversation_id, message_number)
);
CREATE INDEX conversation_messages_time ON conversation_messages(timestamp);
CREATE INDEX conversation_messages_author ON conversation_messages(author_id);

CREATE TABLE participants (
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    author_id TEXT NOT NULL,
    name TEXT NOT NULL,
    is_bot INTEGER NOT NULL DEFAULT 0 CHECK (is_bot IN (0, 1)),
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (conversation_id, author_id)
);

CREATE TABLE conversation_compacts (
    id INTEGER PRIMARY KEY,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    from_message INTEGER NOT NULL CHECK (from_message >= 1),
    up_to_message INTEGER NOT NULL,
    summary TEXT NOT NULL,
    topics TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(topics)),
    model TEXT NOT NULL,
    created_at TEXT NOT NULL,
    CHECK (up_to_message >= from_message),
    UNIQUE (conversation_id, from_message)
);

CREATE TABLE topics (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE
);

CREATE TABLE topic_messages (
    topic_id INTEGER NOT NULL REFERENCES topics(id) ON DELETE CASCADE,
    message_id INTEGER NOT NULL REFERENCES conversation_messages(message_id) ON DELETE CASCADE,
    PRIMARY KEY (topic_id, message_id)
);

CREATE TABLE conversation_topics (
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    topic_id INTEGER NOT NULL REFERENCES topics(id) ON DELETE CASCADE,
    mention_count INTEGER NOT NULL DEFAULT 0,
    first_seen TEXT NOT NULL,
    last_seen TEXT NOT NULL,
    PRIMARY KEY (conversation_id, topic_id)
);

CREATE TABLE personal_variables (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    -- who stated it (attribution), and where
    author_id TEXT,
    source_message_id INTEGER REFERENCES conversation_messages(message_id) ON DELETE SET NULL
);

CREATE TABLE cross_conversation_summaries (
    id INTEGER PRIMARY KEY,
    conversation_id INTEGER REFERENCES conversations(id) ON DELETE SET NULL,  -- built for
    summary TEXT NOT NULL,
    source_conversations TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(source_conversations)),
    model TEXT NOT NULL,
    created_at TEXT NOT NULL
);

-- Full-text search. External content (no second copy of any message): the messages index
-- reads through a view so it can also index text attached in metadata (image captions,
-- file names) under metadata.search_text.
CREATE VIEW message_search_source AS
    SELECT message_id, content, author_name,
           coalesce(json_extract(metadata, '$.search_text'), '') AS extra
    FROM conversation_messages;

CREATE VIRTUAL TABLE messages_fts USING fts5(
    content, author_name, extra,
    content='message_search_source', content_rowid='message_id',
    tokenize='porter unicode61 remove_diacritics 2'
);

CREATE TRIGGER messages_fts_insert AFTER INSERT ON conversation_messages BEGIN
    INSERT INTO messages_fts(rowid, content, author_name, extra)
    VALUES (new.message_id, new.content, new.author_name,
            coalesce(json_extract(new.metadata, '$.search_text'), ''));
END;

CREATE TRIGGER messages_fts_delete AFTER DELETE ON conversation_messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content, author_name, extra)
    VALUES ('delete', old.message_id, old.content, old.author_name,
            coalesce(json_extract(old.metadata, '$.search_text'), ''));
END;

CREATE TRIGGER messages_fts_update AFTER UPDATE OF content, author_name, metadata
ON conversation_messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content, author_name, extra)
    VALUES ('delete', old.message_id, old.content, old.author_name,
            coalesce(json_extract(old.metadata, '$.search_text'), ''));
    INSERT INTO messages_fts(rowid, content, author_name, extra)
    VALUES (new.message_id, new.content, new.author_name,
            coalesce(json_extract(new.metadata, '$.search_text'), ''));
END;

CREATE VIRTUAL TABLE compacts_fts USING fts5(
    summary, topics,
    content='conversation_compacts', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2'
);

CREATE TRIGGER compacts_fts_insert AFTER INSERT ON conversation_compacts BEGIN
    INSERT INTO compacts_fts(rowid, summary, topics) VALUES (new.id, new.summary, new.topics);
END;

CREATE TRIGGER compacts_fts_delete AFTER DELETE ON conversation_compacts BEGIN
    INSERT INTO compacts_fts(compacts_fts, rowid, summary, topics)
    VALUES ('delete', old.id, old.summary, old.topics);
END;

CREATE TRIGGER compacts_fts_update AFTER UPDATE OF summary, topics ON conversation_compacts BEGIN
    INSERT INTO compacts_fts(compacts_fts, rowid, summary, topics)
    VALUES ('delete', old.id, old.summary, old.topics);
    INSERT INTO compacts_fts(rowid, summary, topics) VALUES (new.id, new.summary, new.topics);
END;
