/// Hears when realtime connections sign in as a user (`pusher:signin`) and when they end.
///
/// The hub calls it once per connection for each: `userSignedIn` after a successful sign-in,
/// `userSignedOut` when that connection closes (or signs out). Calls for one connection come
/// in that order from its loop; calls for different connections may interleave and come from
/// different threads. Implementations must return quickly (hand the work off).
public protocol SignedInUserObserver: Sendable {
    /// A connection of `app` signed in as `userID`.
    func userSignedIn(app: AppConfig, userID: String, socketID: String)
    /// A connection of `app` signed in as `userID` is gone.
    func userSignedOut(app: AppConfig, userID: String, socketID: String)
}
