import ParleyChannels
import ParleyWire

/// The Lua scripts that keep `parley:where:*` and `parley:claims:*` (see
/// `RedisClusterTransport`). Redis runs a script atomically, so of two nodes racing to be the
/// first into (or last out of) a channel exactly one sees `SCARD` reach 1 (or 0).
enum ClusterClaimScripts {
    /// ARGV: the node, then pairs of `+`/`-` and a subject. Returns the 1-based indexes of the
    /// pairs that changed the cluster: an arrival that made the node the subject's only one,
    /// a departure that left it empty.
    static let claimScript = """
        local node = ARGV[1]
        local index = 'parley:claims:' .. node
        local fired = {}
        for i = 2, #ARGV - 1, 2 do
          local key = 'parley:where:' .. ARGV[i + 1]
          if ARGV[i] == '+' then
            if redis.call('SADD', key, node) == 1 then
              redis.call('SADD', index, ARGV[i + 1])
              if redis.call('SCARD', key) == 1 then fired[#fired + 1] = i / 2 end
            end
          elseif redis.call('SREM', key, node) == 1 then
            redis.call('SREM', index, ARGV[i + 1])
            if redis.call('SCARD', key) == 0 then fired[#fired + 1] = i / 2 end
          end
        end
        return fired
        """

    /// ARGV: a node whose share lapsed, or (ARGV[2] = `earlier`) this node's own id at start,
    /// held before by a process that died. A lapsed node whose share came back is left alone;
    /// otherwise removes it from `parley:nodes` (lapsed only) and from every subject it was
    /// in; returns the subjects left empty.
    static let releaseScript = """
        local node = ARGV[1]
        if ARGV[2] ~= 'earlier' then
          if redis.call('EXISTS', 'parley:share:' .. node) == 1 then return {} end
          redis.call('SREM', 'parley:nodes', node)
        end
        local index = 'parley:claims:' .. node
        local emptied = {}
        for _, subject in ipairs(redis.call('SMEMBERS', index)) do
          local key = 'parley:where:' .. subject
          if redis.call('SREM', key, node) == 1 and redis.call('SCARD', key) == 0 then
            emptied[#emptied + 1] = subject
          end
        end
        redis.call('DEL', index)
        return emptied
        """

    /// `EVAL` of the claim script for `claims`, in their order.
    static func claim(node: String, _ claims: [ClusterClaim]) -> RESPCommand {
        var arguments: [[UInt8]] = [Array("EVAL".utf8), Array(claimScript.utf8), Array("0".utf8), Array(node.utf8)]
        for claim in claims {
            arguments.append(Array((claim.joined ? "+" : "-").utf8))
            arguments.append(claim.subject)
        }
        return RESPCommand(arguments)
    }

    /// `EVAL` of the release script for a lapsed node.
    static func release(node: String, earlier: Bool) -> RESPCommand {
        RESPCommand([
            Array("EVAL".utf8), Array(releaseScript.utf8), Array("0".utf8), Array(node.utf8), Array((earlier ? "earlier" : "lapsed").utf8)
        ])
    }
}
