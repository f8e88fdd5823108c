// Fuzz target: Base64.decode must never crash, and whatever it accepts must round-trip.
@testable import ParleyWire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBase64Decode(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let bytes = Base64.decode(text) {
        precondition(Base64.decode(Base64.encode(bytes)) == bytes, "base64 round trip failed")
    }
    return 0
}
