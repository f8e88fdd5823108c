/// Migration 13, PostgreSQL: message search (see SQLChatStore+SearchPostgres.swift).
///
/// `messages.search` is a `tsvector` kept by a trigger whenever `parts` or `deleted_at` change:
/// the words of the text parts and file names as ``SearchTokenizer`` cuts them, at their
/// positions, plus one lexeme naming the message's room (`#` and a hash of app and room), so the
/// GIN index can intersect a query's words with the caller's rooms. Deleted messages and messages
/// without words have none, so they are never found. `messages_room_newest` lets a search read
/// each room's newest messages first (the walk for common words).
///
/// The words are made in SQL by `parley_search_words`, the tokenizer's rules over the same Swift
/// tables: lowercase by ICU (`und-x-icu`, every script whatever the database's locale; capital
/// sigma first becomes `σ`, as Swift lowercases each character on its own and ICU would make a
/// final `ς`), Latin diacritics folded with ``SearchTokenizer/latinFolds``, the ignored marks
/// removed, then runs of word characters, and each Han/kana/Hangul character and each emoji
/// (`u` and its hex code point) a word of its own. The vector is built from its text form
/// (`'word':position`), not by `to_tsvector`, whose parser would cut some of these words again
/// (by the database locale's idea of a letter); queries go through the same function, so a
/// query word and the same word in a message always become the same lexemes. SQL and Swift agree
/// on every character up to the Unicode version of the server's ICU (15.0 for Debian 12's ICU 72;
/// SearchConformanceTests checks them all); letters assigned later are lowercased by Swift only.
extension Schema {
    static let searchPostgres = """
        ALTER TABLE messages ADD COLUMN search TSVECTOR;
        DO $do$
        BEGIN
            -- ICU lowercases every script whatever the database's locale; C.utf8 (glibc) does as
            -- well; a server with neither falls back on the database's own lower().
            IF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu') THEN
                CREATE FUNCTION parley_search_lower(p_text TEXT) RETURNS TEXT
                LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
                AS $f$ SELECT lower(translate(p_text, 'Σ', 'σ') COLLATE "und-x-icu") $f$;
            ELSIF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'C.utf8') THEN
                CREATE FUNCTION parley_search_lower(p_text TEXT) RETURNS TEXT
                LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
                AS $f$ SELECT lower(p_text COLLATE "C.utf8") $f$;
            ELSE
                CREATE FUNCTION parley_search_lower(p_text TEXT) RETURNS TEXT
                LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
                AS $f$ SELECT lower(p_text) $f$;
            END IF;
        END
        $do$;
        CREATE FUNCTION parley_search_cut(p_word TEXT) RETURNS TEXT
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
        AS $f$
        DECLARE
            v_out TEXT := '';
            v_bytes INT := 0;
            v_char TEXT;
        BEGIN
            -- As the tokenizer does: each character that still fits is kept, one that does not is skipped.
            FOREACH v_char IN ARRAY regexp_split_to_array(p_word, '') LOOP
                IF v_bytes + octet_length(v_char) <= \(SearchTokenizer.maximumWordBytes) THEN
                    v_out := v_out || v_char;
                    v_bytes := v_bytes + octet_length(v_char);
                END IF;
            END LOOP;
            RETURN v_out;
        END
        $f$;
        CREATE FUNCTION parley_search_words(p_text TEXT) RETURNS TEXT[]
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
        AS $f$
        BEGIN
            IF octet_length(p_text) = char_length(p_text) THEN
                -- All ASCII (most messages), as the tokenizer's own fast path: the full classes
                -- cost the regular expression engine several times more.
                RETURN (
                    SELECT coalesce(array_agg(left(t.m[1], \(SearchTokenizer.maximumWordBytes)) ORDER BY t.n), '{}')
                    FROM regexp_matches(lower(p_text COLLATE "C"), '[0-9a-z]+', 'g') WITH ORDINALITY AS t(m, n));
            END IF;
            RETURN (
                SELECT coalesce(array_agg(CASE
                        WHEN t.m[1] ~ '^[\(emojiClass)]$' THEN 'u' || to_hex(ascii(t.m[1]))
                        WHEN octet_length(t.m[1]) > \(SearchTokenizer.maximumWordBytes) THEN parley_search_cut(t.m[1])
                        ELSE t.m[1] END ORDER BY t.n), '{}')
                FROM regexp_matches(
                    regexp_replace(
                        translate(parley_search_lower(p_text), '\(SearchTokenizer.latinFolds.from)', '\(SearchTokenizer.latinFolds.to)'),
                        '[\(ignoredClass)]', '', 'g'),
                    '[\(ideographicClass)]|[\(emojiClass)]|[\(wordClass)]+', 'g') WITH ORDINALITY AS t(m, n));
        END
        $f$;
        CREATE FUNCTION parley_search_text(p_parts TEXT) RETURNS TEXT
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
        AS $f$
        BEGIN
            RETURN (
                SELECT string_agg(CASE p->>'type' WHEN 'text' THEN p->>'text' WHEN 'file' THEN p->>'name' END, ' ')
                FROM json_array_elements(CASE
                    -- A NUL (\\u0000) has no text form: first every escaped backslash becomes \\u005c,
                    -- so what is left of \\u0000 is an escape of its own, then those become spaces.
                    WHEN strpos(p_parts, '\\u0000') > 0 THEN replace(replace(p_parts, '\\\\', '\\u005c'), '\\u0000', ' ')
                    ELSE p_parts END::json) AS p);
        END
        $f$;
        CREATE FUNCTION parley_search_room(p_app TEXT, p_room TEXT) RETURNS TEXT
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $f$ SELECT '#' || left(md5(length(p_app) || ':' || p_app || p_room), 16) $f$;
        CREATE FUNCTION parley_search_vector(p_app TEXT, p_room TEXT, p_parts TEXT) RETURNS TSVECTOR
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
        AS $f$
        BEGIN
            -- Words hold only letters, digits, marks and hex digits: nothing to quote in the text form.
            RETURN (
                SELECT (string_agg('''' || w.word || ''':' || w.n, ' ') || ' ''' || parley_search_room(p_app, p_room) || '''')::tsvector
                FROM unnest(parley_search_words(parley_search_text(p_parts))) WITH ORDINALITY AS w(word, n));
        END
        $f$;
        CREATE FUNCTION parley_messages_search() RETURNS TRIGGER
        LANGUAGE plpgsql
        AS $f$
        BEGIN
            NEW.search := CASE WHEN NEW.deleted_at IS NULL THEN parley_search_vector(NEW.app_id, NEW.room_id, NEW.parts) END;
            RETURN NEW;
        END
        $f$;
        CREATE TRIGGER messages_search BEFORE INSERT OR UPDATE OF parts, deleted_at ON messages
            FOR EACH ROW EXECUTE FUNCTION parley_messages_search();
        UPDATE messages SET search = parley_search_vector(app_id, room_id, parts) WHERE deleted_at IS NULL;
        CREATE INDEX messages_search ON messages USING gin (search);
        CREATE INDEX messages_room_newest ON messages (app_id, room_id, id);
        """

