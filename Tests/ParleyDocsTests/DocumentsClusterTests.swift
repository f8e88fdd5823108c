import ParleyDocs
import ParleyStore
import ParleyText
import Synchronization
import Testing

/// Two services on one database stand for two nodes; a loopback relay is their bus.
@Suite("Documents across nodes: relayed updates, loading while others publish")
struct DocumentsClusterTests {
    @Test func anUpdateAcceptedOnOneNodeReachesTheOthersReplicaAndPeersAndIsStoredOnce() async throws {
        try await withFixture { fixture in
            let (publisherA, publisherB) = (RecordingPublisher(), RecordingPublisher())
            let nodeA = fixture.service(publisher: publisherA)
            let nodeB = fixture.service(publisher: publisherB)
            LoopbackRelay.connect(nodeA, nodeB)
            let doc = try await nodeA.createDocument(name: "shared", access: .room(fixture.roomID), by: "alice")
            var alice = TestClient("alice", connection: "a1", clientID: 11)
            var bob = TestClient("bob", connection: "b1", clientID: 22)
            try await alice.connect(to: nodeA, document: doc.id)
            try await bob.connect(to: nodeB, document: doc.id)

            try alice.doc.insert("from node A", at: 0)
            try await alice.push(to: nodeA, document: doc.id)
            try await eventually { try await nodeB.text(documentID: doc.id) == "from node A" }
            try bob.receive(publisherB.take())
            #expect(bob.doc.text == "from node A")
            let content = try await fixture.documentStore.content(app: DocsFixture.app, id: doc.id)
            #expect(content.updates.count == 1, "stored by the accepting node only")
        }
    }

    @Test func aNodeLoadingADocumentKeepsWhatAnotherPublishesMeanwhile() async throws {
        try await withFixture { fixture in
            let gated = GatedDocumentStore(fixture.documentStore)
            let nodeA = fixture.service(publisher: RecordingPublisher())
            let nodeB = DocumentsService(
                app: DocsFixture.app, store: gated, membership: ChatMembership(chat: fixture.chat), publisher: RecordingPublisher())
            LoopbackRelay.connect(nodeA, nodeB)
            let doc = try await nodeA.createDocument(name: "late", access: .room(fixture.roomID), by: "alice")
            var alice = TestClient("alice", connection: "a1", clientID: 11)
            try await alice.connect(to: nodeA, document: doc.id)
            try alice.doc.insert("stored. ", at: 0)
            try await alice.push(to: nodeA, document: doc.id)

            // Node B reads the store, then is held before taking the document into use…
            let loading = Task { try await nodeB.text(documentID: doc.id) }
            await gated.waitUntilRead()
            // …while node A accepts and publishes an update the read did not see.
            try alice.doc.insert("published while B loaded.", at: alice.doc.count)
            try await alice.push(to: nodeA, document: doc.id)
            gated.release()

            #expect(try await loading.value == "stored. published while B loaded.")
        }
    }
}

/// Delivers each service's notices to the others at once, as the bus does (never to itself).
final class LoopbackRelay: DocumentRelay {
    private let others: [DocumentsService]

    init(others: [DocumentsService]) { self.others = others }

    func relay(_ notice: DocumentClusterNotice) {
        for service in others { service.receiveFromCluster(notice) }
    }

    static func connect(_ a: DocumentsService, _ b: DocumentsService) {
        a.joinCluster(LoopbackRelay(others: [b]))
        b.joinCluster(LoopbackRelay(others: [a]))
    }
}

/// Polls `condition` until it holds (the other node applies notices on its own task).
func eventually(_ condition: () async throws -> Bool) async throws {
    for _ in 0..<500 {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("condition never held")
}

/// A document store whose first `content` read is held back after reading until `release()`.
final class GatedDocumentStore: DocumentStore {
    private let base: any DocumentStore
    private let read = AsyncStream<Void>.makeStream()
    private let gate = AsyncStream<Void>.makeStream()
    private let first = Atomic<Bool>(true)

    init(_ base: any DocumentStore) { self.base = base }

    func waitUntilRead() async {
        var iterator = read.stream.makeAsyncIterator()
        _ = await iterator.next()
    }

    func release() { gate.continuation.finish() }

    func content(app: String, id: String) async throws -> DocumentContent {
        let content = try await base.content(app: app, id: id)
        if first.exchange(false, ordering: .relaxed) {
            read.continuation.yield()
            for await _ in gate.stream {}
        }
        return content
    }

    func createDocument(app: String, _ document: NewDocument) async throws -> DocumentInfo {
        try await base.createDocument(app: app, document)
    }

    func document(app: String, id: String) async throws -> DocumentInfo { try await base.document(app: app, id: id) }

    func document(app: String, named name: String, ownerRoom: String?) async throws -> DocumentInfo? {
        try await base.document(app: app, named: name, ownerRoom: ownerRoom)
    }

    func documents(app: String, ownerRoom: String, after: String?, limit: Int) async throws -> [DocumentInfo] {
        try await base.documents(app: app, ownerRoom: ownerRoom, after: after, limit: limit)
    }

    func documents(app: String, accessibleTo user: String, after: String?, limit: Int) async throws -> [DocumentInfo] {
        try await base.documents(app: app, accessibleTo: user, after: after, limit: limit)
    }

    func setAccessList(app: String, id: String, users: [String]) async throws -> DocumentInfo {
        try await base.setAccessList(app: app, id: id, users: users)
    }

    func deleteDocument(app: String, id: String) async throws -> DocumentInfo { try await base.deleteDocument(app: app, id: id) }

    func appendUpdates(app: String, id: String, _ updates: [[UInt8]], snapshot: [UInt8]?) async throws -> DocumentAppendResult {
        try await base.appendUpdates(app: app, id: id, updates, snapshot: snapshot)
    }

    func compact(app: String, id: String, snapshot: [UInt8], throughSeq: Int64) async throws -> DocumentAppendResult {
        try await base.compact(app: app, id: id, snapshot: snapshot, throughSeq: throughSeq)
    }
}
