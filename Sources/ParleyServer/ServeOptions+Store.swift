import ParleyStore

extension ServeOptions {
    /// Flags of the chat store beyond `--database`.
    static let storeFlags: [Flag] = [
        Flag(
            name: "--pg-writers", environment: "PARLEY_PG_WRITERS", placeholder: "N",
            help:
                "Writer connections to a postgres:// --database, rooms partitioned over them (default \(StoreConfiguration.defaultPostgresWriterCount); SQLite always has one writer)"
        ) {
            o, v throws(ServeOptionsError) in o.postgresWriters = try integer(v, flag: "--pg-writers", in: 1...64)
        }
    ]
}
