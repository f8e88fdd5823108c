import ParleyKit

/// The UI-free state of a search screen: the query, the results with their matches, loading,
/// failure and the next page. Observe ``snapshots()``; ``search(_:)`` starts a query (an
/// answer to an older query that arrives late is dropped), ``loadMore()`` reads the next page.
public actor SearchModel {
    private let client: ParleyClient
    private let roomID: String?
    private let pageSize: Int
    private let hub = Broadcaster<SearchSnapshot>(replayLatest: true)
    private var query = ""
    private var results: [SearchResultRow] = []
    private var nextOffset: Int?
    private var isLoading = false
    private var error: String?
    /// Bumped by each new query and by ``clear()``: answers for an older one are dropped.
    private var generation = 0
    private var names: [String: String] = [:]
    private var roomTitles: [String: String] = [:]
    private var me = ""

    /// A search of all the user's rooms, or only `roomID`; `pageSize` results per page (1–50).
    public init(client: ParleyClient, roomID: String? = nil, pageSize: Int = 20) {
        self.client = client
        self.roomID = roomID
        self.pageSize = min(max(1, pageSize), ParleyClient.searchPageLimit)
    }

    /// The snapshot now and after every change.
    public nonisolated func snapshots() -> AsyncStream<SearchSnapshot> { hub.stream() }

    /// The current snapshot.
    public func snapshot() -> SearchSnapshot {
        SearchSnapshot(query: query, roomID: roomID, results: results, isLoading: isLoading, hasMore: nextOffset != nil, error: error)
    }

    /// Searches for `text` from the first page; returns when its answer (or failure) is in the
    /// snapshot, or a newer query replaced it. A blank `text` clears the results.
    public func search(_ text: String) async {
        guard text.contains(where: { !$0.isWhitespace }) else {
            clear()
            return
        }
        generation += 1
        query = text
        results = []
        nextOffset = nil
        error = nil
        await load(offset: 0, generation: generation)
    }

    /// Reads the next page and appends it (nothing when there is none or one is loading).
    public func loadMore() async {
        guard let offset = nextOffset, !isLoading else { return }
        await load(offset: offset, generation: generation)
    }

    /// Forgets the query and its results.
    public func clear() {
        generation += 1
        query = ""
        results = []
        nextOffset = nil
        isLoading = false
        error = nil
        publish()
    }

    /// Stops the snapshot stream.
    public func stop() { hub.finish() }

    private func load(offset: Int, generation: Int) async {
        isLoading = true
        publish()
        let page: SearchResultPage
        do {
            page = try await client.search(query, in: roomID, limit: pageSize, offset: offset)
        } catch {
            guard generation == self.generation else { return }
            self.error = Self.describe(error)
            isLoading = false
            publish()
            return
        }
        await resolveNames(page)
        guard generation == self.generation else { return }
        // A message already shown (results shifted between pages) is not shown twice.
        let shown = Set(results.map(\.id))
        results += page.results.filter { !shown.contains($0.id) }.map { result in
            SearchResultRow(result, roomTitle: roomTitles[result.message.roomID] ?? result.message.roomID, names: names)
        }
        nextOffset = page.nextOffset
        isLoading = false
        publish()
    }

    /// Fills in the display names of new senders and the titles of new rooms.
    private func resolveNames(_ page: SearchResultPage) async {
        if me.isEmpty { me = (try? await client.userID()) ?? "" }
        for id in Set(page.results.map(\.message.senderID)).subtracting(names.keys) {
            // Someone whose profile cannot be read now shows by id.
            names[id] = (try? await client.user(id).name) ?? id
        }
        for id in Set(page.results.map(\.message.roomID)).subtracting(roomTitles.keys) {
            roomTitles[id] = await title(ofRoom: id)
        }
    }

    private func title(ofRoom id: String) async -> String {
        guard let room = try? await client.room(id) else { return id }
        if let name = room.name, !name.isEmpty { return name }
        guard let partner = room.directPartner(of: me) else { return id }
        if names[partner] == nil { names[partner] = (try? await client.user(partner).name) ?? partner }
        return names[partner] ?? partner
    }

    private static func describe(_ error: ParleyError) -> String {
        if error.code == .server, error.status == 400 { return "Cannot search for that: \(error.message)" }
        return "Search failed: \(error.message)"
    }

    private func publish() { hub.send(snapshot()) }
}
