import ParleyChannels

extension ParleyVersion {
    /// The Swift compiler release the binary was built with (`6.3`), as far as `#if compiler`
    /// can tell.
    public static let swiftCompiler: String = {
        #if compiler(>=7.0)
        return "7+"
        #elseif compiler(>=6.4)
        return "6.4"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #elseif compiler(>=6.1)
        return "6.1"
        #else
        return "6.0"
        #endif
    }()

    /// `parley_build_info`: always 1, its labels name the build.
    static func buildInfoMetric() -> String {
        var out = PrometheusText()
        out.family("parley_build_info", "gauge", "Always 1; the labels name the running build.")
        out.sample("parley_build_info", [("version", string), ("swift", swiftCompiler)], 1)
        return out.text
    }
}
