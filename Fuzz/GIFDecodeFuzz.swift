// fuzz-sources: Sources/ParleyImaging
// fuzz-max-seconds: 20
// Fuzz target: the GIF decoder over giflib must turn any bytes into a thumbnail or an
// ImageError, never a crash, a hang or an oversized allocation. Odd first bytes put a GIF89a
// signature in front so most inputs reach the screen descriptor and the LZW data; a small pixel
// limit keeps each run fast, and whatever comes out must be the size the thumbnailer promises.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIFDecode(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let body = bytes.dropFirst()
    let input = first % 2 == 1 ? Array("GIF89a".utf8) + body : Array(body)
    let thumbnailer = Thumbnailer(longestSide: 64, maxPixels: 1_000_000)
    guard let thumbnail = try? thumbnailer.thumbnail(of: input) else { return 0 }
    precondition(Thumbnailer.Format.sniff(input) == .gif, "a thumbnail of bytes that are not a GIF")
    precondition(thumbnail.width >= 1 && thumbnail.height >= 1, "an empty thumbnail")
    precondition(max(thumbnail.width, thumbnail.height) <= 64, "a thumbnail over its longest side")
    precondition(Thumbnailer.Format.sniff(thumbnail.bytes) == .jpeg, "a thumbnail that is not a JPEG")
    return 0
}
