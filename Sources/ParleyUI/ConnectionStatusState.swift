import Observation
import ParleyKit

/// The client's connection as observable state for SwiftUI: what it is doing, and when it
/// retries while offline (for a banner such as "Offline, retrying in 4 s").
@MainActor @Observable
public final class ConnectionStatusState {
    /// The connection state now.
    public private(set) var state: ConnectionState = .idle
    /// Seconds until the next reconnect attempt (rounded up) while ``ConnectionState/reconnecting(attempt:delay:)``;
    /// nil otherwise.
    public private(set) var retryInSeconds: Int?
    /// The reconnect attempt under way, nil when not reconnecting.
    public private(set) var attempt: Int?

    /// Whether events flow.
    public var isOnline: Bool { state.isOnline }

    @ObservationIgnored private let client: ParleyClient
    @ObservationIgnored private var follower: Task<Void, Never>?

    /// State following `client`'s connection once ``start()`` is called.
    public init(client: ParleyClient) { self.client = client }

    /// Follows the connection; returns once the properties show the state now.
    public func start() async {
        guard follower == nil else { return }
        let states = client.connectionStates()
        follower = Task { [weak self] in
            for await next in states { self?.apply(next) }
        }
        apply(await client.connectionState)
    }

    /// Stops following; the properties keep their last values.
    public func stop() {
        follower?.cancel()
        follower = nil
    }

    func apply(_ state: ConnectionState) {
        self.state = state
        if case .reconnecting(let attempt, let delay) = state {
            self.attempt = attempt
            retryInSeconds = Self.wholeSecondsRoundedUp(delay)
        } else {
            attempt = nil
            retryInSeconds = nil
        }
    }

    /// 0.2 s shows as "1 s": a banner never says 0 while still waiting.
    static func wholeSecondsRoundedUp(_ delay: Duration) -> Int {
        let (seconds, attoseconds) = delay.components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }
}
