import ParleyWire

/// The route table of `/v1` (docs/openapi.json describes each entry).
extension ChatService {
    struct RouteDefinition {
        var method: HTTPMethod
        var path: String
        var route: ChatRoute
        /// Whether the handler does blocking file I/O, so it must not run on an event loop.
        var blocks = false
    }

    static func makeRouter(devMode: Bool) -> HTTPRouter<ChatRoute> {
        var router = HTTPRouter<ChatRoute>()
        for definition in routeDefinitions(devMode: devMode) {
            router.add(definition.method, definition.path, definition.route)
        }
        return router
    }

    static func routeDefinitions(devMode: Bool) -> [RouteDefinition] {
        func route(
            _ method: HTTPMethod, _ path: String, _ access: ChatRoute.Access = .authenticated, blocks: Bool = false,
            _ handler: @escaping @Sendable (ChatService, ChatCall) async throws -> ChatResponse
        ) -> RouteDefinition {
            RouteDefinition(method: method, path: path, route: ChatRoute(access: access, handler: handler), blocks: blocks)
        }
        var routes = [
            route(.GET, "/v1/openapi.json", .open) { service, _ in service.openAPIDocument() },

            route(.POST, "/v1/users") { try await $0.createUser($1) },
            route(.GET, "/v1/users") { try await $0.listUsers($1) },
            route(.GET, "/v1/users/{user_id}") { try await $0.getUser($1) },
            route(.PATCH, "/v1/users/{user_id}") { try await $0.updateUser($1) },
            route(.DELETE, "/v1/users/{user_id}") { try await $0.deleteUser($1) },
            route(.GET, "/v1/users/{user_id}/export") { try await $0.exportUser($1) },
            route(.POST, "/v1/users/{user_id}/erase", blocks: true) { try await $0.eraseUser($1) },
            route(.GET, "/v1/audit") { try await $0.listAudit($1) },
            route(.GET, "/v1/users/{user_id}/presence") { try await $0.getPresence($1) },
            route(.GET, "/v1/users/{user_id}/devices") { try await $0.listDevices($1) },
            route(.PUT, "/v1/users/{user_id}/devices/{token}") { try await $0.registerDevice($1) },
            route(.DELETE, "/v1/users/{user_id}/devices/{token}") { try await $0.removeDevice($1) },
            route(.GET, "/v1/me") { try await $0.getMe($1) },
            route(.GET, "/v1/me/rooms") { try await $0.listMyRooms($1) },
            route(.GET, "/v1/search") { try await $0.searchMessages($1) },
            route(.GET, "/v1/me/blocks") { try await $0.listBlocks($1) },
            route(.PUT, "/v1/me/blocks/{user_id}") { try await $0.blockUser($1) },
            route(.DELETE, "/v1/me/blocks/{user_id}") { try await $0.unblockUser($1) },

            route(.POST, "/v1/rooms") { try await $0.createRoom($1) },
            route(.GET, "/v1/rooms") { try await $0.listPublicRooms($1) },
            route(.POST, "/v1/rooms/direct") { try await $0.openDirectRoom($1) },
            route(.GET, "/v1/rooms/{room_id}") { try await $0.getRoom($1) },
            route(.PATCH, "/v1/rooms/{room_id}") { try await $0.updateRoom($1) },
            route(.DELETE, "/v1/rooms/{room_id}") { try await $0.deleteRoom($1) },
            route(.POST, "/v1/rooms/{room_id}/join") { try await $0.joinRoom($1) },
            route(.POST, "/v1/rooms/{room_id}/leave") { try await $0.leaveRoom($1) },
            route(.GET, "/v1/rooms/{room_id}/members") { try await $0.listMembers($1) },
            route(.POST, "/v1/rooms/{room_id}/members") { try await $0.addMember($1) },
            route(.PATCH, "/v1/rooms/{room_id}/members/{user_id}") { try await $0.updateMember($1) },
            route(.DELETE, "/v1/rooms/{room_id}/members/{user_id}") { try await $0.removeMember($1) },

            route(.GET, "/v1/rooms/{room_id}/search") { try await $0.searchRoom($1) },
            route(.GET, "/v1/rooms/{room_id}/messages") { try await $0.history($1) },
            route(.POST, "/v1/rooms/{room_id}/messages") { try await $0.sendMessage($1) },
            route(.GET, "/v1/rooms/{room_id}/messages/{message_id}") { try await $0.getMessage($1) },
            route(.PATCH, "/v1/rooms/{room_id}/messages/{message_id}") { try await $0.editMessage($1) },
            route(.DELETE, "/v1/rooms/{room_id}/messages/{message_id}") { try await $0.deleteMessage($1) },
            route(.GET, "/v1/rooms/{room_id}/messages/{message_id}/replies") { try await $0.replies($1) },
            route(.PUT, "/v1/rooms/{room_id}/messages/{message_id}/reactions/{emoji}") { try await $0.addReaction($1) },
            route(.DELETE, "/v1/rooms/{room_id}/messages/{message_id}/reactions/{emoji}") { try await $0.removeReaction($1) },

            route(.GET, "/v1/rooms/{room_id}/moderation") { try await $0.getModeration($1) },
            route(.PATCH, "/v1/rooms/{room_id}/moderation") { try await $0.updateModeration($1) },
            route(.POST, "/v1/rooms/{room_id}/mutes") { try await $0.muteMember($1) },
            route(.DELETE, "/v1/rooms/{room_id}/mutes/{user_id}") { try await $0.unmuteMember($1) },
            route(.POST, "/v1/rooms/{room_id}/bans") { try await $0.banMember($1) },
            route(.DELETE, "/v1/rooms/{room_id}/bans/{user_id}") { try await $0.unbanMember($1) },
            route(.POST, "/v1/rooms/{room_id}/kicks") { try await $0.kickMember($1) },
            route(.GET, "/v1/rooms/{room_id}/audit") { try await $0.auditLog($1) },
            route(.POST, "/v1/rooms/{room_id}/messages/{message_id}/flags") { try await $0.flagMessage($1) },
            route(.GET, "/v1/flags") { try await $0.listFlags($1) },
            route(.POST, "/v1/flags/{flag_id}/resolve") { try await $0.resolveFlag($1) },

            route(.PUT, "/v1/rooms/{room_id}/cursor") { try await $0.setCursor($1) },
            route(.GET, "/v1/rooms/{room_id}/cursors") { try await $0.listCursors($1) },
            route(.POST, "/v1/rooms/{room_id}/typing") { try await $0.typing($1) },
            route(.DELETE, "/v1/rooms/{room_id}/typing") { try await $0.stopTyping($1) },
            route(.GET, "/v1/rooms/{room_id}/notifications") { try await $0.getNotificationSettings($1) },
            route(.PUT, "/v1/rooms/{room_id}/notifications") { try await $0.setNotificationSettings($1) },

            route(.GET, "/v1/rooms/{room_id}/docs/{name}") { try await $0.getRoomDocument($1) },
            route(.GET, "/v1/rooms/{room_id}/docs/{name}/update") { try await $0.getRoomDocumentUpdate($1) },

            route(.POST, "/v1/rooms/{room_id}/attachments", blocks: true) { try await $0.uploadAttachment($1) },
            route(.GET, "/v1/attachments/{attachment_id}", blocks: true) { try await $0.getAttachment($1) },
            route(.DELETE, "/v1/attachments/{attachment_id}", blocks: true) { try await $0.deleteAttachment($1) },
            route(.GET, "/v1/attachments/{attachment_id}/content", .authenticatedOrSigned, blocks: true) {
                try await $0.downloadAttachment($1)
            },

            route(.POST, "/v1/channels/auth") { try await $0.channelAuth($1) },
            route(.POST, "/v1/channels/user-auth") { try await $0.userAuth($1) }
        ]
        if devMode {
            routes.append(route(.POST, "/v1/dev/users", .development) { try await $0.devCreateUser($1) })
            routes.append(route(.POST, "/v1/dev/token", .development) { try await $0.devToken($1) })
        }
        return routes
    }
}
