/// Migration 16, PostgreSQL: search lexemes scoped to their room.
///
/// Each word of `messages.search` is stored behind its room's tag (`parley_search_tag`: 8 hex
/// digits of a hash of app and room), `'<tag><word>':<positions>`, instead of the bare word plus
/// one lexeme naming the room. A GIN posting list is then one room's messages holding one word,
/// so a query for the caller's rooms (`(tag₁w₁ & tag₁w₂) | (tag₂w₁ & tag₂w₂) | …`) reads only
/// postings in scope: a word in 1% of all messages costs its share of the caller's rooms, not of
/// the whole table, and a prefix (`tag₁w:*`) scans only the room's own words. The tag has a fixed
/// width, so a prefix never runs from one room's words into another's; two rooms sharing a tag
/// (a hash collision) only cost extra postings, as every row is checked against its room.
///
/// Existing vectors are re-tagged from their own lexemes and positions (no second tokenizing),
/// with the GIN index dropped first and built again after. The trigger also fires when a
/// message's app or room changes, since its tag would.
extension Schema {
    static let searchPostgresRooms = """
        CREATE FUNCTION parley_search_tag(p_app TEXT, p_room TEXT) RETURNS TEXT
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $f$ SELECT left(md5(length(p_app) || ':' || p_app || p_room), \(SQLChatStore.searchTagLength)) $f$;
        CREATE OR REPLACE FUNCTION parley_search_vector(p_app TEXT, p_room TEXT, p_parts TEXT) RETURNS TSVECTOR
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
        AS $f$
        DECLARE
            v_tag TEXT := parley_search_tag(p_app, p_room);
        BEGIN
            -- Words hold only letters, digits, marks and hex digits, the tag hex digits: nothing to quote.
            RETURN (
                SELECT string_agg('''' || v_tag || w.word || ''':' || w.n, ' ')::tsvector
                FROM unnest(parley_search_words(parley_search_text(p_parts))) WITH ORDINALITY AS w(word, n));
        END
        $f$;
        DROP TRIGGER messages_search ON messages;
        CREATE TRIGGER messages_search BEFORE INSERT OR UPDATE OF parts, deleted_at, app_id, room_id ON messages
            FOR EACH ROW EXECUTE FUNCTION parley_messages_search();
        DROP INDEX messages_search;
        SET LOCAL maintenance_work_mem = '256MB';
        UPDATE messages SET search = (
            SELECT string_agg('''' || t.tag || u.lexeme || ''':' || array_to_string(u.positions, ','), ' ')::tsvector
            FROM unnest(search) AS u, (SELECT parley_search_tag(app_id, room_id)) AS t(tag)
            WHERE left(u.lexeme, 1) <> '#')
        WHERE search IS NOT NULL;
        CREATE INDEX messages_search ON messages USING gin (search);
        DROP FUNCTION parley_search_room(TEXT, TEXT);
        """
}
