import Foundation
import PackagePlugin

/// Generates `WebAssetFiles.files` for the target from the browser client's files in Web/
/// (HTML, JavaScript, CSS, SVG), so the binary carries the page and needs no resource bundle.
@main
struct WebAssetsPlugin: BuildToolPlugin {
    static let kinds: Set<String> = ["html", "js", "css", "svg"]

    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let web = context.package.directoryURL.appending(path: "Web")
        let names = try FileManager.default.contentsOfDirectory(atPath: web.path(percentEncoded: false))
            .filter { Self.kinds.contains(($0 as NSString).pathExtension) }
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        let inputs = names.map { web.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "WebAssetFiles.swift")
        return [.buildCommand(
            displayName: "Embedding Web/",
            executable: try context.tool(named: "ParleyEmbed").url,
            arguments: ["web", output.path(percentEncoded: false)] + inputs.map { $0.path(percentEncoded: false) },
            inputFiles: inputs,
            outputFiles: [output])]
    }
}
