import ParleyChannels
import ParleyNet
import ParleyWire

/// Posts webhooks with the event loops' ``HTTPClient``: a request waiting on a slow endpoint
/// holds its connection and a timer on a loop, never a thread. One connection per request
/// (`Connection: close`), as Pusher's endpoints expect nothing else.
struct HTTPClientWebhookPoster: WebhookPoster {
    let client: HTTPClient

    /// A poster on `group`'s loops giving up after `timeout` without a byte moving.
    init(group: EventLoopGroup, timeout: Duration = .seconds(10)) {
        client = HTTPClient(
            group: group,
            configuration: HTTPClientConfiguration(
                timeout: timeout, maxResponseBytes: 64 * 1024,
                maxIdleConnectionsPerServer: 0))
    }

    func post(_ delivery: WebhookDelivery, completion: @escaping @Sendable (Int?) -> Void) {
        client.start(Self.request(for: delivery)) { result in completion(try? result.get().status) }
    }

    /// The signed POST of a delivery (spec section 8).
    static func request(for delivery: WebhookDelivery) -> HTTPClientRequest {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/json")
        headers.add("X-Pusher-Key", delivery.key)
        headers.add("X-Pusher-Signature", delivery.signature)
        return HTTPClientRequest(method: "POST", url: delivery.url.description, headers: headers, body: delivery.body)
    }
}