    // MARK: The tokenizer's character classes as PostgreSQL regular expression brackets

    /// The characters that join a word (``SearchTokenizer/Kind/wordCharacter``), found by asking
    /// the tokenizer about every code point of the planes that have letters (0–3, and 14's
    /// variation selectors), so SQL cuts words where Swift does.
    private static var wordClass: String {
        var ranges: [ClosedRange<UInt32>] = []
        for plane: ClosedRange<UInt32> in [0...0x3FFFF, 0xE0000...0xEFFFF] {
            var start: UInt32?
            for value in plane {
                let isWord = Unicode.Scalar(value).map { SearchTokenizer.kind(of: $0) == .wordCharacter } ?? false
                if isWord, start == nil { start = value }
                if !isWord, let first = start {
                    ranges.append(first...(value - 1))
                    start = nil
                }
            }
            if let first = start { ranges.append(first...plane.upperBound) }
        }
        return bracketBody(ranges)
    }

    private static var ideographicClass: String { bracketBody(SearchTokenizer.ideographicRanges) }
    private static var emojiClass: String { bracketBody(SearchTokenizer.emojiRanges) }
    private static var ignoredClass: String {
        bracketBody([0x0300...0x036F, 0x200C...0x200D, 0xFE00...0xFE0F, 0x1F3FB...0x1F3FF])
    }

    /// Ranges as the inside of a bracket expression, every character as a `\u`/`\U` escape.
    private static func bracketBody(_ ranges: [ClosedRange<UInt32>]) -> String {
        ranges.map { range in
            range.count == 1 ? escape(range.lowerBound) : escape(range.lowerBound) + "-" + escape(range.upperBound)
        }.joined()
    }

    private static func escape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return value <= 0xFFFF
            ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            : "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
    }
}
