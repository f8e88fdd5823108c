import Foundation
import PackagePlugin

/// Generates `WebAssetFiles.files` for the target from the browser client's files in Web/
/// (HTML, JavaScript, CSS, SVG), so the binary carries the page and needs no resource bundle.
@main
struct WebAssetsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let web = context.package.directoryURL.appending(path: "Web")
        let inputs = try FileManager.default.contentsOfDirectory(atPath: web.path(percentEncoded: false))
            .map { web.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "WebAssetFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding Web/",
                executable: try context.tool(named: "ParleyEmbed").url,
                arguments: ["web", output.path(percentEncoded: false), web.path(percentEncoded: false)],
                // The directory too: adding or removing a file changes it, and the tool lists it again.
                inputFiles: [web] + inputs,
                outputFiles: [output])
        ]
    }
}
