import ParleyWire

extension PusherConnection {
    /// Handles `pusher:signin` (spec section 5).
    mutating func signIn(_ message: PusherMessage) -> [PusherConnectionAction] {
        guard app.userAuthentication else { return signinError("User authentication is not enabled for this app") }
        guard let data = message.dataObject, let auth = data["auth"]?.stringValue, let userData = data["user_data"]?.stringValue else {
            return signinError("pusher:signin needs data.auth and data.user_data strings")
        }
        guard
            app.acceptsAnySecret({
                PusherSignature.verifyUserAuth(auth, key: app.key, secret: $0, socketID: socketID.rawValue, userData: userData)
            })
        else {
            return signinError("Invalid signature for user_data")
        }
        guard let object = (try? JSONParser.parse(userData))?.objectValue,
            let userID = object["id"]?.stringValue, !userID.isEmpty, userID.count <= app.limits.maxUserIDLength
        else {
            return signinError("user_data must be a JSON object with a non-empty string id")
        }
        if let user, user.userID != userID {
            return signinError("This connection is already signed in as another user")
        }
        var actions: [PusherConnectionAction] = []
        var watchlist = (object["watchlist"]?.arrayValue ?? []).compactMap(\.stringValue)
        if watchlist.count > app.limits.maxWatchlist {
            watchlist = Array(watchlist.prefix(app.limits.maxWatchlist))
            actions.append(
                .send(
                    PusherFrame.error(
                        code: PusherErrorCode.watchlistOverLimit.rawValue,
                        message:
                            "Watchlist has more than \(app.limits.maxWatchlist) user ids; only the first \(app.limits.maxWatchlist) are watched"
                    )))
        }
        let alreadySignedIn = user != nil
        let signed = PusherSignedInUser(userID: userID, userData: userData, watchlist: watchlist)
        user = signed
        actions.insert(.send(PusherFrame.signinSuccess(userData: userData)), at: 0)
        if !alreadySignedIn { actions.append(.signIn(signed)) }
        return actions
    }

    private func signinError(_ message: String) -> [PusherConnectionAction] {
        [.send(PusherFrame.error(code: PusherErrorCode.unauthorized.rawValue, message: message))]
    }
}
