// fuzz-sources: Sources/ParleyText
// Fuzz target: the generic Yjs update decoder and integration (YDocument) must never crash.
// The input is cut in two at the position its first byte names; both parts are applied as
// updates in both orders (out-of-order delivery, pending structs). Whatever a document
// accepted must encode to an update that a fresh document accepts with the same state vector,
// and a document never holds more structs than the bytes it was given. (Byte-identical
// re-encoding is not checked: forged structs of one client with equal origins, which no Yjs
// client writes, are ordered by their integration history, in Yjs as here.)
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYUpdate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let cut = min(bytes.count, 1 + Int(first) * bytes.count / 256)
    let parts = [Array(bytes[1..<cut]), Array(bytes[cut...])]
    for order in [parts, parts.reversed()] {
        var document = YDocument()
        var given = 0
        for part in order where (try? document.applyUpdate(part)) != nil { given += part.count }
        precondition(document.structCount <= given, "more structs than input bytes")
        let state = document.encodeStateAsUpdate()
        var copy = YDocument()
        do {
            try copy.applyUpdate(state)
        } catch {
            preconditionFailure("an encoded state was refused: \(error)")
        }
        precondition(copy.stateVector == document.stateVector, "the state vector changed on loading")
    }
    return 0
}
