import ParleyWire

/// The stable machine-readable codes of chat API errors, each with its HTTP status.
///
/// Codes never change meaning; the OpenAPI document lists every one of them.
public enum ChatErrorCode: String, Sendable, Hashable, CaseIterable {
    // 400
    /// The body is not valid JSON.
    case invalidJSON = "invalid_json"
    /// A required field is missing or a field has the wrong type or format.
    case invalidRequest = "invalid_request"
    /// A path or query parameter is malformed or out of range.
    case invalidParameter = "invalid_parameter"
    // 401
    /// No credentials were sent.
    case authenticationRequired = "authentication_required"
    /// The bearer token is not a well-formed JWT with the required claims.
    case tokenMalformed = "token_malformed"
    /// The token's `alg` is not HS256 (`none` included).
    case tokenAlgorithmUnsupported = "token_algorithm_unsupported"
    /// The token's signature does not match the app secret.
    case tokenSignatureInvalid = "token_signature_invalid"
    /// The token's `exp` has passed.
    case tokenExpired = "token_expired"
    /// The token's `iat` or `nbf` lies in the future.
    case tokenNotYetValid = "token_not_yet_valid"
    /// The token was issued before its user was deleted (its `iat` is earlier than the
    /// deletion, or it has no `iat`); mint a new one.
    case tokenRevoked = "token_revoked"
    /// The token was minted for another app than the one addressed.
    case tokenWrongAudience = "token_wrong_audience"
    /// The token's audience, the key or the `X-Parley-App` header names no hosted app.
    case unknownApp = "unknown_app"
    /// The app key and secret of a server-side call do not match.
    case invalidCredentials = "invalid_credentials"
    /// A signed download URL's signature does not match.
    case urlSignatureInvalid = "url_signature_invalid"
    /// A signed download URL has expired.
    case urlExpired = "url_expired"
    // 403
    /// The caller is not a member of the room.
    case notMember = "not_member"
    /// Only a room admin (or an app-level call) may do this.
    case notRoomAdmin = "not_room_admin"
    /// Only the message's author may do this.
    case notAuthor = "not_author"
    /// Only the user themself (or an app-level call) may do this.
    case notSelf = "not_self"
    /// Only an app-level call (key and secret) may do this.
    case appCredentialsRequired = "app_credentials_required"
    /// This endpoint acts as a user; app-level calls must use a user token.
    case userTokenRequired = "user_token_required"
    /// The room is not public: it is entered by invitation only.
    case roomNotJoinable = "room_not_joinable"
    /// Direct rooms have exactly their two users.
    case directRoomFixed = "direct_room_fixed"
    /// The channel is not one the caller may subscribe to.
    case channelForbidden = "channel_forbidden"
    /// Only a room moderator (or a higher role, or an app-level call) may do this.
    case notRoomModerator = "not_room_moderator"
    /// The member's role is as high as the caller's (moderation needs a higher role; role
    /// changes grant at most the caller's own).
    case targetOutranks = "target_outranks"
    /// The caller is muted in this room: they may read but not send or edit.
    case muted
    /// The user is banned from this room: they may not join or be added until unbanned.
    case banned
    /// One of the two users blocks the other: no direct messages between them.
    case userBlocked = "user_blocked"
    // 404
    /// No such endpoint (also every dev endpoint when dev mode is off).
    case notFound = "not_found"
    /// No such user in this app.
    case userNotFound = "user_not_found"
    /// No such room in this app.
    case roomNotFound = "room_not_found"
    /// No such message in the room.
    case messageNotFound = "message_not_found"
    /// No such attachment in this app.
    case attachmentNotFound = "attachment_not_found"
    /// The room has no document of that name.
    case documentNotFound = "document_not_found"
    /// No such flag in this app.
    case flagNotFound = "flag_not_found"
    // 405
    /// The path exists, but not for this method.
    case methodNotAllowed = "method_not_allowed"
    // 409
    /// A user or room with this id already exists.
    case alreadyExists = "already_exists"
    /// The room id belonged to a deleted room; ids are never reused (choose another).
    case roomIDRetired = "room_id_retired"
    /// The change contradicts the current state (editing a deleted message, making a direct room public…).
    case conflict
    /// The change would leave a room with members but no admin: promote another member first.
    case lastAdmin = "last_admin"
    // 413
    /// The body is larger than the endpoint allows.
    case payloadTooLarge = "payload_too_large"
    // 415
    /// The body's media type is not accepted here.
    case unsupportedMediaType = "unsupported_media_type"
    /// The upload is of a media type the app does not accept (`limits.attachment_types`).
    case attachmentTypeNotAllowed = "attachment_type_not_allowed"
    // 422
    /// The request is well-formed but breaks a limit or rule (text too long, too many parts…).
    case validationFailed = "validation_failed"
    /// An upload's declared media type is not what its bytes are (see the upload's description).
    case contentTypeMismatch = "content_type_mismatch"
    /// An upload's bytes start as an image but its header does not decode.
    case invalidImage = "invalid_image"
    /// An uploaded image is larger than the server accepts (per side or in pixels).
    case imageTooLarge = "image_too_large"
    /// A link (a message URL part, `avatar_url`) uses a scheme other than http, https or mailto.
    case urlSchemeNotAllowed = "url_scheme_not_allowed"
    /// The message already carries as many different reactions as the app allows
    /// (`limits.max_reactions_per_message`); adding an existing emoji still works.
    case tooManyReactions = "too_many_reactions"
    /// A reply's `parent_id` names no message of the room.
    case parentNotFound = "parent_not_found"
    /// A reply's parent (or the root of its thread) is deleted; deleted threads take no replies.
    case parentDeleted = "parent_deleted"
    /// `quoted_message_id` names no message of the room.
    case quotedMessageNotFound = "quoted_message_not_found"
    /// `quoted_message_id` names a deleted message.
    case quotedMessageDeleted = "quoted_message_deleted"
    /// The app's before-send hook refused the message; the message says why (the hook's reason).
    case messageRejected = "message_rejected"
    /// The text contains a word of the app's blocked list (`moderation.blocked_words`, mode `reject`).
    case blockedWord = "blocked_word"
    // 429
    /// Too many writes of one kind too fast (messages, reactions, edits, typing…, each with its
    /// own per-user rate); retry after `Retry-After` seconds.
    case rateLimited = "rate_limited"
    /// The room is in slow mode and the member sent a message less than `slow_mode_seconds`
    /// ago; retry after `Retry-After` seconds.
    case slowMode = "slow_mode"
    // 507
    /// The app's storage quota (`limits.attachment_quota_bytes`) would be passed; nothing was
    /// stored. Retrying does not help until files are deleted or the quota is raised.
    case storageQuotaExceeded = "storage_quota_exceeded"
    // 5xx
    /// The storage is temporarily unavailable; retry.
    case unavailable
    /// The app's before-send hook did not answer in time (or answered nonsense) and the app
    /// refuses messages then (`before_send.on_failure: reject`); nothing was stored, retry.
    case hookUnavailable = "hook_unavailable"
    /// An unexpected failure; nothing was changed or the change is durable (never half).
    case `internal`

