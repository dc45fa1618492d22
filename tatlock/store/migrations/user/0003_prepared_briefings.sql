-- Briefings prepared in the background (issue 18): a row with no conversation_id is a briefing
-- made ahead for the next new conversation, which adopts it at once (no model call before the
-- first answer). `covers` is what it was made from ({"conversation id": messages}), so a
-- housekeeper can tell when it is out of date; `how` says who wrote it: the model, its
-- structured repair, or an extract made without a model.
ALTER TABLE cross_conversation_summaries ADD COLUMN covers TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(covers));
ALTER TABLE cross_conversation_summaries ADD COLUMN how TEXT NOT NULL DEFAULT 'model';
CREATE INDEX cross_summaries_by_conversation ON cross_conversation_summaries (conversation_id, id);
