/// Migration 10: attachments of any type carry the name they were uploaded under.
///
/// The name is display metadata only (files are stored under generated ids); rows from before
/// this migration have none and are offered for download under their id.
extension Schema {
    static let filesSQLite = """
        ALTER TABLE attachments ADD COLUMN name TEXT;
        """

    static let filesPostgres = filesSQLite
}
