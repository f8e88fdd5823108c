import ParleyPlatform
import ParleyServer
import ParleyTerminal

var environment: [String: String] = [:]
for (key, value) in ProcessInfoLite.environment() { environment[key] = value }
let arguments = Array(CommandLine.arguments.dropFirst())
// The terminal client sits below the server composition in the module order (DESIGN.md), so
// only the executable, which may import both, hands `parley chat` to it.
if arguments.first == "chat" {
    exit(await ChatCommandLine.run(Array(arguments.dropFirst()), environment: environment))
}
exit(await ParleyCommand.run(arguments, environment: environment))
