/// SQLite: merging the search index's segments in small steps (no schema change; see
/// ``SearchIndexMerger`` for when the writer runs them).
///
/// Every flush of the search queue writes a new FTS5 segment, and FTS5 merges a level only once
/// 8 segments are there (migration 13's `automerge`), so batched writes leave the index in
/// 10–20 segments; a search looks each room's word up in every one of them. FTS5's `'merge'`
/// command writes about as many leaf pages of merged index as it is given and stops; the next
/// call carries on with a merge under way before anything else. With a negative count it first
/// puts every segment on one level, so the merge it starts takes them all whatever their levels;
/// with a positive one it only carries on (or merges a level holding `usermerge`, 4, segments).
/// A call that found nothing to merge changes fewer than 2 rows (`total_changes()`).
extension Schema {
    /// The index's levels and segments, read from its structure record (no record: empty).
    static func searchIndexStructure(_ context: SQLContext) throws(StoreError) -> SearchIndexStructure {
        let record: [UInt8]?
        do {
            record = try context.queryFirst(
                "SELECT block FROM message_search_data WHERE id = $1", [.int(SearchIndexStructure.recordID)]
            ) { $0.blob(0) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.internal, "reading the search index's structure: \(error)")
        }
        guard let record else { return SearchIndexStructure(levels: 0, segments: 0) }
        guard let structure = SearchIndexStructure(record: record) else {
            throw StoreError(.internal, "the search index's structure record is malformed (\(record.count) bytes)")
        }
        return structure
    }

    /// One bounded merge step: about `pages` leaf pages of merged index written, of a merge of
    /// every segment (`acrossLevels`, which starts one when none is under way) or of the merge
    /// under way. Returns whether it found anything to merge.
    static func mergeSearchIndex(_ context: SQLContext, pages: Int, acrossLevels: Bool) throws(StoreError) -> Bool {
        let before = try totalChanges(context)
        let budget = max(1, pages)
        _ = try context.execute(
            "INSERT INTO message_search (message_search, rank) VALUES ('merge', $1)", [.int(acrossLevels ? -budget : budget)])
        return try totalChanges(context) - before >= 2
    }

    /// Rows changed by the connection since it opened.
    private static func totalChanges(_ context: SQLContext) throws(StoreError) -> Int {
        do {
            return try context.queryFirst("SELECT total_changes()", []) { $0.int(0) } ?? 0
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.internal, "reading total_changes(): \(error)")
        }
    }
}
