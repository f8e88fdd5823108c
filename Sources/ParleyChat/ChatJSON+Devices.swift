import ParleyStore
import ParleyWire

extension ChatJSON {
    static func device(_ device: DeviceToken) -> JSONValue {
        .object(["token": .string(device.token), "user_id": .string(device.userID), "platform": .string(device.platform),
                 "updated_at": number(device.updatedAt)])
    }
}
