/// Migration 7: threads, quotes and mentions.
///
/// A reply names its thread's root in `parent_id` (a reply to a reply is stored against the
/// root) and takes the room's next seq like any message, so seqs stay dense and reactions,
/// edits, deletes and cursors work on replies unchanged. A reply sent to the thread only
/// (`thread_only = 1`) is left out of the room's history and, like a tombstone, out of unread
/// counts: the partial index `messages_hidden` holds exactly the rows the unread count
/// subtracts. The root keeps `reply_count` and `last_repliers` (up to three user ids, newest
/// first, separated by spaces; user ids have no spaces).
///
/// A quote keeps a snapshot of the quoted message (`quoted_sender`, `quoted_parts`) taken at
/// send; deleting the original clears `quoted_parts` through the by-quote index, which is how
/// the quote reads as deleted without a join on every history read.
///
/// Mentions resolved at send are kept twice: as the message's `mentions` column (read with the
/// message, never parsed again) and as rows of `mentions`, keyed by user first so a member's
/// unread mentions in a room are a range count after their cursor.
///
/// `parley_append_reply` is `parley_append_message` (migration 4) plus those steps, still one
/// statement per send; sends without a parent, quote or `@` candidate keep using the batched
/// functions of migration 4.
///
/// Outcomes beyond migration 4's: 5 no such parent in the room, 6 the parent (or its root)
/// is deleted, 7 no such quoted message in the room, 8 the quoted message is deleted.
extension Schema {
    static let threadsSQLite = """
        ALTER TABLE messages ADD COLUMN parent_id INTEGER;
        ALTER TABLE messages ADD COLUMN thread_only INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE messages ADD COLUMN reply_count INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE messages ADD COLUMN last_repliers TEXT;
        ALTER TABLE messages ADD COLUMN quoted_id INTEGER;
        ALTER TABLE messages ADD COLUMN quoted_sender TEXT;
        ALTER TABLE messages ADD COLUMN quoted_parts TEXT;
        ALTER TABLE messages ADD COLUMN mentions TEXT;
        CREATE INDEX messages_replies ON messages (app_id, parent_id, seq) WHERE parent_id IS NOT NULL;
        CREATE INDEX messages_quotes ON messages (app_id, quoted_id) WHERE quoted_id IS NOT NULL;
        CREATE INDEX messages_hidden ON messages (app_id, room_id, seq) WHERE deleted_at IS NOT NULL OR thread_only = 1;
        CREATE TABLE mentions (
            app_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            room_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            PRIMARY KEY (app_id, user_id, room_id, seq),
            FOREIGN KEY (app_id, room_id, seq) REFERENCES messages (app_id, room_id, seq) ON DELETE CASCADE
        ) WITHOUT ROWID;
        CREATE INDEX mentions_by_message ON mentions (app_id, room_id, seq);
        """

