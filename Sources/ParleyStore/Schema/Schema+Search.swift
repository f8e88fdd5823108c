/// Migration 8: message search.
///
/// SQLite: an FTS5 table (`message_search`, rowid = message id) holding each message's words
/// as `SearchTokenizer` cuts them, space-separated, under the `ascii` tokenizer (which then
/// splits on the spaces only). Triggers keep it in step inside the very statement that writes
/// the message — send, edit, delete (a tombstone has no words) and the cascade of a room's
/// deletion — through `parley_search_words`, a function every SQLite connection registers.
///
/// PostgreSQL: a stored generated `tsvector` column of `messages` with a GIN index. The vector
/// is built by `parley_search_vector` from the same words, so the parser and text search
/// configuration never see the text (see `SearchTokenizer`: 'simple' would drop emoji and keep
/// a run of ideographs as one word). Being generated, it cannot fall out of step with `parts`,
/// whatever path writes the row (the append functions of migration 4 included).
///
/// `parley_search_vector` keeps the schema it was created in as its search path, so a restore
/// that empties the search path (pg_restore does) still finds `parley_search_words`.
///
/// Both index the messages already stored while the migration runs.
extension Schema {
    static let searchSQLite = """
        CREATE VIRTUAL TABLE message_search USING fts5(words, tokenize = 'ascii');
        INSERT INTO message_search (rowid, words)
            SELECT id, words FROM (SELECT id, parley_search_words(parts) AS words FROM messages) WHERE words <> '';
        CREATE TRIGGER message_search_insert AFTER INSERT ON messages BEGIN
            INSERT INTO message_search (rowid, words)
                SELECT new.id, words FROM (SELECT parley_search_words(new.parts) AS words) WHERE words <> '';
        END;
        CREATE TRIGGER message_search_update AFTER UPDATE OF parts ON messages BEGIN
            DELETE FROM message_search WHERE rowid = old.id;
            INSERT INTO message_search (rowid, words)
                SELECT new.id, words FROM (SELECT parley_search_words(new.parts) AS words) WHERE words <> '';
        END;
        CREATE TRIGGER message_search_delete AFTER DELETE ON messages BEGIN
            DELETE FROM message_search WHERE rowid = old.id;
        END;
        """

    static let searchPostgres = """
        CREATE FUNCTION parley_search_words(p_parts TEXT) RETURNS TEXT[]
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $body$
        SELECT COALESCE(array_agg(t.word ORDER BY t.n), '{}') FROM regexp_split_to_table(
            regexp_replace(
                translate(
                    regexp_replace(
                        normalize(lower(COALESCE(
                            (SELECT string_agg(e.part->>'text', E'\\n' ORDER BY e.i)
                             FROM jsonb_array_elements(p_parts::jsonb) WITH ORDINALITY AS e(part, i)
                             WHERE e.part->>'type' = 'text'), '') COLLATE "und-x-icu"), NFC),
                        '\(SearchTokenizer.postgresClass(SearchTokenizer.droppedRanges))', '', 'g'),
                    '\(SearchTokenizer.postgresFoldFrom)', '\(SearchTokenizer.postgresFoldTo)'),
                '(\(SearchTokenizer.postgresClass(SearchTokenizer.singleRanges)))', ' \\1 ', 'g'),
            '\(SearchTokenizer.postgresSeparators)+') WITH ORDINALITY AS t(word, n)
        WHERE t.word <> '' AND octet_length(t.word) < \(SearchTokenizer.maximumWordBytes)
        $body$;
        CREATE FUNCTION parley_search_vector(p_parts TEXT) RETURNS tsvector
        LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path FROM CURRENT AS $body$
        SELECT COALESCE(string_agg('''' || w.word || ''':' || least(w.n, 16383), ' ')::tsvector, ''::tsvector)
        FROM unnest(parley_search_words(p_parts)) WITH ORDINALITY AS w(word, n)
        $body$;
        ALTER TABLE messages ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (parley_search_vector(parts)) STORED;
        CREATE INDEX messages_search ON messages USING gin (search_vector);
        """
}
