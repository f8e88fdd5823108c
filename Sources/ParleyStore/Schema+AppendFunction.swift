/// Migration 4: a message send as one statement on PostgreSQL.
///
/// `parley_append_message` does everything `appendMessage` needs on the server — the
/// membership check under the room's row lock, the client-id lookup, the attachment check,
/// taking the next seq, the insert and the sender's cursor — so a send costs one round trip
/// instead of seven. It never raises for an expected refusal: it answers an outcome code and
/// writes nothing, so a refused send needs no savepoint of its own.
///
/// Outcomes: 0 stored (id, seq), 1 room not found, 2 not a member, 3 the sender already sent
/// this client id (the original's columns), 4 an attachment part names no attachment of the
/// room (its id in `parts`). SQLite runs the same steps as separate statements; it has nothing to create.
extension Schema {
    static let appendFunctionSQLite = ""

    static let appendFunctionPostgres = """
        CREATE FUNCTION parley_append_message(
            p_app TEXT, p_room TEXT, p_sender TEXT, p_client_id TEXT, p_parts TEXT,
            p_has_attachments BOOLEAN, p_now BIGINT)
        RETURNS TABLE (outcome INT, id BIGINT, seq BIGINT, parts TEXT, created_at BIGINT, edited_at BIGINT, deleted_at BIGINT)
        LANGUAGE plpgsql AS $body$
        #variable_conflict use_column
        DECLARE
            v_is_member BOOLEAN;
            v_missing TEXT;
            v_seq BIGINT;
            v_id BIGINT;
        BEGIN
            SELECT m.user_id IS NOT NULL INTO v_is_member
            FROM rooms r LEFT JOIN memberships m ON m.app_id = r.app_id AND m.room_id = r.id AND m.user_id = p_sender
            WHERE r.app_id = p_app AND r.id = p_room
            FOR UPDATE OF r;
            IF NOT FOUND THEN
                RETURN QUERY SELECT 1, NULL::BIGINT, NULL::BIGINT, NULL::TEXT, NULL::BIGINT, NULL::BIGINT, NULL::BIGINT;
                RETURN;
            END IF;
            IF NOT v_is_member THEN
                RETURN QUERY SELECT 2, NULL::BIGINT, NULL::BIGINT, NULL::TEXT, NULL::BIGINT, NULL::BIGINT, NULL::BIGINT;
                RETURN;
            END IF;
            IF p_client_id IS NOT NULL THEN
                RETURN QUERY SELECT 3, o.id, o.seq, o.parts, o.created_at, o.edited_at, o.deleted_at FROM messages o
                    WHERE o.app_id = p_app AND o.room_id = p_room AND o.sender_id = p_sender AND o.client_id = p_client_id;
                IF FOUND THEN RETURN; END IF;
            END IF;
            IF p_has_attachments THEN
                SELECT part->>'id' INTO v_missing FROM jsonb_array_elements(p_parts::jsonb) AS part
                WHERE part->>'type' = 'attachment' AND NOT EXISTS (
                    SELECT 1 FROM attachments a WHERE a.app_id = p_app AND a.id = part->>'id' AND a.room_id = p_room)
                LIMIT 1;
                IF v_missing IS NOT NULL THEN
                    RETURN QUERY SELECT 4, NULL::BIGINT, NULL::BIGINT, v_missing, NULL::BIGINT, NULL::BIGINT, NULL::BIGINT;
                    RETURN;
                END IF;
            END IF;
            UPDATE rooms SET last_seq = last_seq + 1, last_activity_at = p_now
                WHERE app_id = p_app AND rooms.id = p_room RETURNING last_seq INTO v_seq;
            INSERT INTO messages (app_id, room_id, seq, sender_id, client_id, parts, created_at)
                VALUES (p_app, p_room, v_seq, p_sender, p_client_id, p_parts, p_now) RETURNING messages.id INTO v_id;
            UPDATE memberships SET read_seq = v_seq, read_at = p_now
                WHERE app_id = p_app AND room_id = p_room AND user_id = p_sender AND read_seq < v_seq;
            RETURN QUERY SELECT 0, v_id, v_seq, NULL::TEXT, p_now, NULL::BIGINT, NULL::BIGINT;
        END
        $body$;
        """
}