    static let threadsPostgres = """
        ALTER TABLE messages ADD COLUMN parent_id BIGINT;
        ALTER TABLE messages ADD COLUMN thread_only INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE messages ADD COLUMN reply_count BIGINT NOT NULL DEFAULT 0;
        ALTER TABLE messages ADD COLUMN last_repliers TEXT;
        ALTER TABLE messages ADD COLUMN quoted_id BIGINT;
        ALTER TABLE messages ADD COLUMN quoted_sender TEXT;
        ALTER TABLE messages ADD COLUMN quoted_parts TEXT;
        ALTER TABLE messages ADD COLUMN mentions TEXT;
        CREATE INDEX messages_replies ON messages (app_id, parent_id, seq) WHERE parent_id IS NOT NULL;
        CREATE INDEX messages_quotes ON messages (app_id, quoted_id) WHERE quoted_id IS NOT NULL;
        CREATE INDEX messages_hidden ON messages (app_id, room_id, seq) WHERE deleted_at IS NOT NULL OR thread_only = 1;
        CREATE TABLE mentions (
            app_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            room_id TEXT NOT NULL,
            seq BIGINT NOT NULL,
            PRIMARY KEY (app_id, user_id, room_id, seq),
            FOREIGN KEY (app_id, room_id, seq) REFERENCES messages (app_id, room_id, seq) ON DELETE CASCADE
        );
        CREATE INDEX mentions_by_message ON mentions (app_id, room_id, seq);
        CREATE FUNCTION parley_append_reply(
            p_app TEXT, p_room TEXT, p_sender TEXT, p_client_id TEXT, p_parts TEXT, p_has_attachments BOOLEAN, p_now BIGINT,
            p_parent BIGINT, p_thread_only INT, p_quoted BIGINT, p_candidates TEXT[])
        RETURNS TABLE (outcome INT, r_id BIGINT, r_seq BIGINT, r_parent BIGINT, r_quoted_sender TEXT, r_quoted_parts TEXT,
            r_mentions TEXT, r_detail TEXT, r_reply_count BIGINT, r_repliers TEXT)
        LANGUAGE plpgsql AS $body$
        DECLARE
            v_up BIGINT;
            v_deleted BIGINT;
        BEGIN
            PERFORM 1 FROM memberships m WHERE m.app_id = p_app AND m.room_id = p_room AND m.user_id = p_sender;
            IF NOT FOUND THEN
                PERFORM 1 FROM rooms r WHERE r.app_id = p_app AND r.id = p_room;
                outcome := CASE WHEN FOUND THEN 2 ELSE 1 END;
                RETURN NEXT;
                RETURN;
            END IF;
            IF p_client_id IS NOT NULL THEN
                SELECT o.id INTO r_id FROM messages o
                    WHERE o.app_id = p_app AND o.room_id = p_room AND o.sender_id = p_sender AND o.client_id = p_client_id;
                IF FOUND THEN
                    outcome := 3;
                    RETURN NEXT;
                    RETURN;
                END IF;
            END IF;
            IF p_parent IS NOT NULL THEN
                SELECT p.parent_id, p.deleted_at INTO v_up, v_deleted FROM messages p
                    WHERE p.app_id = p_app AND p.room_id = p_room AND p.id = p_parent;
                IF NOT FOUND THEN
                    outcome := 5;
                    RETURN NEXT;
                    RETURN;
                END IF;
                r_parent := COALESCE(v_up, p_parent);
                IF v_deleted IS NULL AND v_up IS NOT NULL THEN
                    SELECT t.deleted_at INTO v_deleted FROM messages t WHERE t.app_id = p_app AND t.id = v_up;
                END IF;
                IF v_deleted IS NOT NULL THEN
                    outcome := 6;
                    RETURN NEXT;
                    RETURN;
                END IF;
            END IF;
            IF p_quoted IS NOT NULL THEN
                SELECT q.sender_id, q.parts, q.deleted_at INTO r_quoted_sender, r_quoted_parts, v_deleted FROM messages q
                    WHERE q.app_id = p_app AND q.room_id = p_room AND q.id = p_quoted;
                IF NOT FOUND OR v_deleted IS NOT NULL THEN
                    outcome := CASE WHEN FOUND THEN 8 ELSE 7 END;
                    RETURN NEXT;
                    RETURN;
                END IF;
            END IF;
            IF p_has_attachments THEN
                SELECT part->>'id' INTO r_detail FROM jsonb_array_elements(p_parts::jsonb) AS part
                WHERE part->>'type' = 'attachment' AND NOT EXISTS (
                    SELECT 1 FROM attachments a WHERE a.app_id = p_app AND a.id = part->>'id' AND a.room_id = p_room)
                LIMIT 1;
                IF r_detail IS NOT NULL THEN
                    outcome := 4;
                    RETURN NEXT;
                    RETURN;
                END IF;
            END IF;
            SELECT string_agg(c.u, ' ' ORDER BY c.ord) INTO r_mentions
                FROM unnest(p_candidates) WITH ORDINALITY AS c(u, ord)
                WHERE c.u <> p_sender AND EXISTS (
                    SELECT 1 FROM memberships mm WHERE mm.app_id = p_app AND mm.room_id = p_room AND mm.user_id = c.u);
            UPDATE rooms r SET last_seq = r.last_seq + 1, last_activity_at = p_now
                WHERE r.app_id = p_app AND r.id = p_room RETURNING r.last_seq INTO r_seq;
            INSERT INTO messages AS o (app_id, room_id, seq, sender_id, client_id, parts, created_at,
                    parent_id, thread_only, quoted_id, quoted_sender, quoted_parts, mentions)
                VALUES (p_app, p_room, r_seq, p_sender, p_client_id, p_parts, p_now,
                    r_parent, p_thread_only, p_quoted, r_quoted_sender, r_quoted_parts, r_mentions)
                RETURNING o.id INTO r_id;
            UPDATE memberships m SET read_seq = r_seq, read_at = p_now
                WHERE m.app_id = p_app AND m.room_id = p_room AND m.user_id = p_sender AND m.read_seq < r_seq;
            IF r_parent IS NOT NULL THEN
                UPDATE messages p SET reply_count = p.reply_count + 1,
                    last_repliers = (
                        SELECT string_agg(s.u, ' ' ORDER BY s.ord) FROM (
                            SELECT l.u, l.ord FROM (
                                SELECT p_sender AS u, 0::BIGINT AS ord
                                UNION ALL
                                SELECT e.u, e.ord FROM unnest(string_to_array(p.last_repliers, ' ')) WITH ORDINALITY AS e(u, ord)
                                WHERE e.u <> p_sender
                            ) l ORDER BY l.ord LIMIT 3
                        ) s)
                    WHERE p.app_id = p_app AND p.id = r_parent
                    RETURNING p.reply_count, p.last_repliers INTO r_reply_count, r_repliers;
            END IF;
            IF r_mentions IS NOT NULL THEN
                INSERT INTO mentions (app_id, user_id, room_id, seq)
                    SELECT p_app, u, p_room, r_seq FROM unnest(string_to_array(r_mentions, ' ')) AS u;
            END IF;
            outcome := 0;
            RETURN NEXT;
        END
        $body$;
        """
}
