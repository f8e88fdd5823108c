// The build-time generator behind the OpenAPIDocumentPlugin and WebAssetsPlugin: turns files
// kept in the repository (docs/openapi.json, Web/) into Swift string literals, so the served
// bytes are always the files' bytes and no generated source is kept in git.
//
//   ParleyEmbed openapi <openapi.json> <output.swift>
//   ParleyEmbed web <output.swift> <Web directory>
import Foundation

/// `text` as one Swift string literal that evaluates to exactly `text`: every character that a
/// literal would change or end on (quotes, backslashes, control characters, line breaks) is
/// escaped, so no raw-string terminator can collide with the content.
func literal(_ text: String) -> String {
    var out = "\""
    out.reserveCapacity(text.utf8.count + text.utf8.count / 8)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            out += "\\u{" + String(scalar.value, radix: 16) + "}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

func read(_ path: String) throws -> String {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    guard let text = String(data: data, encoding: .utf8) else { throw EmbedError("\(path) is not UTF-8") }
    return text
}

func write(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
}

struct EmbedError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The chat service serves the document without its final line break, as it always has.
func openAPI(input: String, output: String) throws {
    var json = try read(input)
    if json.hasSuffix("\n") { json.removeLast() }
    try write(
        """
        // Generated at build time from docs/openapi.json by OpenAPIDocumentPlugin; not kept in git.

        /// The OpenAPI 3.1 document of the chat REST API.
        enum OpenAPIDocument {
            /// The document's JSON text.
            static let json = \(literal(json))
        }

        """, to: output)
}

/// The page's files in Web/ (HTML, JavaScript, CSS, SVG), in byte order of their names.
func web(output: String, directory: String) throws {
    let kinds: Set<String> = ["html", "js", "css", "svg"]
    let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        .filter { kinds.contains(($0 as NSString).pathExtension) }
        .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    var entries = ""
    for name in names {
        entries += "        (\(literal(name)), \(literal(try read(directory + "/" + name)))),\n"
    }
    try write(
        """
        // Generated at build time from Web/ by WebAssetsPlugin; not kept in git.

        /// The browser client's files (path under Web/, text), embedded at build time.
        enum WebAssetFiles {
            static let files: [(name: String, text: String)] = [
        \(entries)    ]
        }

        """, to: output)
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "openapi" where arguments.count == 3: try openAPI(input: arguments[1], output: arguments[2])
    case "web" where arguments.count == 3: try web(output: arguments[1], directory: arguments[2])
    default: throw EmbedError("usage: ParleyEmbed openapi <openapi.json> <output.swift> | web <output.swift> <directory>")
    }
} catch {
    FileHandle.standardError.write(Data("ParleyEmbed: \(error)\n".utf8))
    exit(1)
}
