/// Migration 14: the bytes of an attachment's thumbnail, counted with the file's own `size`
/// towards the app's attachment quota.
///
/// Rows from before this migration count 0 for their thumbnail (its file may exist; its size
/// was never recorded).
extension Schema {
    static let thumbnailsSQLite = """
        ALTER TABLE attachments ADD COLUMN thumbnail_size BIGINT NOT NULL DEFAULT 0;
        """

    static let thumbnailsPostgres = thumbnailsSQLite
}
