/// A message a PostgreSQL search found, with what BM25 needs of it: the message itself is read
/// only if it makes the page.
struct PostgresSearchCandidate: Sendable, Equatable {
    var id: Int64
    /// Its length in words.
    var length: Int
    /// How often it holds each query lexeme, in the query's order.
    var frequencies: [Int]
}
