import Foundation
import ParleyWireCore

// The app's own data on rooms and users as the app's own Codable types, without JSONValue.

/// Converts between custom data and Codable values with Foundation's JSON coders.
enum CustomDataCoding {
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue?) throws(ParleyError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(JSONWriter.serialize(value ?? .null)))
        } catch {
            throw ParleyError(.decoding, "custom data is not a \(T.self): \(error)")
        }
    }

    static func encode(_ value: any Encodable) throws(ParleyError) -> JSONValue {
        do {
            return try JSONParser.parse(Array(try JSONEncoder().encode(value)))
        } catch {
            throw ParleyError(.invalidArgument, "custom data does not encode as JSON: \(error)")
        }
    }
}

extension ChatRoom {
    /// The room's custom data as the app's type (`nil` custom data decodes as JSON `null`,
    /// so an optional type reads it as nil).
    /// - Throws: ``ParleyError/Code/decoding`` when the data does not fit `type`.
    public func decodeCustomData<T: Decodable>(as type: T.Type = T.self) throws(ParleyError) -> T {
        try CustomDataCoding.decode(type, from: customData)
    }

    /// Sets the custom data from the app's type (encoded as JSON).
    public mutating func setCustomData(_ value: some Encodable) throws(ParleyError) {
        customData = try CustomDataCoding.encode(value)
    }
}

extension ChatUser {
    /// The user's custom data as the app's type (`nil` custom data decodes as JSON `null`).
    /// - Throws: ``ParleyError/Code/decoding`` when the data does not fit `type`.
    public func decodeCustomData<T: Decodable>(as type: T.Type = T.self) throws(ParleyError) -> T {
        try CustomDataCoding.decode(type, from: customData)
    }

    /// Sets the custom data from the app's type (encoded as JSON).
    public mutating func setCustomData(_ value: some Encodable) throws(ParleyError) {
        customData = try CustomDataCoding.encode(value)
    }
}

extension ParleyClient {
    /// Changes a room's custom data to the app's value, encoded as JSON (room admins); members
    /// hear ``RoomEvent/roomUpdated(_:)``.
    @discardableResult
    public func updateRoom(_ roomID: String, customData: some Encodable & Sendable) async throws(ParleyError) -> ChatRoom {
        try await updateRoom(roomID, name: nil, kind: nil, customData: try CustomDataCoding.encode(customData))
    }
}
