/// The matching machinery of `HTTPRouter`, free of its handler type: routes refer to handlers by
/// index, so matching runs as plain non-generic code (a generic router used from another
/// module would look up type metadata for its nodes on every request).
struct RouteTrie: Sendable {
    /// The outcome of matching, with the handler as an index.
    enum Match: Sendable {
        case found(handler: Int, parameters: [String: String])
        case methodNotAllowed(allowed: [HTTPMethod])
        case notFound
    }

    struct Route: Sendable {
        var method: HTTPMethod
        var handler: Int
        var parameterNames: [String]
        var catchAllName: String?
    }

    /// A trie node; children are indices into `nodes`.
    struct Node: Sendable {
        var literals: [String: Int] = [:]
        var parameter: Int?
        var routes: [Route] = []
        var catchAllRoutes: [Route] = []
    }

    private var nodes: [Node] = [Node()]

    // MARK: Building

    private enum SegmentKind {
        case literal(String)
        case parameter(String)
        case catchAll(String)
    }

    /// Adds handler number `handler` for a method and pattern, replacing one of the same method and pattern.
    mutating func add(_ method: HTTPMethod, _ pattern: String, handler: Int) {
        var node = 0
        var names: [String] = []
        let segments = pattern.split(separator: "/")
        for (index, segment) in segments.enumerated() {
            switch Self.classify(segment) {
            case .literal(let text):
                node = child(of: node, literal: text)
            case .parameter(let name):
                names.append(name)
                node = parameterChild(of: node)
            case .catchAll(let name):
                precondition(index == segments.count - 1, "a catch-all must be the last segment: \(pattern)")
                Self.insert(
                    Route(method: method, handler: handler, parameterNames: names, catchAllName: name),
                    into: &nodes[node].catchAllRoutes)
                return
            }
        }
        Self.insert(Route(method: method, handler: handler, parameterNames: names, catchAllName: nil), into: &nodes[node].routes)
    }

    private static func classify(_ segment: Substring) -> SegmentKind {
        guard segment.first == "{" else {
            precondition(
                !segment.contains("{") && !segment.contains("}"), "braces only around a whole segment: \(segment)")
            return .literal(String(segment))
        }
        precondition(segment.last == "}" && segment.count > 2, "unterminated parameter: \(segment)")
        let name = segment.dropFirst().dropLast()
        if name.hasSuffix("...") { return .catchAll(String(name.dropLast(3))) }
        return .parameter(String(name))
    }

    private mutating func child(of node: Int, literal: String) -> Int {
        if let existing = nodes[node].literals[literal] { return existing }
        nodes.append(Node())
        nodes[node].literals[literal] = nodes.count - 1
        return nodes.count - 1
    }

    private mutating func parameterChild(of node: Int) -> Int {
        if let existing = nodes[node].parameter { return existing }
        nodes.append(Node())
        nodes[node].parameter = nodes.count - 1
        return nodes.count - 1
    }

    private static func insert(_ route: Route, into routes: inout [Route]) {
        if let same = routes.firstIndex(where: { $0.method == route.method }) {
            routes[same] = route
        } else {
            routes.append(route)
        }
    }

    // MARK: Matching

    /// Matches decoded path segments; empty segments are ignored.
    ///
    /// The common case — a route for the method exists — walks the trie once in priority order
    /// and stops at the first hit; only a miss collects every candidate (for HEAD and 405).
    func match(method: HTTPMethod, segments: [String]) -> Match {
        let segments = segments.contains(where: \.isEmpty) ? segments.filter { !$0.isEmpty } : segments
        var values: [String] = []
        if let found = first(method, node: 0, segments: segments, index: 0, values: &values) { return found }
        return matchAll(method: method, segments: segments)
    }

    /// The first route for `method` in priority order (exact end, literal child, parameter
    /// child, catch-all: the order `collect` lists candidates in).
    private func first(_ method: HTTPMethod, node: Int, segments: [String], index: Int, values: inout [String]) -> Match? {
        let current = nodes[node]
        if index == segments.count {
            if let route = current.routes.first(where: { $0.method == method }) {
                return .found(handler: route.handler, parameters: Self.parameters(route, values: values, rest: nil))
            }
        } else {
            if let next = current.literals[segments[index]],
                let found = first(method, node: next, segments: segments, index: index + 1, values: &values)
            {
                return found
            }
            if let next = current.parameter {
                values.append(segments[index])
                defer { values.removeLast() }
                if let found = first(method, node: next, segments: segments, index: index + 1, values: &values) { return found }
            }
        }
        if let route = current.catchAllRoutes.first(where: { $0.method == method }) {
            let rest = segments[index...].joined(separator: "/")
            return .found(handler: route.handler, parameters: Self.parameters(route, values: values, rest: rest))
        }
        return nil
    }

    private static func parameters(_ route: Route, values: [String], rest: String?) -> [String: String] {
        var parameters = [String: String](minimumCapacity: values.count + (route.catchAllName == nil ? 0 : 1))
        for (name, value) in zip(route.parameterNames, values) { parameters[name] = value }
        if let name = route.catchAllName { parameters[name] = rest ?? "" }
        return parameters
    }

    /// Every candidate: HEAD falling back to GET, or 404/405 with the allowed methods.
    private func matchAll(method: HTTPMethod, segments: [String]) -> Match {
        var candidates: [Candidate] = []
        var values: [String] = []
        collect(node: 0, segments: segments, index: 0, values: &values, into: &candidates)
        if let found = Self.first(method, in: candidates) { return found }
        if method == .HEAD, let found = Self.first(.GET, in: candidates) { return found }
        if candidates.isEmpty { return .notFound }
        return .methodNotAllowed(allowed: Self.allowedMethods(candidates))
    }

    /// Routes whose pattern matches the path, with the parameter values captured on the way.
    private struct Candidate {
        var routes: [Route]
        var values: [String]
        var rest: String?
    }

    /// Depth-first in priority order: exact end, literal child, parameter child, catch-all.
    private func collect(
        node: Int, segments: [String], index: Int, values: inout [String], into candidates: inout [Candidate]
    ) {
        let current = nodes[node]
        if index == segments.count {
            if !current.routes.isEmpty {
                candidates.append(Candidate(routes: current.routes, values: values, rest: nil))
            }
        } else {
            if let next = current.literals[segments[index]] {
                collect(node: next, segments: segments, index: index + 1, values: &values, into: &candidates)
            }
            if let next = current.parameter {
                values.append(segments[index])
                collect(node: next, segments: segments, index: index + 1, values: &values, into: &candidates)
                values.removeLast()
            }
        }
        if !current.catchAllRoutes.isEmpty {
            let rest = segments[index...].joined(separator: "/")
            candidates.append(Candidate(routes: current.catchAllRoutes, values: values, rest: rest))
        }
    }

    private static func first(_ method: HTTPMethod, in candidates: [Candidate]) -> Match? {
        for candidate in candidates {
            guard let route = candidate.routes.first(where: { $0.method == method }) else { continue }
            return .found(handler: route.handler, parameters: parameters(route, values: candidate.values, rest: candidate.rest))
        }
        return nil
    }

    private static func allowedMethods(_ candidates: [Candidate]) -> [HTTPMethod] {
        var allowed: [HTTPMethod] = []
        for route in candidates.flatMap(\.routes) where !allowed.contains(route.method) {
            allowed.append(route.method)
        }
        if allowed.contains(.GET), !allowed.contains(.HEAD) { allowed.append(.HEAD) }
        return allowed
    }
}
