import Observation
import ParleyKit

/// Message search as observable state for SwiftUI: a ``SearchModel`` whose snapshots land in
/// properties on the main actor, so a view reads `state.results` and redraws when they change.
///
/// Each async call returns once the properties show its outcome.
@MainActor @Observable
public final class SearchState {
    /// The query the results are for ("" before the first search).
    public private(set) var query = ""
    /// The results loaded so far, best first, with their matched ranges.
    public private(set) var results: [SearchResultRow] = []
    /// Whether a page is being read.
    public private(set) var isLoading = false
    /// Whether ``loadMore()`` has another page to read.
    public private(set) var hasMore = false
    /// Why the last search failed, nil when it did not.
    public private(set) var error: String?

    @ObservationIgnored private let model: SearchModel

    /// Search of all the rooms of `client`'s user, or only `roomID`.
    public convenience init(client: ParleyClient, roomID: String? = nil, pageSize: Int = 20) {
        self.init(model: SearchModel(client: client, roomID: roomID, pageSize: pageSize))
    }

    /// State over `model`.
    public init(model: SearchModel) {
        self.model = model
    }

    /// Searches for `text` from the first page (blank: clears).
    public func search(_ text: String) async {
        query = text
        isLoading = true
        await model.search(text)
        apply(await model.snapshot())
    }

    /// Reads the next page and appends it.
    public func loadMore() async {
        await model.loadMore()
        apply(await model.snapshot())
    }

    /// Forgets the query and its results.
    public func clear() async {
        await model.clear()
        apply(await model.snapshot())
    }

    /// Copies a snapshot in, touching only what changed so observers of other properties are
    /// not invalidated. The model's snapshot is always of its latest query, so a call that
    /// returns after a newer one applies the newer one's state, never its own stale answer.
    private func apply(_ snapshot: SearchSnapshot) {
        if query != snapshot.query { query = snapshot.query }
        if results != snapshot.results { results = snapshot.results }
        if isLoading != snapshot.isLoading { isLoading = snapshot.isLoading }
        if hasMore != snapshot.hasMore { hasMore = snapshot.hasMore }
        if error != snapshot.error { error = snapshot.error }
    }
}
