// Generated from docs/openapi.json by scripts/embed-openapi.sh; do not edit.

/// The OpenAPI 3.1 document of the chat REST API.
enum OpenAPIDocument {
    /// The document's JSON text.
    static let json = ##"""
{}
"""##
}
