/// A message a PostgreSQL search found, with what BM25 needs of it.
struct PostgresSearchCandidate: Sendable {
    var message: Message
    /// Its length in words.
    var length: Int
    /// How often it holds each query lexeme, in the query's order.
    var frequencies: [Int]
}
