import ParleyServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

var environment: [String: String] = [:]
for (key, value) in ProcessInfoLite.environment() { environment[key] = value }
exit(ParleyCommand.run(Array(CommandLine.arguments.dropFirst()), environment: environment))