    /// The HTTP status the code is answered with.
    public var status: HTTPStatus {
        switch self {
        case .invalidJSON, .invalidRequest, .invalidParameter:
            return .badRequest
        case .authenticationRequired, .tokenMalformed, .tokenAlgorithmUnsupported, .tokenSignatureInvalid, .tokenExpired,
            .tokenNotYetValid, .tokenRevoked, .tokenWrongAudience, .unknownApp, .invalidCredentials, .urlSignatureInvalid, .urlExpired:
            return HTTPStatus(401)
        case .notMember, .notRoomAdmin, .notAuthor, .notSelf, .appCredentialsRequired, .userTokenRequired,
            .roomNotJoinable, .directRoomFixed, .channelForbidden, .notRoomModerator, .targetOutranks, .muted, .banned, .userBlocked:
            return HTTPStatus(403)
        case .notFound, .userNotFound, .roomNotFound, .messageNotFound, .attachmentNotFound, .documentNotFound, .flagNotFound:
            return .notFound
        case .methodNotAllowed:
            return .methodNotAllowed
        case .alreadyExists, .roomIDRetired, .conflict, .lastAdmin:
            return HTTPStatus(409)
        case .payloadTooLarge:
            return .contentTooLarge
        case .unsupportedMediaType, .attachmentTypeNotAllowed:
            return HTTPStatus(415)
        case .validationFailed, .tooManyReactions, .contentTypeMismatch, .invalidImage, .imageTooLarge, .urlSchemeNotAllowed,
            .parentNotFound, .parentDeleted, .quotedMessageNotFound, .quotedMessageDeleted, .messageRejected, .blockedWord:
            return HTTPStatus(422)
        case .rateLimited, .slowMode:
            return HTTPStatus(429)
        case .storageQuotaExceeded:
            return HTTPStatus(507)
        case .unavailable, .hookUnavailable:
            return HTTPStatus(503)
        case .internal:
            return HTTPStatus(500)
        }
    }
}
