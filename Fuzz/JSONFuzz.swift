// Fuzz target: JSONParser must never crash, and whatever it accepts must survive a
// write/parse round trip unchanged; PusherMessage parsing rides along on the same input.
@testable import ParleyWire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let value = try? JSONParser.parse(bytes) {
        let written = JSONWriter.serialize(value)
        precondition((try? JSONParser.parse(written)) == value, "JSON round trip failed")
    }
    _ = try? PusherMessage.parse(bytes)
    return 0
}
