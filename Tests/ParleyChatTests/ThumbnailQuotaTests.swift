import ParleyChannels
import ParleyImaging
import ParleyWire
import Testing

@testable import ParleyChat

#if canImport(Glibc)
import Glibc
#endif

/// GIF and WebP uploads get thumbnails through the service; a thumbnail's bytes count with its
/// file towards the app's attachment quota, and the thumbnail settings reach the thumbnailer.
@Suite("Thumbnails and the quota")
struct ThumbnailQuotaTests {
    func upload(_ h: ChatHarness, _ image: TestImage, app: AppConfig = ChatHarness.appA) async throws -> Reply {
        let room = await h.createRoom("alice", app: app)
        let bytes = try #require(Base64.decode(image.base64))
        return await h.call(
            .POST, "/v1/rooms/\(room)/attachments", as: .user("alice", app: app), body: bytes,
            headers: [("Content-Type", image.contentType)])
    }

    /// The thumbnail file's size on disk; nil when there is none.
    func thumbnailFileSize(_ h: ChatHarness, app: AppConfig = ChatHarness.appA, id: String) -> Int? {
        var info = stat()
        let path = h.dataDirectory + "/" + AttachmentFiles.thumbnailPath(of: AttachmentFiles.relativePath(app: app.id, id: id))
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    @Test(arguments: ChatEngine.available)
    func gifAndWebPThumbnailsAreCountedInTheQuota(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice")
            var expected = 0
            for image in [TestImages.gif, TestImages.webpLossy, TestImages.webpLossless, TestImages.webpExtended] {
                let stored = try await upload(h, image)
                #expect(stored.status == 201, "\(image.name)")
                let id = try #require(stored["id"]?.stringValue)
                #expect(stored["thumbnail_url"]?.stringValue?.hasSuffix("&thumb=1") == true, "\(image.name)")
                let thumbnail = try #require(thumbnailFileSize(h, id: id), "\(image.name)")
                expected += try #require(Base64.decode(image.base64)).count + thumbnail
                #expect(try await h.store.attachment(app: ChatHarness.appA.id, id: id).thumbnailSize == Int64(thumbnail))
            }
            #expect(try await h.store.attachmentBytes(app: ChatHarness.appA.id) == Int64(expected))
        }
    }

    @Test(arguments: ChatEngine.available)
    func anUploadWhoseThumbnailWouldPassTheQuotaIsRefused(engine: ChatEngine) async throws {
        let image = TestImages.webpExtended
        let bytes = try #require(Base64.decode(image.base64))
        let thumbnail = try Thumbnailer().thumbnail(of: bytes).bytes.count
        // One app fits the file but not its thumbnail; the other fits both exactly.
        var tight = ChatHarness.appA
        tight.limits.attachmentQuotaBytes = bytes.count + thumbnail - 1
        var exact = ChatHarness.appB
        exact.limits.attachmentQuotaBytes = bytes.count + thumbnail
        try await ChatHarness.with(engine, apps: [tight, exact]) { h in
            await h.createUsers("alice", app: tight)
            await h.createUsers("alice", app: exact)
            let refused = try await upload(h, image, app: tight)
            #expect(refused.status == 507 && refused.errorCode == "storage_quota_exceeded", "\(refused.json)")
            #expect(fileCount(h.dataDirectory + "/attachments/\(tight.id)") == 0)
            let accepted = try await upload(h, image, app: exact)
            #expect(accepted.status == 201)
            #expect(try await h.store.attachmentBytes(app: exact.id) == Int64(bytes.count + thumbnail))
            // Deleting the room frees both.
            let room = try #require(accepted["room_id"]?.stringValue)
            #expect(await h.call(.DELETE, "/v1/rooms/\(room)", as: .user("alice", app: exact)).status == 204)
            #expect(try await h.store.attachmentBytes(app: exact.id) == 0)
            #expect(fileCount(h.dataDirectory + "/attachments/\(exact.id)") == 0)
        }
    }

    @Test func turnedOffThereAreNoThumbnailsAndNothingExtraIsCounted() async throws {
        var limits = ChatLimits.unthrottled
        limits.thumbnails = false
        try await ChatHarness.with(limits: limits) { h in
            await h.createUsers("alice")
            for image in [TestImages.gif, TestImages.pngRGB, TestImages.webpLossless] {
                let stored = try await upload(h, image)
                #expect(stored.status == 201 && stored["thumbnail_url"] == nil, "\(image.name)")
                #expect(thumbnailFileSize(h, id: stored["id"]?.stringValue ?? "") == nil)
            }
            let sizes = try [TestImages.gif, TestImages.pngRGB, TestImages.webpLossless].map {
                try #require(Base64.decode($0.base64)).count
            }
            #expect(try await h.store.attachmentBytes(app: ChatHarness.appA.id) == Int64(sizes.reduce(0, +)))
        }
    }

    @Test func theSideQualityAndPixelLimitReachTheThumbnailer() async throws {
        let image = TestImages.webpExtended  // 300×200
        func thumbnail(_ change: (inout ChatLimits) -> Void) async throws -> [UInt8]? {
            var limits = ChatLimits.unthrottled
            change(&limits)
            return try await ChatHarness.with(limits: limits) { h in
                await h.createUsers("alice")
                let stored = try await upload(h, image)
                guard stored["thumbnail_url"] != nil else { return nil }
                let id = stored["id"]?.stringValue ?? ""
                return await h.call(.GET, "/v1/attachments/\(id)/content?thumb=1", as: .user("alice", app: ChatHarness.appA)).body
            }
        }
        let small = try #require(try await thumbnail { $0.thumbnailSide = 60 })
        let decoded = try Thumbnailer().decode(small)
        #expect(decoded.width == 60 && decoded.height == 40)
        let rough = try #require(try await thumbnail { $0.thumbnailQuality = 10 })
        let fine = try #require(try await thumbnail { $0.thumbnailQuality = 95 })
        #expect(rough.count < fine.count)
        #expect(try await thumbnail { $0.thumbnailMaxPixels = 59_999 } == nil)
        #expect(try await thumbnail { $0.thumbnailMaxPixels = 60_000 } != nil)
    }
}
