// fuzz-sources: Sources/ParleyImaging
// Fuzz target: the PNG and JPEG decoders over libpng and libjpeg-turbo must turn any bytes into
// a thumbnail or an ImageError, never a crash or an oversized allocation. The first byte picks
// the format's signature to put in front, so both decoders see most inputs; a small pixel limit
// keeps each run fast, and whatever comes out must be the size the thumbnailer promises.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageDecode(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let body = bytes.dropFirst()
    let input: [UInt8]
    switch first % 3 {
    case 0: input = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + body
    case 1: input = [0xFF, 0xD8, 0xFF] + body
    default: input = Array(body)
    }
    let thumbnailer = Thumbnailer(longestSide: 64, maxPixels: 1_000_000)
    guard let thumbnail = try? thumbnailer.thumbnail(of: input) else { return 0 }
    precondition(thumbnail.width >= 1 && thumbnail.height >= 1, "an empty thumbnail")
    precondition(max(thumbnail.width, thumbnail.height) <= 64, "a thumbnail over its longest side")
    precondition(Thumbnailer.Format.sniff(thumbnail.bytes) == .jpeg, "a thumbnail that is not a JPEG")
    return 0
}
