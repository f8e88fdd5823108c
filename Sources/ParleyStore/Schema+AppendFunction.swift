/// Migration 4: a message send as one statement on PostgreSQL.
///
/// `parley_append_message` does everything `appendMessage` needs on the server — the
/// membership check, the client-id lookup, the attachment check, taking the next seq, the
/// insert and the sender's cursor — so a send costs one round trip instead of seven. It never
/// raises for an expected refusal: it answers an outcome code and writes nothing, so a refused
/// send needs no savepoint of its own.
///
/// No separate lock is taken before the checks: the UPDATE of the room's counter locks the
/// room row, which is what keeps seqs dense when several nodes write; two nodes storing the
/// same client id at once collide on the unique index, and the writer's one-by-one retry then
/// answers the original. The checks themselves are lookups by primary key.
///
/// Every send updates its room's counter and its sender's cursor, so those rows are rewritten
/// constantly. Pages packed full (rooms and members are created in bulk) leave no room for the
/// new versions on the same page, so each update would be a non-HOT one, adding entries to every
/// index of the table, and lookups then wade through dead entries. Half-empty pages keep the
/// updates HOT. This applies to pages written from now on; existing pages keep their packing
/// until the table is rewritten (VACUUM FULL).
///
/// Outcomes: 0 stored (id, seq), 1 room not found, 2 not a member, 3 the sender already sent
/// this client id (the original's columns), 4 an attachment part names no attachment of the
/// room (its id in `parts`). SQLite runs the same steps as separate statements; it has nothing to create.
extension Schema {
    static let appendFunctionSQLite = ""

    static let appendFunctionPostgres = """
        ALTER TABLE rooms SET (fillfactor = 50);
        ALTER TABLE memberships SET (fillfactor = 50);
        CREATE FUNCTION parley_append_message(
            p_app TEXT, p_room TEXT, p_sender TEXT, p_client_id TEXT, p_parts TEXT,
            p_has_attachments BOOLEAN, p_now BIGINT)
        RETURNS TABLE (outcome INT, id BIGINT, seq BIGINT, parts TEXT, created_at BIGINT, edited_at BIGINT, deleted_at BIGINT)
        LANGUAGE plpgsql AS $body$
        #variable_conflict use_column
        DECLARE
            v_missing TEXT;
        BEGIN
            PERFORM 1 FROM memberships m WHERE m.app_id = p_app AND m.room_id = p_room AND m.user_id = p_sender;
            IF NOT FOUND THEN
                PERFORM 1 FROM rooms r WHERE r.app_id = p_app AND r.id = p_room;
                outcome := CASE WHEN FOUND THEN 2 ELSE 1 END;
                RETURN NEXT;
                RETURN;
            END IF;
            IF p_client_id IS NOT NULL THEN
                SELECT o.id, o.seq, o.parts, o.created_at, o.edited_at, o.deleted_at
                    INTO id, seq, parts, created_at, edited_at, deleted_at
                    FROM messages o
                    WHERE o.app_id = p_app AND o.room_id = p_room AND o.sender_id = p_sender AND o.client_id = p_client_id;
                IF FOUND THEN
                    outcome := 3;
                    RETURN NEXT;
                    RETURN;
                END IF;
            END IF;
            IF p_has_attachments THEN
                SELECT part->>'id' INTO v_missing FROM jsonb_array_elements(p_parts::jsonb) AS part
                WHERE part->>'type' = 'attachment' AND NOT EXISTS (
                    SELECT 1 FROM attachments a WHERE a.app_id = p_app AND a.id = part->>'id' AND a.room_id = p_room)
                LIMIT 1;
                IF v_missing IS NOT NULL THEN
                    outcome := 4;
                    parts := v_missing;
                    RETURN NEXT;
                    RETURN;
                END IF;
            END IF;
            UPDATE rooms r SET last_seq = r.last_seq + 1, last_activity_at = p_now
                WHERE r.app_id = p_app AND r.id = p_room RETURNING r.last_seq INTO seq;
            INSERT INTO messages AS o (app_id, room_id, seq, sender_id, client_id, parts, created_at)
                VALUES (p_app, p_room, seq, p_sender, p_client_id, p_parts, p_now) RETURNING o.id INTO id;
            UPDATE memberships m SET read_seq = seq, read_at = p_now
                WHERE m.app_id = p_app AND m.room_id = p_room AND m.user_id = p_sender AND m.read_seq < seq;
            outcome := 0;
            created_at := p_now;
            RETURN NEXT;
        END
        $body$;
        """
}
