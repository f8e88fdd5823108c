/// Migration 19, PostgreSQL: each message's words as rows of a B-tree, `message_words`, so a
/// search for one word reads a room's matches newest first and reads the table only for the
/// matches it keeps.
///
/// The GIN index hands over every match of a word, unordered: a word in 1,500 of the caller's
/// messages is 1,500 reads of rows scattered over the table (4–8 µs each) to keep the newest 200.
/// The walk (migration 18) reads messages newest first instead, but for such a word it reads
/// about 12,000 to find 200. `message_words` holds one row per message and word of its vector
/// (the word behind its room's tag, as in the vector, migration 16), keyed by (word, message id):
/// a room's matches of a word are side by side in the key, newest last, and an index-only scan
/// reads them from any id down (`SQLChatStore+SearchPostgresPostings.swift`).
///
/// Triggers keep it in step with `search` inside the writing transaction, whatever changes the
/// vector (a send, an edit, a deletion, a room deleted by cascade, an erasure): the vector is
/// made by a BEFORE trigger, which `UPDATE OF` would not see, so the update trigger compares the
/// vectors. The words are in the C collation, so a prefix is a range of the key.
///
/// The GIN index stays for words in few messages (it reads their rows in the table's order,
/// cheaper than one by one) and for several words whose postings would be many more than their
/// common matches. The table and its key are about 1.2 GB at 1,000,000 messages of 14 words on
/// average.
extension Schema {
    static let searchPostingsPostgres = """
        SET LOCAL maintenance_work_mem = '256MB';
        CREATE TABLE message_words (
            word TEXT COLLATE "C" NOT NULL,
            message_id BIGINT NOT NULL
        );
        INSERT INTO message_words (word, message_id)
            SELECT w.word, m.id FROM messages m, unnest(tsvector_to_array(m.search)) AS w(word) WHERE m.search IS NOT NULL;
        ALTER TABLE message_words ADD PRIMARY KEY (word, message_id);
        ALTER TABLE message_words SET (autovacuum_vacuum_insert_threshold = 100000, autovacuum_vacuum_insert_scale_factor = 0);
        CREATE FUNCTION parley_message_words() RETURNS TRIGGER
        LANGUAGE plpgsql AS $f$
        BEGIN
            IF TG_OP <> 'INSERT' AND OLD.search IS NOT NULL THEN
                DELETE FROM message_words WHERE message_id = OLD.id AND word = ANY (tsvector_to_array(OLD.search));
            END IF;
            IF TG_OP <> 'DELETE' AND NEW.search IS NOT NULL THEN
                INSERT INTO message_words (word, message_id) SELECT w, NEW.id FROM unnest(tsvector_to_array(NEW.search)) AS w;
            END IF;
            RETURN NULL;
        END $f$;
        CREATE TRIGGER messages_words_insert AFTER INSERT ON messages
            FOR EACH ROW WHEN (NEW.search IS NOT NULL) EXECUTE FUNCTION parley_message_words();
        CREATE TRIGGER messages_words_update AFTER UPDATE ON messages
            FOR EACH ROW WHEN (OLD.search IS DISTINCT FROM NEW.search OR OLD.id <> NEW.id) EXECUTE FUNCTION parley_message_words();
        CREATE TRIGGER messages_words_delete AFTER DELETE ON messages
            FOR EACH ROW WHEN (OLD.search IS NOT NULL) EXECUTE FUNCTION parley_message_words()
        """
}
