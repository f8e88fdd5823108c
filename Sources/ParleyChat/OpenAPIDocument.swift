// Generated from docs/openapi.json by scripts/embed-openapi.sh; do not edit.

/// The OpenAPI 3.1 document of the chat REST API.
enum OpenAPIDocument {
    /// The document's JSON text.
    static let json = ##"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "Parley chat API",
    "version": "1.0.0",
    "description": "Users, rooms, messages, attachments, read cursors, typing and presence of a Parley server. Every app of the server has its own isolated data. Users authenticate with a JWT (HS256, signed with the app secret; `sub` the user id, `exp`, `iat`, `aud` the app id) sent as `Authorization: Bearer`; the app is the token's `aud`, or `X-Parley-App` when sent (then the token must be for that app). The app's backend authenticates with HTTP Basic `key:secret` and may do anything within its app. Every write is durable before it is answered and then published: on `private-room-{id}` (message.created, message.updated, message.deleted, reaction.changed, cursor.updated, member.joined, member.left, member.updated, room.updated, room.deleted, typing, typing.stopped, presence.changed) and on `#server-to-user-{id}` (room.added, room.removed, room.activity, room.read). Errors are `{\"error\":{\"code\",\"message\"}}` with the codes listed per status. Times are milliseconds since the Unix epoch unless stated. Path and query text may not contain NUL (`%00`): the HTTP layer answers 400 `encoded_nul` before the request reaches the API. A request that announces a body is authenticated from its head: bad or missing credentials get 401 before any of the body is read, and the connection closes after that answer. A head must arrive within the server's head timeout (10 s by default) and a body within its body timeout (300 s) and, after a grace period as long as the head timeout, at its minimum rate (1024 bytes/s); otherwise 408 `request_timeout` and the connection closes. A connection over the server's caps is answered 503 `server_busy` (all connections) or `too_many_connections` (per client address) with `Retry-After`, then closed. Browsers: pages on an origin listed in the app's `cors_origins` may call the API; `OPTIONS` answers CORS preflights (204) and lists a path's methods in `Allow`. Access ends the moment membership ends: when a member is removed or leaves, a room or a user is deleted, every realtime socket that `POST /v1/channels/auth` signed for that user on the room's channels (`private-room-{id}`, and `private-doc-{id}` of the room's documents) is taken off the channel at once and receives, on that channel, the event `parley:subscription_revoked` with data `{\"channel\",\"reason\"}` (reason `member_removed`, `left`, `room_deleted` or `user_deleted`); a signature issued earlier no longer subscribes (`pusher:subscription_error`, status 403). Open y-websocket sessions on the room's documents are closed with WebSocket code 4410 and the same reason. A deleted user's signed-in connections are closed with 4009, and tokens issued before the deletion get 401 `token_revoked`, even after the id is created again. A deleted room's id is never reused (409 `room_id_retired`)."
  },
  "servers": [
    {
      "url": "/"
    }
  ],
  "tags": [
    {
      "name": "meta"
    },
    {
      "name": "users"
    },
    {
      "name": "rooms"
    },
    {
      "name": "members"
    },
    {
      "name": "messages"
    },
    {
      "name": "cursors"
    },
    {
      "name": "attachments"
    },
    {
      "name": "documents"
    },
    {
      "name": "presence"
    },
    {
      "name": "realtime"
    },
    {
      "name": "dev"
    }
  ],
  "paths": {
    "/v1/openapi.json": {
      "get": {
        "operationId": "getOpenAPI",
        "summary": "This document.",
        "tags": [
          "meta"
        ],
        "security": [],
        "responses": {
          "200": {
            "description": "The OpenAPI document.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object"
                }
              }
            }
          }
        }
      }
    },
    "/v1/users": {
      "post": {
        "operationId": "createUser",
        "summary": "Create a user.",
        "tags": [
          "users"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/CreateUser"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Created.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/User"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "409": {
            "$ref": "#/components/responses/E409"
          },
          "413": {
            "$ref": "#/components/responses/E413"
          },
          "415": {
            "$ref": "#/components/responses/E415"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      },
      "get": {
        "operationId": "listUsers",
        "summary": "List users by id: a user token lists itself and the users it shares a room with; app credentials list every user.",
        "tags": [
          "users"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "parameters": [
          {
            "name": "after",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "Continue after this id (the previous page's next_after)."
          },
          {
            "name": "limit",
            "in": "query",
            "required": false,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 100
            },
            "description": "Page size (default 100; history 50)."
          },
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ],
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/UserList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        }
      }
    },
    "/v1/users/{user_id}": {
      "parameters": [
        {
          "name": "user_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        }
      ],
      "get": {
        "operationId": "getUser",
        "summary": "Get a user.",
        "tags": [
          "users"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/User"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      },
      "patch": {
        "operationId": "updateUser",
        "summary": "Update a user (the user themself or the app).",
        "tags": [
          "users"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/UpdateUser"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/User"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "413": {
            "$ref": "#/components/responses/E413"
          },
          "415": {
            "$ref": "#/components/responses/E415"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      },
      "delete": {
        "operationId": "deleteUser",
        "summary": "Delete a user and their memberships (app only); their messages stay.",
        "tags": [
          "users"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "responses": {
          "204": {
            "description": "Done."
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/users/{user_id}/presence": {
      "parameters": [
        {
          "name": "user_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        }
      ],
      "get": {
        "operationId": "getPresence",
        "summary": "Whether a user is online, and when last seen.",
        "tags": [
          "presence"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Presence"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/users/{user_id}/devices": {
      "parameters": [
        {
          "name": "user_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        }
      ],
      "get": {
        "operationId": "listDevices",
        "summary": "The user's push device tokens, by token (the user themself or the app's backend, for example to address a push notification).",
        "tags": [
          "users"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "devices"
                  ],
                  "properties": {
                    "devices": {
                      "type": "array",
                      "items": {
                        "$ref": "#/components/schemas/DeviceToken"
                      }
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/users/{user_id}/devices/{token}": {
      "parameters": [
        {
          "name": "user_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        },
        {
          "name": "token",
          "in": "path",
          "required": true,
          "description": "The token the push service gave the app on the device (APNs: its hex form; FCM: the registration token): 1 to 512 printable ASCII characters.",
          "schema": {
            "type": "string",
            "minLength": 1,
            "maxLength": 512
          }
        }
      ],
      "put": {
        "operationId": "registerDevice",
        "summary": "Stores a push device token for the user (the user themself or the app's backend). A token belongs to one user of the app at a time: registering it for another user (someone else signed in on that device) moves it. Registering it again refreshes `updated_at`. Codes: 404 `user_not_found`; 422 `validation_failed` for an unknown platform or a token that is not 1 to 512 printable ASCII characters.",
        "tags": [
          "users"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "required": [
                  "platform"
                ],
                "properties": {
                  "platform": {
                    "type": "string",
                    "enum": [
                      "apns",
                      "apns_sandbox",
                      "fcm"
                    ],
                    "description": "The push service: APNs production, the APNs sandbox, or Firebase Cloud Messaging."
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/DeviceToken"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "413": {
            "$ref": "#/components/responses/E413"
          },
          "415": {
            "$ref": "#/components/responses/E415"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      },
      "delete": {
        "operationId": "removeDevice",
        "summary": "Removes one of the user's push device tokens (sign-out on that device); removing a token the user does not have is no error.",
        "tags": [
          "users"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "responses": {
          "204": {
            "description": "Done."
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/me": {
      "get": {
        "operationId": "getMe",
        "summary": "The signed-in user.",
        "tags": [
          "users"
        ],
        "security": [
          {
            "userToken": []
          }
        ],
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/User"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/me/rooms": {
      "get": {
        "operationId": "listMyRooms",
        "summary": "The signed-in user's rooms, most recent activity first.",
        "tags": [
          "rooms"
        ],
        "security": [
          {
            "userToken": []
          }
        ],
        "parameters": [
          {
            "name": "limit",
            "in": "query",
            "required": false,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 1000
            },
            "description": "Most rooms to return (default 200)."
          },
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ],
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RoomSummaryList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        }
      }
    },
    "/v1/rooms": {
      "post": {
        "operationId": "createRoom",
        "summary": "Create a public or private room; a calling user becomes its admin.",
        "tags": [
          "rooms"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/CreateRoom"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Created.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Room"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "409": {
            "$ref": "#/components/responses/E409"
          },
          "413": {
            "$ref": "#/components/responses/E413"
          },
          "415": {
            "$ref": "#/components/responses/E415"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "429": {
            "$ref": "#/components/responses/E429"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      },
      "get": {
        "operationId": "listPublicRooms",
        "summary": "List public rooms by id.",
        "tags": [
          "rooms"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "parameters": [
          {
            "name": "after",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "Continue after this id (the previous page's next_after)."
          },
          {
            "name": "limit",
            "in": "query",
            "required": false,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 100
            },
            "description": "Page size (default 100; history 50)."
          },
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ],
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RoomList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        }
      }
    },
    "/v1/rooms/direct": {
      "post": {
        "operationId": "openDirectRoom",
        "summary": "The direct room of two users, created on first use.",
        "tags": [
          "rooms"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/DirectRoom"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The existing room.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Room"
                }
              }
            }
          },
          "201": {
            "description": "Created.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Room"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "413": {
            "$ref": "#/components/responses/E413"
          },
          "415": {
            "$ref": "#/components/responses/E415"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "429": {
            "$ref": "#/components/responses/E429"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/rooms/{room_id}": {
      "parameters": [
        {
          "name": "room_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        }
      ],
      "get": {
        "operationId": "getRoom",
        "summary": "Get a room (public rooms: anyone; others: members).",
        "tags": [
          "rooms"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Room"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      },
      "patch": {
        "operationId": "updateRoom",
        "summary": "Update a room (room admins).",
        "tags": [
          "rooms"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/UpdateRoom"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Room"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "409": {
            "$ref": "#/components/responses/E409"
          },
          "413": {
            "$ref": "#/components/responses/E413"
          },
          "415": {
            "$ref": "#/components/responses/E415"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "429": {
            "$ref": "#/components/responses/E429"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      },
      "delete": {
        "operationId": "deleteRoom",
        "summary": "Delete a room with its messages and attachments (room admins).",
        "tags": [
          "rooms"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "responses": {
          "204": {
            "description": "Done."
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "429": {
            "$ref": "#/components/responses/E429"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/rooms/{room_id}/join": {
      "parameters": [
        {
          "name": "room_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        }
      ],
      "post": {
        "operationId": "joinRoom",
        "summary": "Join a public room.",
        "tags": [
          "members"
        ],
        "security": [
          {
            "userToken": []
          }
        ],
        "responses": {
          "200": {
            "description": "Already a member.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Membership"
                }
              }
            }
          },
          "201": {
            "description": "Joined.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Membership"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "429": {
            "$ref": "#/components/responses/E429"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/rooms/{room_id}/leave": {
      "parameters": [
        {
          "name": "room_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        }
      ],
      "post": {
        "operationId": "leaveRoom",
        "summary": "Leave a room (the only admin may not while other members remain: 409 last_admin).",
        "tags": [
          "members"
        ],
        "security": [
          {
            "userToken": []
          }
        ],
        "responses": {
          "204": {
            "description": "Done."
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "409": {
            "$ref": "#/components/responses/E409"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "429": {
            "$ref": "#/components/responses/E429"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/rooms/{room_id}/members": {
      "parameters": [
        {
          "name": "room_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        }
      ],
      "get": {
        "operationId": "listMembers",
        "summary": "List members by user id.",
        "tags": [
          "members"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "parameters": [
          {
            "name": "after",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "Continue after this id (the previous page's next_after)."
          },
          {
            "name": "limit",
            "in": "query",
            "required": false,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 100
            },
            "description": "Page size (default 100; history 50)."
          },
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ],
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/MemberList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        }
      },
      "post": {
        "operationId": "addMember",
        "summary": "Add a member (room admins).",
        "tags": [
          "members"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/AddMember"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Already a member.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Membership"
                }
              }
            }
          },
          "201": {
            "description": "Added.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Membership"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "413": {
            "$ref": "#/components/responses/E413"
          },
          "415": {
            "$ref": "#/components/responses/E415"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "429": {
            "$ref": "#/components/responses/E429"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/rooms/{room_id}/members/{user_id}": {
      "parameters": [
        {
          "name": "room_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        },
        {
          "name": "user_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        }
      ],
      "patch": {
        "operationId": "updateMember",
        "summary": "Change a member's role (room admins).",
        "tags": [
          "members"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/UpdateMember"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Membership"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "409": {
            "$ref": "#/components/responses/E409"
          },
          "413": {
            "$ref": "#/components/responses/E413"
          },
          "415": {
            "$ref": "#/components/responses/E415"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "429": {
            "$ref": "#/components/responses/E429"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      },
      "delete": {
        "operationId": "removeMember",
        "summary": "Remove a member (room admins, or the member themself).",
        "tags": [
          "members"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "responses": {
          "204": {
            "description": "Done."
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "409": {
            "$ref": "#/components/responses/E409"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "429": {
            "$ref": "#/components/responses/E429"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/rooms/{room_id}/messages": {
      "parameters": [
        {
          "name": "room_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        }
      ],
      "get": {
        "operationId": "listMessages",
        "summary": "A page of history, ascending by seq: the latest by default, or before/after a seq.",
        "tags": [
          "messages"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "parameters": [
          {
            "name": "before",
            "in": "query",
            "required": false,
            "schema": {
              "type": "integer",
              "format": "int64",
              "minimum": 0,
              "maximum": 9223372036854775807
            },
            "description": "Only messages with a lower seq."
          },
          {
            "name": "after",
            "in": "query",
            "required": false,
            "schema": {
              "type": "integer",
              "format": "int64",
              "minimum": 0,
              "maximum": 9223372036854775807
            },
            "description": "Only messages with a higher seq; the page starts right after it."
          },
          {
            "name": "limit",
            "in": "query",
            "required": false,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 100
            },
            "description": "Page size (default 50)."
          },
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ],
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/MessagePage"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        }
      },
      "post": {
        "operationId": "sendMessage",
        "summary": "Send a message; it gets the room's next seq.",
        "tags": [
          "messages"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/SendMessage"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "A retry: the original message of this client_id.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Message"
                }
              }
            }
          },
          "201": {
            "description": "Sent.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Message"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "413": {
            "$ref": "#/components/responses/E413"
          },
          "415": {
            "$ref": "#/components/responses/E415"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "429": {
            "$ref": "#/components/responses/E429"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/rooms/{room_id}/messages/{message_id}": {
      "parameters": [
        {
          "name": "room_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        },
        {
          "name": "message_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "integer",
            "format": "int64",
            "minimum": 1,
            "maximum": 9223372036854775807
          }
        }
      ],
      "get": {
        "operationId": "getMessage",
        "summary": "Get one message.",
        "tags": [
          "messages"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Message"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      },
      "patch": {
        "operationId": "editMessage",
        "summary": "Edit a message's parts (its author).",
        "tags": [
          "messages"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/EditMessage"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Message"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "409": {
            "$ref": "#/components/responses/E409"
          },
          "413": {
            "$ref": "#/components/responses/E413"
          },
          "415": {
            "$ref": "#/components/responses/E415"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "429": {
            "$ref": "#/components/responses/E429"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      },
      "delete": {
        "operationId": "deleteMessage",
        "summary": "Delete a message, leaving a tombstone with its seq (author or room admin).",
        "tags": [
          "messages"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Message"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "429": {
            "$ref": "#/components/responses/E429"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/rooms/{room_id}/messages/{message_id}/reactions/{emoji}": {
      "parameters": [
        {
          "name": "room_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        },
        {
          "name": "message_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "integer",
            "format": "int64",
            "minimum": 1,
            "maximum": 9223372036854775807
          }
        },
        {
          "name": "emoji",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1,
            "maxLength": 64
          }
        }
      ],
      "put": {
        "operationId": "addReaction",
        "summary": "Add the signed-in user's reaction.",
        "tags": [
          "messages"
        ],
        "security": [
          {
            "userToken": []
          }
        ],
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ReactionState"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "409": {
            "$ref": "#/components/responses/E409"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "429": {
            "$ref": "#/components/responses/E429"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      },
      "delete": {
        "operationId": "removeReaction",
        "summary": "Remove the signed-in user's reaction.",
        "tags": [
          "messages"
        ],
        "security": [
          {
            "userToken": []
          }
        ],
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ReactionState"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "429": {
            "$ref": "#/components/responses/E429"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/rooms/{room_id}/cursor": {
      "parameters": [
        {
          "name": "room_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        }
      ],
      "put": {
        "operationId": "setCursor",
        "summary": "Move the signed-in user's read cursor forward (never backwards).",
        "tags": [
          "cursors"
        ],
        "security": [
          {
            "userToken": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/SetCursor"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Cursor"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "413": {
            "$ref": "#/components/responses/E413"
          },
          "415": {
            "$ref": "#/components/responses/E415"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "429": {
            "$ref": "#/components/responses/E429"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/rooms/{room_id}/cursors": {
      "parameters": [
        {
          "name": "room_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        }
      ],
      "get": {
        "operationId": "listCursors",
        "summary": "Every member's read cursor.",
        "tags": [
          "cursors"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/CursorList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/rooms/{room_id}/typing": {
      "parameters": [
        {
          "name": "room_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        }
      ],
      "post": {
        "operationId": "typing",
        "summary": "Announce that the signed-in user is typing (event `typing`, naming the token's user); limited per user by the app's `limits.rates.typing`, 2 a second with bursts of 10 by default (429 beyond).",
        "tags": [
          "realtime"
        ],
        "security": [
          {
            "userToken": []
          }
        ],
        "requestBody": {
          "required": false,
          "content": {
            "application/json": {
              "schema": {
                "type": "object"
              }
            }
          }
        },
        "responses": {
          "204": {
            "description": "Done."
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "413": {
            "$ref": "#/components/responses/E413"
          },
          "415": {
            "$ref": "#/components/responses/E415"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "429": {
            "$ref": "#/components/responses/E429"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      },
      "delete": {
        "operationId": "stopTyping",
        "summary": "Announce that the signed-in user stopped typing before the notice expired (event `typing.stopped`, naming the token's user), so others hide the indicator at once; limited together with `POST` by `limits.rates.typing`.",
        "tags": [
          "realtime"
        ],
        "security": [
          {
            "userToken": []
          }
        ],
        "responses": {
          "204": {
            "description": "Done."
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "429": {
            "$ref": "#/components/responses/E429"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/rooms/{room_id}/docs/{name}": {
      "parameters": [
        {
          "name": "room_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        },
        {
          "name": "name",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          },
          "description": "The document's name in the room (what `/doc NAME` and `…/docs/{name}/ws` open)."
        }
      ],
      "get": {
        "operationId": "getRoomDocument",
        "summary": "A room document's content as JSON, each root type by name.",
        "description": "Reads the server's replica of the room's live document (edited over `GET /v1/rooms/{room_id}/docs/{name}/ws`), for room members and app-level calls, as the room's messages are. A document that does not exist yet is not created (`document_not_found`). See the `DocumentContent` schema for how each kind of Yjs type reads.",
        "tags": [
          "documents"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/DocumentContent"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/rooms/{room_id}/docs/{name}/update": {
      "parameters": [
        {
          "name": "room_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        },
        {
          "name": "name",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          },
          "description": "The document's name in the room (what `/doc NAME` and `…/docs/{name}/ws` open)."
        }
      ],
      "get": {
        "operationId": "getRoomDocumentUpdate",
        "summary": "A room document's whole state as one Yjs update.",
        "description": "The server replica encoded as Yjs `encodeStateAsUpdate(doc)` (update format v1): `Y.applyUpdate(doc, bytes)` (or pycrdt's `Doc.apply_update`) on an empty document gives the same content. Updates the server holds back because what they depend on has not arrived are not included. Same access as `GET /v1/rooms/{room_id}/docs/{name}`.",
        "tags": [
          "documents"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "responses": {
          "200": {
            "description": "The update's bytes.",
            "content": {
              "application/octet-stream": {
                "schema": {
                  "type": "string",
                  "contentMediaType": "application/octet-stream"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/rooms/{room_id}/attachments": {
      "parameters": [
        {
          "name": "room_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        }
      ],
      "post": {
        "operationId": "uploadAttachment",
        "summary": "Upload a file into a room (members); images get width and height.",
        "tags": [
          "attachments"
        ],
        "security": [
          {
            "userToken": []
          }
        ],
        "requestBody": {
          "required": true,
          "description": "The file's bytes; Content-Type is its media type.",
          "content": {
            "application/octet-stream": {
              "schema": {
                "type": "string",
                "contentMediaType": "application/octet-stream",
                "minLength": 1
              }
            },
            "image/png": {
              "schema": {
                "type": "string",
                "contentMediaType": "image/png",
                "minLength": 1
              }
            },
            "image/jpeg": {
              "schema": {
                "type": "string",
                "contentMediaType": "image/jpeg",
                "minLength": 1
              }
            },
            "image/gif": {
              "schema": {
                "type": "string",
                "contentMediaType": "image/gif",
                "minLength": 1
              }
            },
            "image/webp": {
              "schema": {
                "type": "string",
                "contentMediaType": "image/webp",
                "minLength": 1
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Stored.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Attachment"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "413": {
            "$ref": "#/components/responses/E413"
          },
          "415": {
            "$ref": "#/components/responses/E415"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "429": {
            "$ref": "#/components/responses/E429"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          },
          "507": {
            "$ref": "#/components/responses/E507"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ],
        "description": "The stored type is what the bytes are, decided by their leading bytes: PNG, JPEG, GIF, WebP, PDF, UTF-8 text (text/plain; charset=utf-8) or else application/octet-stream. The declared Content-Type must agree, or the upload is refused with 422 content_type_mismatch: images and PDFs must be declared as exactly what they are; application/octet-stream claims nothing and is always accepted; text may be declared as any type that is not an image or PDF (it is stored as text/plain); other bytes as any type that is not an image, text or PDF (stored as application/octet-stream). An image header that does not decode is refused with 422 invalid_image; an image of more than 16,384 pixels a side or 100 megapixels with 422 image_too_large."
      }
    },
    "/v1/attachments/{attachment_id}": {
      "parameters": [
        {
          "name": "attachment_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        }
      ],
      "get": {
        "operationId": "getAttachment",
        "summary": "An attachment's metadata and a fresh signed download URL.",
        "tags": [
          "attachments"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          }
        ],
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Attachment"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/attachments/{attachment_id}/content": {
      "parameters": [
        {
          "name": "attachment_id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string",
            "minLength": 1
          }
        }
      ],
      "get": {
        "operationId": "downloadAttachment",
        "summary": "The attachment's bytes: with credentials of a room member, or through a signed URL without headers.",
        "tags": [
          "attachments"
        ],
        "security": [
          {
            "userToken": []
          },
          {
            "appCredentials": []
          },
          {}
        ],
        "parameters": [
          {
            "name": "app",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "Signed URL: the app id."
          },
          {
            "name": "expires",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "Signed URL: expiry, seconds since the Unix epoch."
          },
          {
            "name": "signature",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "Signed URL: base64url HMAC-SHA256 of \"download\\n{app}\\n{attachment_id}\\n{expires}\" under the app secret."
          },
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ],
        "responses": {
          "200": {
            "description": "The file, with its stored media type, `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox`; images are served `Content-Disposition: inline`, everything else `attachment` (a download, never rendered in place).",
            "content": {
              "*/*": {
                "schema": {
                  "type": "string",
                  "contentMediaType": "application/octet-stream"
                }
              }
            },
            "headers": {
              "Content-Disposition": {
                "description": "`inline` for images; `attachment; filename=\"{attachment_id}\"` for anything else.",
                "schema": {
                  "type": "string"
                }
              },
              "X-Content-Type-Options": {
                "description": "Always `nosniff`.",
                "schema": {
                  "type": "string",
                  "const": "nosniff"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        }
      }
    },
    "/v1/channels/auth": {
      "post": {
        "operationId": "channelAuth",
        "summary": "Pusher channel authorisation for a chat channel (private-room-{id}: members only).",
        "tags": [
          "realtime"
        ],
        "security": [
          {
            "userToken": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/x-www-form-urlencoded": {
              "schema": {
                "$ref": "#/components/schemas/ChannelAuthRequest"
              }
            },
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ChannelAuthRequest"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ChannelAuth"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "413": {
            "$ref": "#/components/responses/E413"
          },
          "415": {
            "$ref": "#/components/responses/E415"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ],
        "description": "Signs `private-room-{id}` for members and `private-doc-{id}` for those who may open the document, for the given socket. The grant lasts while the access does: Parley admits a socket to these channels only with a grant from this endpoint, and ending the access (member removed, left, room or user deleted) takes the socket off the channel with `parley:subscription_revoked` and withdraws the signature."
      }
    },
    "/v1/channels/user-auth": {
      "post": {
        "operationId": "userAuth",
        "summary": "Pusher user authentication (pusher:signin) for the token's user.",
        "tags": [
          "realtime"
        ],
        "security": [
          {
            "userToken": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/x-www-form-urlencoded": {
              "schema": {
                "$ref": "#/components/schemas/UserAuthRequest"
              }
            },
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/UserAuthRequest"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/UserAuth"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "403": {
            "$ref": "#/components/responses/E403"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "413": {
            "$ref": "#/components/responses/E413"
          },
          "415": {
            "$ref": "#/components/responses/E415"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        },
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The app addressed; with a user token it must equal the token's aud."
          }
        ]
      }
    },
    "/v1/dev/users": {
      "post": {
        "operationId": "devCreateUser",
        "summary": "Dev mode only: create (or get) a user by name. 404 when dev mode is off.",
        "tags": [
          "dev"
        ],
        "security": [],
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            }
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/DevUser"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The existing user.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/User"
                }
              }
            }
          },
          "201": {
            "description": "Created.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/User"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "413": {
            "$ref": "#/components/responses/E413"
          },
          "415": {
            "$ref": "#/components/responses/E415"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        }
      }
    },
    "/v1/dev/token": {
      "post": {
        "operationId": "devToken",
        "summary": "Dev mode only: a user token for an existing user. 404 when dev mode is off.",
        "tags": [
          "dev"
        ],
        "security": [],
        "parameters": [
          {
            "name": "X-Parley-App",
            "in": "header",
            "required": false,
            "schema": {
              "type": "string"
            }
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/DevTokenRequest"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/DevToken"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/E400"
          },
          "401": {
            "$ref": "#/components/responses/E401"
          },
          "404": {
            "$ref": "#/components/responses/E404"
          },
          "413": {
            "$ref": "#/components/responses/E413"
          },
          "415": {
            "$ref": "#/components/responses/E415"
          },
          "422": {
            "$ref": "#/components/responses/E422"
          },
          "500": {
            "$ref": "#/components/responses/E500"
          },
          "503": {
            "$ref": "#/components/responses/E503"
          }
        }
      }
    }
  },
  "components": {
    "schemas": {
      "Error": {
        "type": "object",
        "properties": {
          "error": {
            "type": "object",
            "properties": {
              "code": {
                "type": "string",
                "enum": [
                  "invalid_json",
                  "invalid_request",
                  "invalid_parameter",
                  "authentication_required",
                  "token_malformed",
                  "token_algorithm_unsupported",
                  "token_signature_invalid",
                  "token_expired",
                  "token_not_yet_valid",
                  "token_revoked",
                  "token_wrong_audience",
                  "unknown_app",
                  "invalid_credentials",
                  "url_signature_invalid",
                  "url_expired",
                  "not_member",
                  "not_room_admin",
                  "not_author",
                  "not_self",
                  "app_credentials_required",
                  "user_token_required",
                  "room_not_joinable",
                  "direct_room_fixed",
                  "channel_forbidden",
                  "not_found",
                  "user_not_found",
                  "room_not_found",
                  "message_not_found",
                  "attachment_not_found",
                  "document_not_found",
                  "method_not_allowed",
                  "already_exists",
                  "room_id_retired",
                  "conflict",
                  "last_admin",
                  "payload_too_large",
                  "unsupported_media_type",
                  "validation_failed",
                  "content_type_mismatch",
                  "invalid_image",
                  "image_too_large",
                  "url_scheme_not_allowed",
                  "too_many_reactions",
                  "rate_limited",
                  "storage_quota_exceeded",
                  "internal",
                  "unavailable"
                ],
                "description": "Stable error code."
              },
              "message": {
                "type": "string",
                "description": "Explanation for people; not stable."
              }
            },
            "required": [
              "code",
              "message"
            ],
            "additionalProperties": false
          }
        },
        "required": [
          "error"
        ],
        "additionalProperties": false,
        "description": "Every error answer: a stable code and a message."
      },
      "User": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string"
          },
          "name": {
            "type": "string"
          },
          "avatar_url": {
            "type": [
              "string",
              "null"
            ]
          },
          "custom_data": {
            "type": [
              "object",
              "null"
            ],
            "description": "The app's own JSON object (at most 5 KiB serialised)."
          },
          "created_at": {
            "type": "integer",
            "format": "int64",
            "description": "Milliseconds since the Unix epoch.",
            "maximum": 9223372036854775807
          },
          "updated_at": {
            "type": "integer",
            "format": "int64",
            "description": "Milliseconds since the Unix epoch.",
            "maximum": 9223372036854775807
          }
        },
        "required": [
          "id",
          "name",
          "avatar_url",
          "custom_data",
          "created_at",
          "updated_at"
        ],
        "additionalProperties": false
      },
      "UserList": {
        "type": "object",
        "properties": {
          "users": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/User"
            }
          },
          "next_after": {
            "type": [
              "string",
              "null"
            ],
            "description": "Pass as `after` for the next page; null on the last page."
          }
        },
        "required": [
          "users",
          "next_after"
        ],
        "additionalProperties": false
      },
      "Room": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string"
          },
          "kind": {
            "type": "string",
            "enum": [
              "public",
              "private",
              "direct"
            ]
          },
          "name": {
            "type": [
              "string",
              "null"
            ]
          },
          "custom_data": {
            "type": [
              "object",
              "null"
            ],
            "description": "The app's own JSON object (at most 5 KiB serialised)."
          },
          "created_by": {
            "type": [
              "string",
              "null"
            ]
          },
          "direct_user_ids": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "description": "The two users of a direct room; empty otherwise."
          },
          "last_seq": {
            "type": "integer",
            "format": "int64",
            "minimum": 0,
            "maximum": 9223372036854775807
          },
          "last_activity_at": {
            "type": "integer",
            "format": "int64",
            "description": "Milliseconds since the Unix epoch.",
            "maximum": 9223372036854775807
          },
          "member_count": {
            "type": "integer",
            "minimum": 0
          },
          "created_at": {
            "type": "integer",
            "format": "int64",
            "description": "Milliseconds since the Unix epoch.",
            "maximum": 9223372036854775807
          },
          "updated_at": {
            "type": "integer",
            "format": "int64",
            "description": "Milliseconds since the Unix epoch.",
            "maximum": 9223372036854775807
          }
        },
        "required": [
          "id",
          "kind",
          "name",
          "custom_data",
          "created_by",
          "direct_user_ids",
          "last_seq",
          "last_activity_at",
          "member_count",
          "created_at",
          "updated_at"
        ],
        "additionalProperties": false
      },
      "RoomList": {
        "type": "object",
        "properties": {
          "rooms": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Room"
            }
          },
          "next_after": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "rooms",
          "next_after"
        ],
        "additionalProperties": false
      },
      "Membership": {
        "type": "object",
        "properties": {
          "room_id": {
            "type": "string"
          },
          "user_id": {
            "type": "string"
          },
          "role": {
            "type": "string",
            "enum": [
              "admin",
              "member"
            ]
          },
          "joined_at": {
            "type": "integer",
            "format": "int64",
            "description": "Milliseconds since the Unix epoch.",
            "maximum": 9223372036854775807
          },
          "read_seq": {
            "type": "integer",
            "format": "int64",
            "minimum": 0,
            "maximum": 9223372036854775807
          },
          "read_at": {
            "type": [
              "integer",
              "null"
            ],
            "format": "int64",
            "maximum": 9223372036854775807
          }
        },
        "required": [
          "room_id",
          "user_id",
          "role",
          "joined_at",
          "read_seq",
          "read_at"
        ],
        "additionalProperties": false
      },
      "MemberList": {
        "type": "object",
        "properties": {
          "members": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Membership"
            }
          },
          "next_after": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "members",
          "next_after"
        ],
        "additionalProperties": false
      },
      "TextPart": {
        "type": "object",
        "properties": {
          "type": {
            "const": "text"
          },
          "text": {
            "type": "string",
            "minLength": 1,
            "description": "At most 4,000 characters (configurable)."
          }
        },
        "required": [
          "type",
          "text"
        ],
        "additionalProperties": false,
        "description": "Holds only the keys listed: any other key is refused with 400 invalid_request naming it."
      },
      "AttachmentPart": {
        "type": "object",
        "properties": {
          "type": {
            "const": "attachment"
          },
          "attachment_id": {
            "type": "string",
            "minLength": 1
          }
        },
        "required": [
          "type",
          "attachment_id"
        ],
        "additionalProperties": false,
        "description": "Holds only the keys listed: any other key is refused with 400 invalid_request naming it."
      },
      "URLPart": {
        "type": "object",
        "properties": {
          "type": {
            "const": "url"
          },
          "url": {
            "type": "string",
            "minLength": 1,
            "pattern": "^([Hh][Tt][Tt][Pp][Ss]?|[Mm][Aa][Ii][Ll][Tt][Oo]):",
            "description": "An http:, https: or mailto: URL (422 url_scheme_not_allowed otherwise)."
          }
        },
        "required": [
          "type",
          "url"
        ],
        "additionalProperties": false,
        "description": "Holds only the keys listed: any other key is refused with 400 invalid_request naming it."
      },
      "MessagePart": {
        "oneOf": [
          {
            "$ref": "#/components/schemas/TextPart"
          },
          {
            "$ref": "#/components/schemas/AttachmentPart"
          },
          {
            "$ref": "#/components/schemas/URLPart"
          }
        ],
        "discriminator": {
          "propertyName": "type",
          "mapping": {
            "text": "#/components/schemas/TextPart",
            "attachment": "#/components/schemas/AttachmentPart",
            "url": "#/components/schemas/URLPart"
          }
        }
      },
      "ReactionCount": {
        "type": "object",
        "properties": {
          "emoji": {
            "type": "string"
          },
          "count": {
            "type": "integer",
            "minimum": 1
          }
        },
        "required": [
          "emoji",
          "count"
        ],
        "additionalProperties": false
      },
      "Message": {
        "type": "object",
        "properties": {
          "id": {
            "type": "integer",
            "format": "int64",
            "minimum": 1,
            "maximum": 9223372036854775807
          },
          "room_id": {
            "type": "string"
          },
          "seq": {
            "type": "integer",
            "format": "int64",
            "minimum": 1,
            "maximum": 9223372036854775807
          },
          "sender_id": {
            "type": "string"
          },
          "client_id": {
            "type": [
              "string",
              "null"
            ]
          },
          "parts": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/MessagePart"
            },
            "description": "Empty for a deleted message."
          },
          "created_at": {
            "type": "integer",
            "format": "int64",
            "description": "Milliseconds since the Unix epoch.",
            "maximum": 9223372036854775807
          },
          "edited_at": {
            "type": [
              "integer",
              "null"
            ],
            "format": "int64",
            "maximum": 9223372036854775807
          },
          "deleted_at": {
            "type": [
              "integer",
              "null"
            ],
            "format": "int64",
            "maximum": 9223372036854775807
          },
          "deleted": {
            "type": "boolean"
          },
          "reactions": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ReactionCount"
            }
          }
        },
        "required": [
          "id",
          "room_id",
          "seq",
          "sender_id",
          "client_id",
          "parts",
          "created_at",
          "edited_at",
          "deleted_at",
          "deleted",
          "reactions"
        ],
        "additionalProperties": false
      },
      "MessagePage": {
        "type": "object",
        "properties": {
          "messages": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Message"
            },
            "description": "Ascending by seq."
          },
          "has_more": {
            "type": "boolean",
            "description": "Whether more messages lie beyond the page's far end (older without `after`, newer with it)."
          }
        },
        "required": [
          "messages",
          "has_more"
        ],
        "additionalProperties": false
      },
      "ReactionState": {
        "type": "object",
        "properties": {
          "room_id": {
            "type": "string"
          },
          "message_id": {
            "type": "integer",
            "format": "int64",
            "maximum": 9223372036854775807
          },
          "seq": {
            "type": "integer",
            "format": "int64",
            "minimum": 0,
            "maximum": 9223372036854775807
          },
          "reactions": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ReactionCount"
            }
          }
        },
        "required": [
          "room_id",
          "message_id",
          "seq",
          "reactions"
        ],
        "additionalProperties": false
      },
      "RoomSummary": {
        "type": "object",
        "properties": {
          "room": {
            "$ref": "#/components/schemas/Room"
          },
          "role": {
            "type": "string",
            "enum": [
              "admin",
              "member"
            ]
          },
          "read_seq": {
            "type": "integer",
            "format": "int64",
            "minimum": 0,
            "maximum": 9223372036854775807
          },
          "unread_count": {
            "type": "integer",
            "minimum": 0
          },
          "last_message": {
            "oneOf": [
              {
                "$ref": "#/components/schemas/Message"
              },
              {
                "type": "null"
              }
            ]
          }
        },
        "required": [
          "room",
          "role",
          "read_seq",
          "unread_count",
          "last_message"
        ],
        "additionalProperties": false
      },
      "RoomSummaryList": {
        "type": "object",
        "properties": {
          "rooms": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/RoomSummary"
            },
            "description": "Most recent activity first."
          }
        },
        "required": [
          "rooms"
        ],
        "additionalProperties": false
      },
      "Cursor": {
        "type": "object",
        "properties": {
          "room_id": {
            "type": "string"
          },
          "user_id": {
            "type": "string"
          },
          "seq": {
            "type": "integer",
            "format": "int64",
            "minimum": 0,
            "maximum": 9223372036854775807
          },
          "read_at": {
            "type": [
              "integer",
              "null"
            ],
            "format": "int64",
            "maximum": 9223372036854775807
          }
        },
        "required": [
          "room_id",
          "user_id",
          "seq",
          "read_at"
        ],
        "additionalProperties": false
      },
      "CursorList": {
        "type": "object",
        "properties": {
          "cursors": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Cursor"
            }
          }
        },
        "required": [
          "cursors"
        ],
        "additionalProperties": false
      },
      "Attachment": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string"
          },
          "room_id": {
            "type": "string"
          },
          "uploader_id": {
            "type": "string"
          },
          "content_type": {
            "type": "string",
            "description": "What the bytes are, by their leading bytes: image/png, image/jpeg, image/gif, image/webp, application/pdf, text/plain; charset=utf-8 or application/octet-stream (never the type the uploader declared)."
          },
          "size": {
            "type": "integer",
            "format": "int64",
            "minimum": 1,
            "maximum": 9223372036854775807
          },
          "width": {
            "type": [
              "integer",
              "null"
            ],
            "minimum": 0,
            "description": "Pixels, for PNG, JPEG, GIF and WebP images (at most 16,384; at most 100 megapixels in all)."
          },
          "height": {
            "type": [
              "integer",
              "null"
            ],
            "minimum": 0
          },
          "created_at": {
            "type": "integer",
            "format": "int64",
            "description": "Milliseconds since the Unix epoch.",
            "maximum": 9223372036854775807
          },
          "download_url": {
            "type": "string",
            "description": "Path and query of a signed URL usable without headers until download_url_expires_at."
          },
          "download_url_expires_at": {
            "type": "integer",
            "format": "int64",
            "description": "Seconds since the Unix epoch.",
            "maximum": 9223372036854775807
          }
        },
        "required": [
          "id",
          "room_id",
          "uploader_id",
          "content_type",
          "size",
          "width",
          "height",
          "created_at",
          "download_url",
          "download_url_expires_at"
        ],
        "additionalProperties": false
      },
      "Presence": {
        "type": "object",
        "properties": {
          "user_id": {
            "type": "string"
          },
          "online": {
            "type": "boolean"
          },
          "last_seen_at": {
            "type": [
              "integer",
              "null"
            ],
            "format": "int64",
            "maximum": 9223372036854775807
          }
        },
        "required": [
          "user_id",
          "online",
          "last_seen_at"
        ],
        "additionalProperties": false
      },
      "ChannelAuth": {
        "type": "object",
        "properties": {
          "auth": {
            "type": "string",
            "description": "`key:signature` for the Pusher subscribe message."
          }
        },
        "required": [
          "auth"
        ],
        "additionalProperties": false
      },
      "UserAuth": {
        "type": "object",
        "properties": {
          "auth": {
            "type": "string"
          },
          "user_data": {
            "type": "string",
            "description": "JSON text to send with pusher:signin."
          }
        },
        "required": [
          "auth",
          "user_data"
        ],
        "additionalProperties": false
      },
      "DevToken": {
        "type": "object",
        "properties": {
          "token": {
            "type": "string"
          },
          "user_id": {
            "type": "string"
          },
          "app_id": {
            "type": "string"
          },
          "expires_at": {
            "type": "integer",
            "format": "int64",
            "description": "Seconds since the Unix epoch.",
            "maximum": 9223372036854775807
          }
        },
        "required": [
          "token",
          "user_id",
          "app_id",
          "expires_at"
        ],
        "additionalProperties": false
      },
      "CreateUser": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "minLength": 1,
            "maxLength": 150,
            "pattern": "^[A-Za-z0-9_\\-=@,.;]+$",
            "description": "Required for app-level calls; a user token may create only its own user (defaults to sub)."
          },
          "name": {
            "type": "string",
            "minLength": 1
          },
          "avatar_url": {
            "type": [
              "string",
              "null"
            ],
            "pattern": "^([Hh][Tt][Tt][Pp][Ss]?|[Mm][Aa][Ii][Ll][Tt][Oo]):",
            "description": "An http:, https: or mailto: URL (422 url_scheme_not_allowed otherwise), or null."
          },
          "custom_data": {
            "type": [
              "object",
              "null"
            ],
            "description": "The app's own JSON object (at most 5 KiB serialised)."
          }
        },
        "required": [
          "name"
        ]
      },
      "UpdateUser": {
        "type": "object",
        "properties": {
          "name": {
            "type": "string",
            "minLength": 1
          },
          "avatar_url": {
            "type": [
              "string",
              "null"
            ],
            "pattern": "^([Hh][Tt][Tt][Pp][Ss]?|[Mm][Aa][Ii][Ll][Tt][Oo]):",
            "description": "An http:, https: or mailto: URL (422 url_scheme_not_allowed otherwise), or null."
          },
          "custom_data": {
            "type": [
              "object",
              "null"
            ],
            "description": "The app's own JSON object (at most 5 KiB serialised)."
          }
        },
        "required": []
      },
      "CreateRoom": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "minLength": 1,
            "maxLength": 150,
            "pattern": "^[A-Za-z0-9_\\-=@,.;]+$"
          },
          "kind": {
            "type": "string",
            "enum": [
              "public",
              "private"
            ],
            "default": "private"
          },
          "name": {
            "type": [
              "string",
              "null"
            ]
          },
          "custom_data": {
            "type": [
              "object",
              "null"
            ],
            "description": "The app's own JSON object (at most 5 KiB serialised)."
          },
          "member_ids": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "creator_id": {
            "type": [
              "string",
              "null"
            ],
            "description": "App-level calls only: the user who becomes the first admin."
          }
        },
        "required": []
      },
      "DirectRoom": {
        "type": "object",
        "properties": {
          "user_id": {
            "type": "string",
            "minLength": 1,
            "maxLength": 150,
            "pattern": "^[A-Za-z0-9_\\-=@,.;]+$",
            "description": "With a user token: the other user."
          },
          "user_ids": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "minItems": 2,
            "maxItems": 2,
            "description": "The two users: app-level calls; a user token may send it too when the caller is one of them."
          }
        },
        "required": [],
        "anyOf": [
          {
            "required": [
              "user_id"
            ]
          },
          {
            "required": [
              "user_ids"
            ]
          }
        ],
        "description": "With a user token send `user_id` (the other user), or `user_ids` naming the caller and the other user; app-level calls send `user_ids` (the two users)."
      },
      "UpdateRoom": {
        "type": "object",
        "properties": {
          "name": {
            "type": [
              "string",
              "null"
            ]
          },
          "custom_data": {
            "type": [
              "object",
              "null"
            ],
            "description": "The app's own JSON object (at most 5 KiB serialised)."
          },
          "kind": {
            "type": "string",
            "enum": [
              "public",
              "private"
            ]
          }
        },
        "required": []
      },
      "AddMember": {
        "type": "object",
        "properties": {
          "user_id": {
            "type": "string",
            "minLength": 1
          },
          "role": {
            "type": "string",
            "enum": [
              "admin",
              "member"
            ],
            "default": "member"
          }
        },
        "required": [
          "user_id"
        ]
      },
      "UpdateMember": {
        "type": "object",
        "properties": {
          "role": {
            "type": "string",
            "enum": [
              "admin",
              "member"
            ]
          }
        },
        "required": [
          "role"
        ]
      },
      "SendMessage": {
        "type": "object",
        "properties": {
          "client_id": {
            "type": [
              "string",
              "null"
            ],
            "minLength": 1,
            "maxLength": 512,
            "description": "Client-chosen id of 1-512 characters (400 invalid_request otherwise): a retry with the same id returns the original message (200)."
          },
          "parts": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/MessagePart"
            },
            "minItems": 1,
            "maxItems": 10
          },
          "sender_id": {
            "type": "string",
            "minLength": 1,
            "maxLength": 150,
            "pattern": "^[A-Za-z0-9_\\-=@,.;]+$",
            "description": "App-level calls only: the sending member."
          }
        },
        "required": [
          "parts"
        ]
      },
      "EditMessage": {
        "type": "object",
        "properties": {
          "parts": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/MessagePart"
            },
            "minItems": 1,
            "maxItems": 10
          }
        },
        "required": [
          "parts"
        ]
      },
      "SetCursor": {
        "type": "object",
        "properties": {
          "seq": {
            "type": "integer",
            "format": "int64",
            "minimum": 0,
            "maximum": 9223372036854775807
          }
        },
        "required": [
          "seq"
        ]
      },
      "ChannelAuthRequest": {
        "type": "object",
        "properties": {
          "socket_id": {
            "type": "string",
            "pattern": "^[0-9]+\\.[0-9]+$"
          },
          "channel_name": {
            "type": "string",
            "minLength": 1,
            "maxLength": 200,
            "pattern": "^(#server-to-user-)?[A-Za-z0-9_\\-=@,.;]+$",
            "description": "A Pusher channel name: `private-room-{id}` or the user's `#server-to-user-{id}`."
          }
        },
        "required": [
          "socket_id",
          "channel_name"
        ]
      },
      "UserAuthRequest": {
        "type": "object",
        "properties": {
          "socket_id": {
            "type": "string",
            "pattern": "^[0-9]+\\.[0-9]+$"
          }
        },
        "required": [
          "socket_id"
        ]
      },
      "DevUser": {
        "type": "object",
        "properties": {
          "name": {
            "type": "string",
            "minLength": 1
          },
          "id": {
            "type": "string",
            "minLength": 1,
            "maxLength": 150,
            "pattern": "^[A-Za-z0-9_\\-=@,.;]+$"
          }
        },
        "required": [
          "name"
        ]
      },
      "DevTokenRequest": {
        "type": "object",
        "properties": {
          "user_id": {
            "type": "string",
            "minLength": 1
          }
        },
        "required": [
          "user_id"
        ]
      },
      "TransportError": {
        "type": "object",
        "description": "An error answered by the HTTP layer before the request reaches the API (a malformed request target or message, or a body over the route's limit); same shape as Error.",
        "properties": {
          "error": {
            "type": "object",
            "properties": {
              "code": {
                "type": "string",
                "enum": [
                  "malformed_request_line",
                  "malformed_header",
                  "obs_fold",
                  "invalid_content_length",
                  "conflicting_length",
                  "invalid_transfer_encoding",
                  "bad_chunk",
                  "missing_host",
                  "multiple_hosts",
                  "invalid_target",
                  "invalid_percent_encoding",
                  "encoded_nul",
                  "invalid_utf8",
                  "body_too_large"
                ],
                "description": "Stable error code of the HTTP layer."
              },
              "message": {
                "type": "string",
                "description": "Explanation for people; not stable."
              }
            },
            "required": [
              "code",
              "message"
            ],
            "additionalProperties": false
          }
        },
        "required": [
          "error"
        ],
        "additionalProperties": false
      },
      "DocumentContent": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string",
            "description": "The document's id (as in `GET /v1/docs/{id}/ws`)."
          },
          "room_id": {
            "type": "string"
          },
          "name": {
            "type": "string"
          },
          "content": {
            "type": "object",
            "additionalProperties": true,
            "description": "Each root type of the Yjs document by its name. A text reads as a string, or, when any formatting or embed applies, as a Quill delta: an array of `{\"insert\": string or embed, \"attributes\": {…}}` (`attributes` left out when none apply). A map reads as an object of its current values, an array as an array. An XML element reads as `{\"nodeName\", \"attributes\", \"children\"}`, an XML fragment as `{\"children\"}`, an XML hook as `{\"nodeName\", \"attributes\"}`, XML text as a text. Binary values are standard base64 strings; a subdocument is `{\"guid\"}`. Root types carry no kind on the wire: a root's kind is told from its content, and a root with nothing left that tells reads as null. Types nested more than 128 deep read as null."
          }
        },
        "required": [
          "id",
          "room_id",
          "name",
          "content"
        ],
        "additionalProperties": false
      },
      "DeviceToken": {
        "type": "object",
        "required": [
          "token",
          "user_id",
          "platform",
          "updated_at"
        ],
        "properties": {
          "token": {
            "type": "string"
          },
          "user_id": {
            "type": "string"
          },
          "platform": {
            "type": "string",
            "enum": [
              "apns",
              "apns_sandbox",
              "fcm"
            ]
          },
          "updated_at": {
            "type": "integer",
            "description": "When it was last registered."
          }
        }
      }
    },
    "responses": {
      "E400": {
        "description": "Bad Request. Codes: `invalid_json` — The body is not valid JSON.; `invalid_request` — A required field is missing, or a field has the wrong type or format.; `invalid_parameter` — A path or query parameter is malformed or out of range. The HTTP layer answers a malformed request (e.g. `invalid_percent_encoding`, `encoded_nul`, `invalid_utf8`) with a TransportError.",
        "content": {
          "application/json": {
            "schema": {
              "oneOf": [
                {
                  "$ref": "#/components/schemas/Error"
                },
                {
                  "$ref": "#/components/schemas/TransportError"
                }
              ]
            }
          }
        }
      },
      "E401": {
        "description": "Unauthorized. Codes: `authentication_required` — No credentials were sent.; `token_malformed` — The bearer token is not a well-formed JWT with sub, exp and aud.; `token_algorithm_unsupported` — The token's alg is not HS256 (none included).; `token_signature_invalid` — The token's signature does not match the app secret.; `token_expired` — The token's exp has passed (30 s leeway).; `token_not_yet_valid` — The token's iat or nbf lies in the future.; `token_revoked` — The token was issued before its user was deleted (iat earlier than the deletion, or no iat); mint a new one.; `token_wrong_audience` — The token was minted for another app than the one addressed (X-Parley-App).; `unknown_app` — The token's audience or X-Parley-App names no hosted app.; `invalid_credentials` — The app key and secret (Basic) do not match.; `url_signature_invalid` — A signed download URL's signature does not match.; `url_expired` — A signed download URL has expired.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "E403": {
        "description": "Forbidden. Codes: `not_member` — The caller (or the named user) is not a member of the room.; `not_room_admin` — Only the room's admins (or app-level calls) may do this.; `not_author` — Only the message's author (for deletes also room admins) may do this.; `not_self` — Only the user themself (or app-level calls) may do this.; `app_credentials_required` — Only app-level calls (key and secret) may do this.; `user_token_required` — This endpoint acts as a user; send a user token.; `room_not_joinable` — The room is not public; members are added by its admins.; `direct_room_fixed` — Direct rooms have exactly their two users.; `channel_forbidden` — The channel is not one the caller may subscribe to.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "E404": {
        "description": "Not Found. Codes: `not_found` — No such endpoint (dev endpoints when dev mode is off, too).; `user_not_found` — No such user in this app.; `room_not_found` — No such room in this app.; `message_not_found` — No such message in the room.; `attachment_not_found` — No such attachment in this app.; `document_not_found` — The room has no document of that name.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "E405": {
        "description": "Method Not Allowed. Codes: `method_not_allowed` — The path exists, but not for this method (see Allow).",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        },
        "headers": {
          "Allow": {
            "schema": {
              "type": "string"
            }
          }
        }
      },
      "E409": {
        "description": "Conflict. Codes: `already_exists` — A user or room with this id already exists.; `room_id_retired` — The room id belonged to a deleted room; room ids are never reused.; `conflict` — The change contradicts the current state (editing a deleted message, making a direct room public).; `last_admin` — The room's only admin may not leave, be removed or stop being admin while other members remain: make another member admin first (the last member may always leave).",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "E413": {
        "description": "Content Too Large. Codes: `payload_too_large` — The body is larger than the endpoint allows. A body far over the limit is refused by the HTTP layer with the TransportError `body_too_large`.",
        "content": {
          "application/json": {
            "schema": {
              "oneOf": [
                {
                  "$ref": "#/components/schemas/Error"
                },
                {
                  "$ref": "#/components/schemas/TransportError"
                }
              ]
            }
          }
        }
      },
      "E415": {
        "description": "Unsupported Media Type. Codes: `unsupported_media_type` — The body's media type is not accepted here.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "E422": {
        "description": "Unprocessable Content. Codes: `validation_failed` — Well-formed but breaks a limit or rule (text too long, too many parts, custom data too big).; `content_type_mismatch` — An upload's declared Content-Type is not what its bytes are (see uploadAttachment).; `invalid_image` — An upload starts as a PNG, JPEG, GIF or WebP image but its header does not decode.; `image_too_large` — An uploaded image has more than 16,384 pixels a side or 100 megapixels.; `url_scheme_not_allowed` — A link (a url part, avatar_url) is not an http:, https: or mailto: URL.; `too_many_reactions` — The message already carries as many different emoji as the app allows (`limits.max_reactions_per_message`, 50 by default); reacting with one already there still works.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "E429": {
        "description": "Too Many Requests. Codes: `rate_limited` — Too many writes of one kind too fast; retry after Retry-After seconds. Each user has a token bucket per kind of write and app (`limits.rates` in the server's config file: messages 20/s burst 40, reactions 5/s burst 30, edits and deletes 5/s burst 20, typing 2/s burst 10, room changes 1/s burst 20, membership changes 5/s burst 50, uploads 2/s burst 10, cursor updates 10/s burst 30 by default). App-level calls are limited only where they name a sender.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        },
        "headers": {
          "Retry-After": {
            "schema": {
              "type": "integer"
            },
            "description": "Seconds to wait."
          }
        }
      },
      "E500": {
        "description": "Internal Server Error. Codes: `internal` — An unexpected failure.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "E503": {
        "description": "Service Unavailable. Codes: `unavailable` — The storage is temporarily unavailable; retry.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "E507": {
        "description": "Insufficient Storage. Codes: `storage_quota_exceeded` — The app's attachments would pass its storage quota (`limits.attachment_quota_bytes`, 10 GiB by default); nothing was stored. Retrying does not help until attachments are deleted or the quota is raised.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      }
    },
    "securitySchemes": {
      "userToken": {
        "type": "http",
        "scheme": "bearer",
        "bearerFormat": "JWT",
        "description": "A user token: JWT HS256 signed with the app secret; sub = user id, aud = app id, exp, iat."
      },
      "appCredentials": {
        "type": "http",
        "scheme": "basic",
        "description": "The app key as user name and the app secret as password."
      }
    }
  }
}
"""##
}
