import Foundation
import PackagePlugin

/// Generates `OpenAPIDocument.json` for the target from docs/openapi.json, the single source
/// of the chat API's document (edit the JSON; the next build serves it).
@main
struct OpenAPIDocumentPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let input = context.package.directoryURL.appending(path: "docs/openapi.json")
        let output = context.pluginWorkDirectoryURL.appending(path: "OpenAPIDocument.swift")
        return [
            .buildCommand(
                displayName: "Embedding docs/openapi.json",
                executable: try context.tool(named: "ParleyEmbed").url,
                arguments: ["openapi", input.path(percentEncoded: false), output.path(percentEncoded: false)],
                inputFiles: [input],
                outputFiles: [output])
        ]
    }
}
