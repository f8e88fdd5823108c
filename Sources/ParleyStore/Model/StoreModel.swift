@_exported import ParleyModel

// The store reads and writes the chat API's own values (ParleyModel); these are the names
// its interface has always used for them.

/// A message in a room.
public typealias Message = ChatMessage
/// A room of one app.
public typealias Room = ChatRoom
/// Who may find and enter a room.
public typealias RoomKind = ChatRoom.Kind
/// A push notification address of one of a user's devices.
public typealias DeviceToken = DeviceRegistration
/// What it takes to record an uploaded file: its metadata and where its bytes are (the store
/// sets the upload time).
public typealias NewAttachment = StoredAttachment
