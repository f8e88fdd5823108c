import CSQLite

/// `parley_search_words(parts)`, the SQL function migration 8's triggers call to index a message.
extension SQLiteConnection {
    /// Registers the function on this connection; deterministic and free of side effects, so
    /// SQLite may use it in triggers and indexes.
    static func registerSearchFunction(_ handle: OpaquePointer) -> Int32 {
        sqlite3_create_function_v2(
            handle, "parley_search_words", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nil,
            { context, count, arguments in
                guard count == 1, let argument = arguments?[0], let text = sqlite3_value_text(argument) else {
                    sqlite3_result_text(context, "", 0, nil)
                    return
                }
                let words = SearchIndexText.words(ofPartsJSON: String(cString: text))
                let length = Int32(words.utf8.count)
                words.withCString { sqlite3_result_text(context, $0, length, searchTransientDestructor) }
            }, nil, nil, nil)
    }
}

/// SQLite copies the result text when given this sentinel destructor.
private let searchTransientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
