/// permessage-deflate negotiation (RFC 7692 §7.1): the server's choice among offers,
/// the client's offer, and the client's check of the server's answer.
public enum WebSocketDeflateNegotiation {
    /// The parameters of one offer after validation.
    struct Offer {
        var serverNoContextTakeover = false
        var clientNoContextTakeover = false
        var serverMaxWindowBits: Int?
        /// `.some(nil)` is the valueless form.
        var clientMaxWindowBits: Int??
    }

    /// Server side: the first offer it can honour under `policy`, with the response element.
    /// Offers with unknown, repeated or malformed parameters are declined (§7.1).
    public static func accept(
        offers: [WebSocketExtension], policy: WebSocketDeflateOptions
    )
        -> (parameters: WebSocketDeflateParameters, response: WebSocketExtension)?
    {
        for element in offers where element.name == WebSocketDeflateParameters.extensionName {
            guard let offer = validate(element.parameters) else { continue }
            if let accepted = answer(offer, policy: policy) { return accepted }
        }
        return nil
    }

    /// Client side: the offer element for `options`.
    public static func offer(_ options: WebSocketDeflateOptions) -> WebSocketExtension {
        var parameters: [WebSocketExtension.Parameter] = []
        if options.serverNoContextTakeover { parameters.append(.init("server_no_context_takeover")) }
        if options.clientNoContextTakeover { parameters.append(.init("client_no_context_takeover")) }
        if let bits = options.serverMaxWindowBits { parameters.append(.init("server_max_window_bits", String(bits))) }
        parameters.append(.init("client_max_window_bits", options.clientMaxWindowBits.map { String($0) }))
        return WebSocketExtension(name: WebSocketDeflateParameters.extensionName, parameters: parameters)
    }

    /// Client side: the parameters the server's response sets, or nil if it breaks the
    /// offer made with `options` (the client must then fail the connection).
    public static func confirm(
        response: WebSocketExtension, offered options: WebSocketDeflateOptions
    )
        -> WebSocketDeflateParameters?
    {
        guard response.name == WebSocketDeflateParameters.extensionName,
            let answer = validate(response.parameters)
        else { return nil }
        if options.serverNoContextTakeover && !answer.serverNoContextTakeover { return nil }
        if let asked = options.serverMaxWindowBits {
            guard let granted = answer.serverMaxWindowBits, granted <= asked else { return nil }
        }
        var clientBits = options.clientMaxWindowBits ?? 15
        if let granted = answer.clientMaxWindowBits {
            // A response value is mandatory here, and may only narrow what we offered.
            guard let bits = granted, bits <= clientBits else { return nil }
            clientBits = bits
        }
        return WebSocketDeflateParameters(
            serverNoContextTakeover: answer.serverNoContextTakeover,
            clientNoContextTakeover: answer.clientNoContextTakeover || options.clientNoContextTakeover,
            serverMaxWindowBits: answer.serverMaxWindowBits ?? 15,
            clientMaxWindowBits: clientBits)
    }

    /// Checks the parameter list of an offer or response: known names, each once,
    /// values where (and only where) allowed.
    static func validate(_ parameters: [WebSocketExtension.Parameter]) -> Offer? {
        var offer = Offer()
        var seen = Set<String>()
        for parameter in parameters {
            guard seen.insert(parameter.name).inserted else { return nil }
            switch parameter.name {
            case "server_no_context_takeover":
                guard parameter.value == nil else { return nil }
                offer.serverNoContextTakeover = true
            case "client_no_context_takeover":
                guard parameter.value == nil else { return nil }
                offer.clientNoContextTakeover = true
            case "server_max_window_bits":
                guard let bits = WebSocketDeflateParameters.windowBits(parameter.value) else { return nil }
                offer.serverMaxWindowBits = bits
            case "client_max_window_bits":
                if let value = parameter.value {
                    guard let bits = WebSocketDeflateParameters.windowBits(value) else { return nil }
                    offer.clientMaxWindowBits = .some(bits)
                } else {
                    offer.clientMaxWindowBits = .some(nil)
                }
            default:
                return nil
            }
        }
        return offer
    }

    /// The server's answer to one valid offer, or nil if `policy` can't be met by it.
    static func answer(
        _ offer: Offer, policy: WebSocketDeflateOptions
    )
        -> (parameters: WebSocketDeflateParameters, response: WebSocketExtension)?
    {
        var result = WebSocketDeflateParameters()
        var response = WebSocketExtension(name: WebSocketDeflateParameters.extensionName)

        result.serverNoContextTakeover = offer.serverNoContextTakeover || policy.serverNoContextTakeover
        if result.serverNoContextTakeover { response.parameters.append(.init("server_no_context_takeover")) }

        result.clientNoContextTakeover = offer.clientNoContextTakeover || policy.clientNoContextTakeover
        if result.clientNoContextTakeover { response.parameters.append(.init("client_no_context_takeover")) }

        result.serverMaxWindowBits = min(offer.serverMaxWindowBits ?? 15, policy.serverMaxWindowBits ?? 15)
        if offer.serverMaxWindowBits != nil || result.serverMaxWindowBits < 15 {
            response.parameters.append(.init("server_max_window_bits", String(result.serverMaxWindowBits)))
        }

        if let offered = offer.clientMaxWindowBits {
            result.clientMaxWindowBits = min(offered ?? 15, policy.clientMaxWindowBits ?? 15)
            if result.clientMaxWindowBits < 15 {
                response.parameters.append(.init("client_max_window_bits", String(result.clientMaxWindowBits)))
            }
        } else if let wanted = policy.clientMaxWindowBits, wanted < 15 {
            // We may not send client_max_window_bits unless offered, so we can't bound
            // the client's window: decline this offer.
            return nil
        }
        return (result, response)
    }
}
