import ParleyPlatform
import ParleyStore
import ParleyWire

extension ServeOptions {
    /// Flags of running several nodes as one (the Redis bus).
    static let clusterFlags: [Flag] = [
        Flag(
            name: "--redis", environment: "PARLEY_REDIS", placeholder: "URL",
            help:
                "Join other nodes over this Redis (redis://[user:password@]host:port[/db]); needs a postgres:// --database (default: the config's redis, else one node alone)"
        ) {
            o, v throws(ServeOptionsError) in
            do throws(RedisURL.ParseError) { _ = try RedisURL(parsing: v) } catch {
                throw ServeOptionsError(code: "invalid_value", message: "--redis: \(error.message)")
            }
            o.cluster.redis = v
        },
        Flag(
            name: "--node-id", environment: "PARLEY_NODE_ID", placeholder: "ID",
            help: "This node's name on the bus, in /healthz and the logs (default: host name:port)"
        ) {
            o, v throws(ServeOptionsError) in
            guard ClusterOptions.validNodeID(v) else {
                throw ServeOptionsError(
                    code: "invalid_value", message: "--node-id must be 1-128 printable ASCII characters without spaces, not '\(v)'")
            }
            o.cluster.nodeID = v
        }
    ]
}

extension ParleyServerMain {
    /// The options with the config file's `"redis"` (or `"redis_env"`) filled in when no flag
    /// or variable gave one; a bus with the embedded SQLite store is refused (an SQLite file
    /// belongs to one node, so the nodes would not share their chat).
    static func resolveCluster(
        _ options: ServeOptions, location: StoreLocation,
        environment: (String) -> String? = { name in getenvString(name) }
    ) -> Result<ServeOptions, ServerStartError> {
        var options = options
        if options.cluster.redis == nil, let path = options.configPath, let bytes = readFile(path),
            let root = (try? JSONParser.parse(bytes))?.objectValue
        {
            var given: (text: String, setting: String)?
            if let url = root["redis"]?.stringValue {
                given = (url, "redis")
            } else if let name = root["redis_env"]?.stringValue {
                guard let value = environment(name), !value.isEmpty else {
                    return .failure(
                        ServerStartError(
                            code: "config_invalid",
                            message: "config file \(path): $.redis_env: environment variable \(name) is unset or empty"))
                }
                given = (value, "redis_env")
            }
            if let given {
                do throws(RedisURL.ParseError) { _ = try RedisURL(parsing: given.text) } catch {
                    return .failure(
                        ServerStartError(code: "config_invalid", message: "config file \(path): $.\(given.setting): \(error.message)"))
                }
                options.cluster.redis = given.text
            }
        }
        if options.cluster.redis != nil, case .sqlite = location {
            return .failure(
                ServerStartError(
                    code: "redis_needs_postgres",
                    message: """
                        --redis joins nodes that share one database, and the embedded SQLite store belongs to \
                        one node: give every node the same --database postgres://… (or drop --redis to run one node)
                        """))
        }
        return .success(options)
    }

    private static func getenvString(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
