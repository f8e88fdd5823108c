import Testing

@testable import ParleyWire

@Suite struct JSONTests {
    @Test func writingManyStringsGrowsTheOutputGeometrically() {
        var out: [UInt8] = []
        var reallocations = 0
        var capacity = out.capacity
        for index in 0..<1_000 {
            JSONWriter.writeString("member-\(index)", into: &out)
            if out.capacity != capacity { reallocations += 1; capacity = out.capacity }
        }
        // Exact reservations would reallocate for nearly every string.
        #expect(reallocations < 20, "\(reallocations) reallocations")
        #expect(out.starts(with: Array("\"member-0\"\"member-1\"".utf8)))
    }

    @Test func objectEqualityForCopiesAndForSeparatelyBuiltObjects() {
        let object: JSONValue = .object(["a": .int(1), "b": .object(["c": .string("é")])])
        let copy = object
        let rebuilt: JSONValue = .object(["a": .int(1), "b": .object(["c": .string("é")])])
        #expect(copy == object && rebuilt == object)
        var changed = object.objectValue!
        changed["a"] = .int(2)
        #expect(JSONValue.object(changed) != object)
        #expect(JSONValue.object(["b": .object(["c": .string("é")]), "a": .int(1)]) != object)  // members are ordered
        #expect(JSONValue.object([:]) == .object([:]) && JSONValue.object([:]) != object)
    }

    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONParser.parse(#" {"a":[1,-2.5e3,true,false,null],"b":"x\"y\\z\/\n\u00e9\ud83d\ude00","c":{}} "#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["a", "b", "c"])
        #expect(object["a"] == .array([.number("1"), .number("-2.5e3"), .bool(true), .bool(false), .null]))
        #expect(object["b"] == .string("x\"y\\z/\né😀"))
        #expect(object["c"] == .object([:]))
    }

    @Test func keepsNumberTextAndReadsIntegers() throws {
        let value = try JSONParser.parse(#"{"user_id":10,"big":12345678901234567890,"f":1.0}"#)
        #expect(value["user_id"]?.intValue == 10)
        #expect(value["big"] == .number("12345678901234567890"))
        #expect(value["f"]?.intValue == 1)
        #expect(JSONWriter.string(value) == #"{"user_id":10,"big":12345678901234567890,"f":1.0}"#)
    }

    @Test func lastDuplicateKeyWins() throws {
        #expect(try JSONParser.parse(#"{"a":1,"a":2}"#)["a"] == .number("2"))
    }

    @Test(arguments: [
        ("", JSONError.Code.unexpectedEnd), ("{", .unexpectedEnd), ("[1,]", .unexpectedByte),
        ("{\"a\" 1}", .unexpectedByte), ("01", .trailingBytes), ("1.", .invalidNumber), ("-", .invalidNumber),
        ("1e", .invalidNumber), ("\"\\x\"", .invalidEscape), ("\"\\ud800\"", .invalidEscape),
        ("\"\\udc00\"", .invalidEscape), ("\"a\nb\"", .controlCharacter), ("tru", .unexpectedEnd),
        ("nul1", .unexpectedByte), ("{} {}", .trailingBytes), ("'a'", .unexpectedByte), ("\"abc", .unexpectedEnd),
        ("{\"a\":1,}", .unexpectedByte), ("\"\\u12zz\"", .invalidEscape)
    ])
    func rejectsMalformed(text: String, code: JSONError.Code) {
        #expect(throws: JSONError.self) { try JSONParser.parse(text) }
        do { _ = try JSONParser.parse(text) } catch { #expect(error.code == code, "\(text)") }
    }

    @Test func rejectsInvalidUTF8InStrings() {
        for bytes: [UInt8] in [[0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0x5C, 0x6E, 0xED, 0xA0, 0x80, 0x22]] {
            do {
                _ = try JSONParser.parse(bytes)
                Issue.record("accepted invalid UTF-8 \(bytes)")
            } catch {
                #expect(error.code == .invalidUTF8)
            }
        }
    }

    @Test func boundsNesting() throws {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: JSONError(.tooDeep, at: 64)) { try JSONParser.parse(deep) }
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        _ = try JSONParser.parse(ok)
        // A very deep input fails fast instead of exhausting the stack.
        let hostile = String(repeating: "{\"a\":", count: 100_000)
        #expect(throws: JSONError.self) { try JSONParser.parse(hostile) }
    }

    @Test func writerEscapesAndRoundTrips() throws {
        let value: JSONValue = .object(["s": .string("q\"b\\c\u{01}\t\n é"), "a": .array([.int(-3), .null, .bool(true)])])
        let text = JSONWriter.string(value)
        #expect(text == "{\"s\":\"q\\\"b\\\\c\\u0001\\t\\n é\",\"a\":[-3,null,true]}")
        #expect(try JSONParser.parse(text) == value)
    }

    @Test func objectSubscriptSetAndRemove() {
        var o: JSONObject = ["a": .int(1)]
        o["b"] = .int(2)
        o["a"] = .int(3)
        #expect(o.keys == ["a", "b"])
        #expect(o["a"] == .int(3))
        o["a"] = nil
        #expect(o.keys == ["b"])
    }
}
