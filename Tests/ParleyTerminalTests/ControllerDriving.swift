import Testing

@testable import ParleyTerminal

/// Drives a ``ChatController`` as a person at the keyboard would and waits for what the
/// screen shows; shared by the controller suites.
protocol ControllerDriving {}

extension ControllerDriving {
    /// Types a line and presses Enter.
    func type(_ controller: ChatController, _ text: String, enter: Bool = true) async {
        for character in text { await controller.handle(.character(character)) }
        if enter { await controller.handle(.enter) }
    }

    /// The first frame whose text satisfies `done`; if none comes within a generous bound,
    /// records the screen as it is so a failure says what was shown instead of hanging.
    @discardableResult
    func screen(
        _ controller: ChatController, sourceLocation: SourceLocation = #_sourceLocation,
        where done: @escaping @Sendable (String) -> Bool
    ) async -> String {
        let found: String? = await withTaskGroup(of: String?.self) { group in
            group.addTask {
                for await frame in controller.frames() where done(frame.text) { return frame.text }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if let found { return found }
        let shown = await controller.currentFrame().text
        Issue.record("the expected screen never appeared; last screen:\n\(shown)", sourceLocation: sourceLocation)
        return shown
    }
}
