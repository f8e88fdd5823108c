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
/// `parley_append_messages` (PL/pgSQL, so its plan is cached per connection rather than made
/// on every call as a SQL-language function's is) does the same for a whole run of sends (without attachments) in one
/// statement over arrays, answering one row per send with its 1-based position first: the room
/// counters, the inserts and the cursors are then one set-based statement each instead of one
/// per message (about 30 µs a message instead of 100–150 µs of server time). Seqs are numbered
/// from the room's counter as the statement sees it; should another node have taken them in the
/// meantime, the insert collides on (room, seq), the statement raises, and the writer redoes the
/// run one send at a time. A client id repeated within the run is stored once; the repeats answer it.
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
        CREATE FUNCTION parley_append_messages(
            p_apps TEXT[], p_rooms TEXT[], p_senders TEXT[], p_client_ids TEXT[], p_parts TEXT[], p_now BIGINT)
        RETURNS TABLE (ord BIGINT, outcome INT, id BIGINT, seq BIGINT, parts TEXT, created_at BIGINT, edited_at BIGINT, deleted_at BIGINT)
        LANGUAGE plpgsql AS $body$
        #variable_conflict use_column
        BEGIN
        RETURN QUERY
        WITH input AS (
            SELECT t.ord, t.app_id, t.room_id, t.sender_id, t.client_id, t.parts
            FROM unnest(p_apps, p_rooms, p_senders, p_client_ids, p_parts)
                WITH ORDINALITY AS t(app_id, room_id, sender_id, client_id, parts, ord)
        ), checked AS (
            SELECT i.*, r.last_seq AS room_seq,
                CASE WHEN m.user_id IS NOT NULL THEN 0 WHEN r.id IS NOT NULL THEN 2 ELSE 1 END AS access,
                CASE WHEN i.client_id IS NULL THEN 1
                     ELSE row_number() OVER (PARTITION BY i.app_id, i.room_id, i.sender_id, i.client_id ORDER BY i.ord) END AS occurrence,
                o.id AS o_id, o.seq AS o_seq, o.parts AS o_parts, o.created_at AS o_created_at,
                o.edited_at AS o_edited_at, o.deleted_at AS o_deleted_at
            FROM input i
            LEFT JOIN rooms r ON r.app_id = i.app_id AND r.id = i.room_id
            LEFT JOIN memberships m ON m.app_id = i.app_id AND m.room_id = i.room_id AND m.user_id = i.sender_id
            LEFT JOIN messages o ON m.user_id IS NOT NULL AND i.client_id IS NOT NULL AND o.app_id = i.app_id
                AND o.room_id = i.room_id AND o.sender_id = i.sender_id AND o.client_id = i.client_id
        ), flagged AS (
            SELECT c.*, (c.access = 0 AND c.o_id IS NULL AND c.occurrence = 1) AS fresh FROM checked c
        ), numbered AS (
            SELECT f.*,
                f.room_seq + count(*) FILTER (WHERE f.fresh) OVER (PARTITION BY f.app_id, f.room_id ORDER BY f.ord) AS seq,
                CASE WHEN f.fresh THEN nextval((SELECT pg_get_serial_sequence('messages', 'id'))::regclass) END AS new_id
            FROM flagged f
        ), bumped AS (
            UPDATE rooms r SET last_seq = r.last_seq + g.n, last_activity_at = p_now
            FROM (SELECT n.app_id, n.room_id, count(*) AS n FROM numbered n WHERE n.fresh GROUP BY 1, 2) g
            WHERE r.app_id = g.app_id AND r.id = g.room_id
        ), stored AS (
            INSERT INTO messages (id, app_id, room_id, seq, sender_id, client_id, parts, created_at)
            SELECT n.new_id, n.app_id, n.room_id, n.seq, n.sender_id, n.client_id, n.parts, p_now
            FROM numbered n WHERE n.fresh ORDER BY n.ord
        ), cursors AS (
            UPDATE memberships m SET read_seq = s.seq, read_at = p_now
            FROM (SELECT n.app_id, n.room_id, n.sender_id, max(n.seq) AS seq FROM numbered n WHERE n.fresh GROUP BY 1, 2, 3) s
            WHERE m.app_id = s.app_id AND m.room_id = s.room_id AND m.user_id = s.sender_id AND m.read_seq < s.seq
        )
        SELECT n.ord,
            CASE WHEN n.access <> 0 THEN n.access WHEN n.fresh THEN 0 ELSE 3 END,
            CASE WHEN n.access <> 0 THEN NULL WHEN n.o_id IS NOT NULL THEN n.o_id ELSE first_value(n.new_id) OVER same END,
            CASE WHEN n.access <> 0 THEN NULL WHEN n.o_id IS NOT NULL THEN n.o_seq ELSE first_value(n.seq) OVER same END,
            CASE WHEN n.access <> 0 OR n.fresh THEN NULL WHEN n.o_id IS NOT NULL THEN n.o_parts ELSE first_value(n.parts) OVER same END,
            CASE WHEN n.access <> 0 THEN NULL ELSE COALESCE(n.o_created_at, p_now) END,
            n.o_edited_at, n.o_deleted_at
        FROM numbered n
        WINDOW same AS (PARTITION BY n.app_id, n.room_id, n.sender_id, n.client_id ORDER BY n.ord)
        ORDER BY n.ord;
        END
        $body$;
        """
}
