/// The content of documents: the update log, snapshots and compaction.
extension SQLDocumentStore {
    public func appendUpdates(app: String, id: String, _ updates: [[UInt8]], snapshot: [UInt8]?) async throws -> DocumentAppendResult {
        try await database.write { context in
            var state = try Self.logState(context, app: app, id: id)
            let newSeq = state.lastSeq + Int64(updates.count)
            if let snapshot {
                // The snapshot covers the stored log and these updates: they need not be written.
                try context.execute("DELETE FROM document_updates WHERE app_id = $1 AND document_id = $2", [.text(app), .text(id)])
                try context.execute(
                    """
                    UPDATE documents SET snapshot = $3, snapshot_seq = $4, last_seq = $4, log_count = 0, log_bytes = 0,
                    updated_at = $5 WHERE app_id = $1 AND id = $2
                    """, [.text(app), .text(id), .blob(snapshot), .integer(newSeq), .integer(context.now)])
                return DocumentAppendResult(lastSeq: newSeq, logCount: 0, logBytes: 0, snapshotBytes: snapshot.count)
            }
            var seq = state.lastSeq
            var bytes = 0
            for update in updates {
                seq += 1
                bytes += update.count
                try context.execute(
                    """
                    INSERT INTO document_updates (app_id, document_id, seq, data, created_at) VALUES ($1, $2, $3, $4, $5)
                    """, [.text(app), .text(id), .integer(seq), .blob(update), .integer(context.now)])
            }
            try context.execute(
                """
                UPDATE documents SET last_seq = $3, log_count = log_count + $4, log_bytes = log_bytes + $5, updated_at = $6
                WHERE app_id = $1 AND id = $2
                """, [.text(app), .text(id), .integer(seq), .int(updates.count), .int(bytes), .integer(context.now)])
            state.lastSeq = seq
            state.logCount += updates.count
            state.logBytes += bytes
            return state
        }
    }

    public func compact(app: String, id: String, snapshot: [UInt8], throughSeq: Int64) async throws -> DocumentAppendResult {
        try await database.write { context in
            let state = try Self.logState(context, app: app, id: id)
            let snapshotSeq =
                try context.queryFirst(
                    "SELECT snapshot_seq FROM documents WHERE app_id = $1 AND id = $2",
                    [.text(app), .text(id)]
                ) { $0.int64(0) } ?? 0
            guard throughSeq <= state.lastSeq, throughSeq >= snapshotSeq else {
                throw StoreError(
                    .conflict, "cannot compact document \(id) through \(throughSeq): its log holds \(snapshotSeq + 1)...\(state.lastSeq)")
            }
            try context.execute(
                "DELETE FROM document_updates WHERE app_id = $1 AND document_id = $2 AND seq <= $3",
                [.text(app), .text(id), .integer(throughSeq)])
            let (count, bytes) =
                try context.queryFirst(
                    """
                    SELECT COUNT(*), COALESCE(SUM(length(data)), 0) FROM document_updates WHERE app_id = $1 AND document_id = $2
                    """, [.text(app), .text(id)]
                ) { ($0.int(0), $0.int(1)) } ?? (0, 0)
            try context.execute(
                """
                UPDATE documents SET snapshot = $3, snapshot_seq = $4, log_count = $5, log_bytes = $6 WHERE app_id = $1 AND id = $2
                """, [.text(app), .text(id), .blob(snapshot), .integer(throughSeq), .int(count), .int(bytes)])
            return DocumentAppendResult(lastSeq: state.lastSeq, logCount: count, logBytes: bytes, snapshotBytes: snapshot.count)
        }
    }

    public func content(app: String, id: String) async throws -> DocumentContent {
        try await database.read { context in
            // Snapshot and log are read in one transaction so a compaction between the two
            // queries cannot hand out a snapshot without the log entries it replaced.
            try context.inReadTransaction {
                guard
                    let head = try context.queryFirst(
                        """
                        SELECT snapshot, snapshot_seq, last_seq FROM documents WHERE app_id = $1 AND id = $2
                        """, [.text(app), .text(id)],
                        { row in
                            (row.isNull(0) ? nil : row.blob(0), row.int64(1), row.int64(2))
                        })
                else {
                    throw StoreError(.notFound, "document \(id) not found")
                }
                let updates = try context.query(
                    """
                    SELECT data FROM document_updates WHERE app_id = $1 AND document_id = $2 AND seq > $3 ORDER BY seq
                    """, [.text(app), .text(id), .integer(head.1)]
                ) { $0.blob(0) }
                return DocumentContent(snapshot: head.0, snapshotSeq: head.1, updates: updates, lastSeq: head.2)
            }
        }
    }

    /// The log counters of a document; `notFound` if there is none. On PostgreSQL the row
    /// stays locked until the transaction ends: several nodes append to one document's log,
    /// and each must number its updates after the others' (SQLite has one writer anyway).
    static func logState(_ context: SQLContext, app: String, id: String) throws -> DocumentAppendResult {
        let lock = context.dialect == .sqlite ? "" : " FOR UPDATE"
        guard
            let state = try context.queryFirst(
                """
                SELECT last_seq, log_count, log_bytes, COALESCE(length(snapshot), 0) FROM documents WHERE app_id = $1 AND id = $2
                """ + lock, [.text(app), .text(id)],
                { row in
                    DocumentAppendResult(lastSeq: row.int64(0), logCount: row.int(1), logBytes: row.int(2), snapshotBytes: row.int(3))
                })
        else {
            throw StoreError(.notFound, "document \(id) not found")
        }
        return state
    }
}

extension SQLContext {
    /// Runs `body` in a read-only transaction that sees one consistent snapshot of the database.
    func inReadTransaction<T>(_ body: () throws -> T) throws -> T {
        try connection.run(dialect == .sqlite ? "BEGIN" : "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        do {
            let value = try body()
            try connection.run("COMMIT")
            return value
        } catch {
            try? connection.run("ROLLBACK")
            throw error
        }
    }
}
