/// A channel of an app, as the cluster state indexes it.
struct ClusterChannelKey: Hashable, Sendable {
    var app: String
    var channel: String
}
