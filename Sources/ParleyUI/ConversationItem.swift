/// One line of a conversation: a day separator or a message.
public enum ConversationItem: Sendable, Equatable, Identifiable {
    /// The first message of a new day follows.
    case day(DayStamp)
    /// A message.
    case message(MessageRow)

    /// A stable id for list diffing.
    public var id: String {
        switch self {
        case .day(let day): "day-" + day.description
        case .message(let row): row.id
        }
    }

    /// The message, if this is one.
    public var message: MessageRow? {
        if case .message(let row) = self { return row }
        return nil
    }
}
