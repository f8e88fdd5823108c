/// Starts the server for `parley serve` and blocks until it shuts down.
enum ParleyServerMain {
    static func run(_ options: ServeOptions) -> Int32 {
        printError("parley serve: the network layer is not wired yet")
        return 1
    }
}
