// fuzz-sources: Sources/ParleyImaging
// fuzz-max-seconds: 20
// Fuzz target: the WebP decoders over libwebp (still images, and an animation's first frame)
// must turn any bytes into a thumbnail or an ImageError, never a crash, a hang or an oversized
// allocation. Odd first bytes put a RIFF/WEBP header (with the right length) in front, so most
// inputs reach the chunk parsers; a small pixel limit keeps each run fast.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebPDecode(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let body = Array(bytes.dropFirst())
    let input: [UInt8]
    if first % 2 == 1 {
        let length = UInt32(body.count + 4)
        input = Array("RIFF".utf8) + (0..<4).map { UInt8(truncatingIfNeeded: length >> ($0 * 8)) } + Array("WEBP".utf8) + body
    } else {
        input = body
    }
    let thumbnailer = Thumbnailer(longestSide: 64, maxPixels: 1_000_000)
    guard let thumbnail = try? thumbnailer.thumbnail(of: input) else { return 0 }
    precondition(Thumbnailer.Format.sniff(input) == .webp, "a thumbnail of bytes that are not a WebP")
    precondition(thumbnail.width >= 1 && thumbnail.height >= 1, "an empty thumbnail")
    precondition(max(thumbnail.width, thumbnail.height) <= 64, "a thumbnail over its longest side")
    precondition(Thumbnailer.Format.sniff(thumbnail.bytes) == .jpeg, "a thumbnail that is not a JPEG")
    return 0
}
